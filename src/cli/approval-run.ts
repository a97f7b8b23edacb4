/**
 * Approvals in the command: a query that pauses `requires_approval` is answered by the person —
 * asked y/n per call in an interactive session, or, elsewhere, listed with the command that resumes
 * it (exit code 3) and resumed by a later run with `--session` plus `--approve` / `--deny`. A call's
 * input is shown redacted, as every other output of the command.
 * @module
 */
import type { ApprovalDecision, ApprovalDecisions, PendingApproval } from "../messages/approvals";
import type { ToolUseBlock } from "../messages/types";
import type { CliDecisions } from "./approval-options";
import { EXIT_APPROVAL_REQUIRED } from "./exit-codes";
import { askInputs, reportInputs } from "./input-run";
import type { Redactor } from "./redact";
import { type PromptRun, runPrompt } from "./run-prompt";
import { shellWord } from "./shell-word";
import { UsageError } from "./usage-error";

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
  if (pending.length === 0) return reportInputs(run);
  run.output.notice(
    `⏸ waiting for approval of ${pending.length} tool ${pending.length === 1 ? "call" : "calls"}:`,
  );
  for (const call of pending) run.output.notice(`  ${describePending(call, run.output.redact)}`);
  if (run.sessionPath === undefined) {
    run.output.notice("  (no --session: this pause ends with the command; use --session to resume it later)");
    return;
  }
  const ids = pending.map((call) => `--approve ${shellWord(call.tool_use_id)}`).join(" ");
  const flags = run.resumeFlags ?? [`--session ${shellWord(run.sessionPath)}`];
  const command = `agent-lattice ${flags.join(" ")} ${ids}`;
  run.output.notice(`  resume: ${command}   (or --deny <id>[=reason])`);
  // --json: the same, as data after the result line (approving every call; swap in --deny as needed).
  run.output.data({
    type: "resume",
    command,
    pending: pending.map((call) => ({ tool_use_id: call.tool_use_id, name: call.name })),
  });
}

/** `--session <file> --approve … --deny …`: resumes the session's paused query with the decisions. */
export async function resumeOnce(decisions: CliDecisions, run: PromptRun): Promise<number> {
  const pending = await run.agent.getPendingApprovals();
  const approvals = decisionsFor(decisions, pending);
  refuseUnloadedTools(pending, approvals, run);
  run.output.knowCalls(pending.map(asToolUse));
  const code = await runPrompt({ approvals }, run);
  if (code === EXIT_APPROVAL_REQUIRED) await reportPending(run);
  return code;
}

/**
 * Approving a call whose tool this run does not have would run nothing (the call would fail as an
 * unknown tool) while the person believes it approved: refused before anything runs.
 * @throws {UsageError} naming the call, the missing tool and the tools this run has.
 */
function refuseUnloadedTools(
  pending: readonly PendingApproval[],
  approvals: ApprovalDecisions,
  run: PromptRun,
): void {
  if (run.toolNames === undefined) return;
  const names = run.toolNames;
  // A subagent's own call runs with the subagent's tools, which this run does not list.
  const missing = pending.filter(
    (call) => approvals[call.tool_use_id]?.approved && call.agent === undefined && !names.includes(call.name),
  );
  if (missing.length === 0) return;
  const calls = missing.map((call) => `${call.name} [${call.tool_use_id}]`).join(", ");
  throw new UsageError(
    `cannot approve ${calls}: this run has no tool ${[...new Set(missing.map((call) => JSON.stringify(call.name)))].join(", ")} ` +
      `(its tools: ${names.length > 0 ? names.join(", ") : "none"}). Resume with the options of the run that paused ` +
      "(the resume line it printed has them, e.g. --tools write); nothing was run",
  );
}

/** A pending call as the tool_use block it came from, for the output's description of its result. */
function asToolUse(call: PendingApproval): ToolUseBlock {
  return { type: "tool_use", id: call.tool_use_id, name: call.name, input: call.input };
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
    const pending = await run.agent.getPendingApprovals();
    run.output.knowCalls(pending.map(asToolUse));
    for (const call of pending) {
      const decision = await askOne(call, run, ask);
      if (!decision) {
        await reportUnanswered(run);
        return code;
      }
      decisions[call.tool_use_id] = decision;
    }
    const questions = await run.agent.getPendingInputs();
    const inputs = questions.length > 0 ? await askInputs(questions, run, ask) : undefined;
    if (questions.length > 0 && !inputs) {
      await reportUnanswered(run);
      return code;
    }
    const decided = Object.keys(decisions).length > 0;
    code = await runPrompt(
      inputs ? (decided ? { approvals: decisions, inputs } : { inputs }) : { approvals: decisions },
      run,
    );
  }
  return code;
}

/** The question was left (Ctrl-C, Ctrl-D, the input ended): the calls stay pending, and the person is told where. */
async function reportUnanswered(run: PromptRun): Promise<void> {
  const count = (await run.agent.getPendingApprovals()).length;
  const questions = (await run.agent.getPendingInputs()).length;
  const calls =
    count > 0 || questions === 0
      ? `${count} tool ${count === 1 ? "call" : "calls"}`
      : `${questions} ${questions === 1 ? "question" : "questions"}`;
  run.output.notice(
    run.sessionPath === undefined
      ? `⏸ not answered: ${calls} left pending; without --session the pause ends with this session`
      : `⏸ not answered: ${calls} still pending in ${run.sessionPath}; the next start asks again`,
  );
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
