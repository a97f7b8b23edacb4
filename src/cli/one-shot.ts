/**
 * `agent-lattice "prompt"`: one query, then exit. Ctrl-C (SIGINT) interrupts it; a second Ctrl-C
 * aborts it and quits.
 * @module
 */
import { EXIT_ABORTED } from "./exit-codes";
import { type PromptRun, runPrompt } from "./run-prompt";

/** Runs one prompt with SIGINT wired to the interrupt control; returns the exit code. */
export async function runOnce(prompt: string, run: PromptRun): Promise<number> {
  const onSigint = () => {
    const action = run.control.press();
    if (action === "idle" || action === "force") process.exit(EXIT_ABORTED);
  };
  process.on("SIGINT", onSigint);
  try {
    return await runPrompt(prompt, run);
  } finally {
    process.off("SIGINT", onSigint);
  }
}
