/**
 * How a run of a job goes on from what the conversation's history holds. A job's first run notes
 * the history length it started from; a later run (after a crash, a stall or a shutdown) compares
 * the history it loads with that mark:
 *
 * - the prompt is not there → `fresh`: send it, as the first run meant to;
 * - the prompt is the last message (no response was recorded) → `rewind`: take it off and send it
 *   again, so the model sees exactly what a first run would have sent;
 * - anything after the prompt (a response, tool results — dangling calls already repaired by the
 *   agent's load as "effect unverified") → `continue`: the model is asked to carry on.
 *
 * `progressed` (a response was recorded by an earlier run) means `continue` whatever the history
 * looks like: a compaction may have rewritten it since.
 * @module
 */
import { isDeepStrictEqual } from "node:util";
import type { GuardrailRecord, ModelMessage } from "../index";
import type { JobInput } from "./job-types";

/**
 * What a run sends — or, `withdrawn`, that it sends nothing: an earlier run's turn was withdrawn by
 * a guardrail (recorded, then the worker stopped before the job's result was): the job ends with
 * that verdict, and the blocked turn is never sent again as if it had been allowed.
 */
export type ResumePlan =
  | { mode: "fresh" }
  | { mode: "rewind"; keep: number }
  | { mode: "continue" }
  | { mode: "withdrawn"; guardrail: GuardrailRecord };

/**
 * The default text a resumed run sends when its query had made progress. It is a user message
 * after the recorded history (the Messages API joins it with a preceding user message).
 */
export const DEFAULT_CONTINUATION_PROMPT =
  "(The worker running this request stopped before it finished; the conversation above is what was " +
  "recorded. Tool calls marked as never recorded may or may not have taken effect: check before " +
  "repeating them. Continue the task from where it stopped; if it was already complete, give your " +
  "final answer again.)";

/** The plan for a run, from the loaded history and the marks of earlier runs. */
export function planResume(
  history: readonly ModelMessage[],
  startedAt: number | undefined,
  progressed: boolean,
  input: JobInput,
): ResumePlan {
  const mark = startedAt === undefined ? undefined : history[startedAt];
  if (mark?.role === "user" && isDeepStrictEqual(mark.content, input)) {
    const withdrawn = withdrawnVerdict(history, startedAt!);
    if (withdrawn) return { mode: "withdrawn", guardrail: withdrawn };
  }
  if (progressed) return { mode: "continue" };
  if (startedAt === undefined || history.length <= startedAt) return { mode: "fresh" };
  const atMark = history[startedAt]!;
  if (atMark.role !== "user" || !isDeepStrictEqual(atMark.content, input)) return { mode: "fresh" };
  return history.length === startedAt + 1 ? { mode: "rewind", keep: startedAt } : { mode: "continue" };
}

/** The verdict of a guardrail that withdrew the job's turn (recorded from `startedAt` on), if one did. */
function withdrawnVerdict(history: readonly ModelMessage[], startedAt: number): GuardrailRecord | undefined {
  for (let index = startedAt; index < history.length; index++) {
    const meta = history[index]!.meta;
    if (meta?.withdrawn === "guardrail" && meta.guardrail && meta.guardrail.verdict !== "redact")
      return meta.guardrail;
  }
  return undefined;
}
