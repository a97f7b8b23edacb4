/**
 * `agent-lattice "prompt"`: one query, then exit. Ctrl-C (SIGINT) interrupts it; a second Ctrl-C
 * aborts it and quits.
 * @module
 */
import { reportPending } from "./approval-run";
import { EXIT_ABORTED, EXIT_APPROVAL_REQUIRED } from "./exit-codes";
import { type PromptRun, runPrompt } from "./run-prompt";

/** Runs one prompt with SIGINT wired to the interrupt control; returns the exit code. */
export async function runOnce(prompt: string, run: PromptRun): Promise<number> {
  const onSigint = () => {
    const action = run.control.press();
    if (action === "idle" || action === "force") process.exit(EXIT_ABORTED);
  };
  process.on("SIGINT", onSigint);
  try {
    const code = await runPrompt(prompt, run);
    if (code === EXIT_APPROVAL_REQUIRED) await reportPending(run);
    return code;
  } finally {
    process.off("SIGINT", onSigint);
  }
}
