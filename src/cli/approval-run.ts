/**
 * Approvals in the command: a query that pauses `requires_approval` is answered by the person —
 * asked y/n per call in an interactive session, or, elsewhere, listed with the command that resumes
 * it (exit code 3) and resumed by a later run with `--session` plus `--approve` / `--deny`. A call's
 * input is shown redacted, as every other output of the command.
 * @module
 */
import type { ApprovalDecision, ApprovalDecisions, PendingApproval } from "../messages/approvals";
import type { CliDecisions } from "./approval-options";
import { UsageError } from "./args";
import { EXIT_APPROVAL_REQUIRED } from "./exit-codes";
import type { Redactor } from "./redact";
import { type PromptRun, runPrompt } from "./run-prompt";

/** The tool_result text of a call the person denied without a reason. */
export const DENIED_BY_USER = "The user denied this call.";

/** Asks the person one question; `undefined` when the input has ended. */
export type Ask = (question: string) => Promise<string | undefined>;

/**
 * One pending call as the person reads it: `deploy {"target":"production"} [toolu_…]`, with
 * `(in subagent "releaser")` for a subagent's own call.
 */
export function describePending(call: PendingApproval, redact: Redactor): string {
  const why = call.message ? ` — ${call.message}` : "";
  const inside = call.agent ? ` (in subagent ${JSON.stringify(call.agent)})` : "";
  return redact(`${call.name} ${JSON.stringify(call.input) ?? ""} [${call.tool_use_id}]${inside}${why}`);
}

/** After a run that paused (not interactive): the calls waiting and how to resume them. */
export async function reportPending(run: PromptRun): Promise<void> {
  const pending = await run.agent.getPendingApprovals();
  run.output.notice(
    `⏸ waiting for approval of ${pending.length} tool ${pending.length === 1 ? "call" : "calls"}:`,
  );
  for (const call of pending) run.output.notice(`  ${describePending(call, run.output.redact)}`);
  if (run.sessionPath === undefined) {
    run.output.notice("  (no --session: this pause ends with the command; use --session to resume it later)");
    return;
  }
  const ids = pending.map((call) => `--approve ${call.tool_use_id}`).join(" ");
  run.output.notice(
    `  resume: agent-lattice --session ${run.sessionPath} ${ids}   (or --deny <id>[=reason])`,
  );
}

/** `--session <file> --approve … --deny …`: resumes the session's paused query with the decisions. */
export async function resumeOnce(decisions: CliDecisions, run: PromptRun): Promise<number> {
  const pending = await run.agent.getPendingApprovals();
  const code = await runPrompt({ approvals: decisionsFor(decisions, pending) }, run);
  if (code === EXIT_APPROVAL_REQUIRED) await reportPending(run);
  return code;
}

/**
 * The decisions of the command line for `pending` (`all` stands for every pending call).
 * @throws {UsageError} when nothing is pending, an id is not pending, or a pending call has no decision.
 */
export function decisionsFor(cli: CliDecisions, pending: readonly PendingApproval[]): ApprovalDecisions {
  if (pending.length === 0) throw new UsageError("no tool call in this session is waiting for approval");
  const ids = pending.map((call) => call.tool_use_id);
  const decisions: ApprovalDecisions = {};
  const decide = (id: string, decision: ApprovalDecision) => {
    if (id === "all") for (const each of ids) decisions[each] ??= decision;
    else if (ids.includes(id)) decisions[id] = decision;
    else throw new UsageError(`"${id}" is not waiting for approval (pending: ${ids.join(", ")})`);
  };
  // Named ids first, so that `all` only fills the calls not named.
  const named = <T extends { id: string }>(list: T[], all: boolean) =>
    list.filter((item) => (item.id === "all") === all);
  const approvals = cli.approve.map((id) => ({ id }));
  for (const all of [false, true]) {
    for (const { id } of named(approvals, all)) decide(id, { approved: true });
    for (const { id, message } of named(cli.deny, all))
      decide(id, { approved: false, message: message ?? DENIED_BY_USER });
  }
  const missing = ids.filter((id) => !(id in decisions));
  if (missing.length > 0)
    throw new UsageError(
      `no decision for ${missing.join(", ")}: every pending call needs --approve or --deny`,
    );
  return decisions;
}

/**
 * In an interactive session: while the last query is waiting, asks about each pending call
 * (`y`, `n`, or `n <reason>`) and resumes with the answers. Returns the exit code of the last
 * query; the pause stays when the input ends before every call was answered.
 */
export async function askAndResume(code: number, run: PromptRun, ask: Ask): Promise<number> {
  while (code === EXIT_APPROVAL_REQUIRED) {
    const decisions: ApprovalDecisions = {};
    for (const call of await run.agent.getPendingApprovals()) {
      const decision = await askOne(call, run, ask);
      if (!decision) return code;
      decisions[call.tool_use_id] = decision;
    }
    code = await runPrompt({ approvals: decisions }, run);
  }
  return code;
}

async function askOne(
  call: PendingApproval,
  run: PromptRun,
  ask: Ask,
): Promise<ApprovalDecision | undefined> {
  for (;;) {
    const answer = await ask(`Allow ${describePending(call, run.output.redact)}? [y/n, or n <reason>] `);
    if (answer === undefined) return undefined;
    const [word = "", ...rest] = answer.trim().split(/\s+/);
    const reason = rest.join(" ");
    if (/^y(es)?$/i.test(word) && reason === "") return { approved: true };
    if (/^no?$/i.test(word)) return { approved: false, message: reason || DENIED_BY_USER };
  }
}
