/**
 * One prompt through the agent: stream its messages to the output, then decide the exit code.
 * @module
 */
import type { Agent } from "../agent/create-agent";
import type { ApprovalInput } from "../messages/approvals";
import type { SDKResultMessage } from "../messages/sdk-messages";
import { EXIT_ABORTED, EXIT_AGENT_ERROR, EXIT_APPROVAL_REQUIRED, EXIT_SUCCESS } from "./exit-codes";
import type { InterruptControl } from "./interrupt-control";
import type { CliIo } from "./io";
import type { QueryOutput } from "./query-output";
import type { SessionTally } from "./session-tally";

/** What {@link runPrompt} needs besides the prompt. */
export interface PromptRun {
  agent: Agent<unknown>;
  output: QueryOutput;
  control: InterruptControl;
  io: CliIo;
  /** With `--output-schema`: print the validated payload on stdout (unless the output is JSON). */
  structured: boolean;
  /** In an interactive session: where each result's usage and cost are added up, for `/cost`. */
  tally?: SessionTally;
  /** `--session`: where a paused query can be resumed from (for the hint after a pause). */
  sessionPath?: string;
  /** The run's own options, repeated by the resume hint (see resume-command.ts); default: `--session <file>`. */
  resumeFlags?: readonly string[];
  /** Names of the tools this run has: approving a call of another tool is refused. */
  toolNames?: readonly string[];
}

/**
 * Runs `prompt` (or resumes a pause with `{ approvals }`) and returns the exit code: 0 for success
 * and interrupted, 1 for an error result, 3 when it waits for approval or answers, 130 when a second Ctrl-C
 * aborted it.
 */
export async function runPrompt(prompt: string | ApprovalInput, run: PromptRun): Promise<number> {
  const signal = run.control.begin();
  run.output.begin();
  let result: SDKResultMessage<unknown> | undefined;
  try {
    for await (const message of run.agent.query(prompt, { signal })) {
      run.output.handle(message);
      if (message.type === "result") result = message;
    }
  } finally {
    run.control.end();
    run.output.end();
  }
  if (result) run.tally?.recordResult(result);
  if (run.control.aborted) return EXIT_ABORTED;
  if (!result || result.is_error) return EXIT_AGENT_ERROR;
  if (result.subtype === "requires_approval" || result.subtype === "requires_input")
    return EXIT_APPROVAL_REQUIRED;
  if (run.structured && result.subtype === "success" && !run.output.json)
    run.io.stdout.write(`${run.output.redact(JSON.stringify(result.structuredResult, null, 2))}\n`);
  return EXIT_SUCCESS;
}
