/**
 * Running the guardrails of one stage: all at once, each under its deadline and the query's
 * signal; the first tripwire decides at once (the others are aborted), then the first refusal in
 * the agent's order, then every redaction in that order. A check that throws, times out or returns
 * no verdict is a tripwire — fail closed — unless its definition says `onError: "allow"`.
 * @module
 */
import { GuardrailError } from "../errors";
import type { GuardrailRecord } from "../messages/types";
import { describeThrown } from "../shared/describe-thrown";
import { toPlainJson } from "../shared/plain-json";
import type { Guardrail, GuardrailContext, GuardrailStage, GuardrailVerdict } from "./guardrail";

/** What the guardrails of a stage decided together. */
export type StageDecision =
  | { verdict: "allow"; redactions?: Redaction[] }
  | { verdict: "reject" | "tripwire"; record: GuardrailRecord }
  /** The query was cancelled while they ran. */
  | { verdict: "cancelled" };

/** A guardrail's rewrite of the content's texts. */
export interface Redaction {
  record: GuardrailRecord;
  redact: (text: string) => string;
}

/** What a stage's run reports besides its decision: a failed check that fails open. */
export type FailOpenReport = (guardrail: Guardrail, error: GuardrailError) => void;

/** The guardrails' context without the per-check signal. */
export type StageContext = Omit<GuardrailContext, "signal">;

const ALLOW: StageDecision = Object.freeze({ verdict: "allow" });

/**
 * Runs `guardrails` on `context` and combines their verdicts. `signal` is the query's: once it
 * aborts, the run ends `cancelled` without waiting for the checks.
 */
export async function runGuardrails(
  guardrails: readonly Guardrail[],
  context: StageContext,
  signal: AbortSignal,
  onFailOpen: FailOpenReport,
): Promise<StageDecision> {
  if (signal.aborted) return { verdict: "cancelled" };
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    const verdicts: Array<GuardrailVerdict | undefined> = new Array(guardrails.length);
    const tripped = await new Promise<StageDecision | undefined>((resolve) => {
      let pending = guardrails.length;
      stop.signal.addEventListener("abort", () => resolve({ verdict: "cancelled" }), { once: true });
      guardrails.forEach((guardrail, index) => {
        void checkOne(guardrail, context, stop.signal, onFailOpen).then((verdict) => {
          verdicts[index] = verdict;
          if (verdict.verdict === "tripwire" && !stop.signal.aborted) {
            resolve({ verdict: "tripwire", record: recordOf(guardrail, context.stage, verdict) });
            return;
          }
          if (--pending === 0) resolve(undefined);
        });
      });
    });
    if (tripped) return tripped;
    return combined(guardrails, verdicts as GuardrailVerdict[], context.stage);
  } finally {
    signal.removeEventListener("abort", onAbort);
    if (!stop.signal.aborted)
      stop.abort(new DOMException("The guardrails of this stage decided.", "AbortError"));
  }
}

/** The first refusal in the agent's order, or every redaction; allow otherwise. */
function combined(
  guardrails: readonly Guardrail[],
  verdicts: readonly GuardrailVerdict[],
  stage: GuardrailStage,
): StageDecision {
  let redactions: Redaction[] | undefined;
  for (let index = 0; index < verdicts.length; index++) {
    const verdict = verdicts[index]!;
    const guardrail = guardrails[index]!;
    if (verdict.verdict === "reject")
      return { verdict: "reject", record: recordOf(guardrail, stage, verdict) };
    if (verdict.verdict === "redact")
      (redactions ??= []).push({ record: recordOf(guardrail, stage, verdict), redact: verdict.redact });
  }
  return redactions ? { verdict: "allow", redactions } : ALLOW;
}

/** One check under its deadline; never rejects: a failure is its `onError` verdict. */
async function checkOne(
  guardrail: Guardrail,
  context: StageContext,
  stageSignal: AbortSignal,
  onFailOpen: FailOpenReport,
): Promise<GuardrailVerdict> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(stageSignal.reason);
  stageSignal.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new GuardrailError(
        guardrail.name,
        context.stage,
        `timed out after ${guardrail.timeoutMs} ms`,
      );
      controller.abort(error);
      reject(error);
    }, guardrail.timeoutMs);
  });
  try {
    const checking = Promise.resolve().then(() => guardrail.check({ ...context, signal: controller.signal }));
    const verdict = await Promise.race([checking, expired]);
    const problem = verdictProblem(verdict);
    if (problem) throw new GuardrailError(guardrail.name, context.stage, problem);
    return verdict;
  } catch (error) {
    if (stageSignal.aborted) return { verdict: "allow" }; // decided or cancelled: this one no longer counts
    const failure =
      error instanceof GuardrailError
        ? error
        : new GuardrailError(guardrail.name, context.stage, `threw: ${describeThrown(error)}`, {
            cause: error,
          });
    if (guardrail.onError === "allow") {
      onFailOpen(guardrail, failure);
      return { verdict: "allow" };
    }
    return { verdict: "tripwire", message: failure.message, info: { error: failure.message } };
  } finally {
    clearTimeout(timer);
    stageSignal.removeEventListener("abort", onAbort);
  }
}

/** Why a returned value is no verdict, if it is not one. */
function verdictProblem(verdict: unknown): string | undefined {
  const value = verdict as GuardrailVerdict | undefined;
  switch (value?.verdict) {
    case "allow":
    case "tripwire":
      return undefined;
    case "reject":
      return typeof value.message === "string" && value.message !== ""
        ? undefined
        : 'returned "reject" without a message';
    case "redact":
      return typeof value.redact === "function" ? undefined : 'returned "redact" without a redact function';
    default:
      return `returned no verdict (got ${describeThrown(verdict)}); expected { verdict: "allow" | "reject" | "tripwire" | "redact" }`;
  }
}

/** The verdict as history records it: its info as plain JSON (left out when it is none). */
function recordOf(guardrail: Guardrail, stage: GuardrailStage, verdict: GuardrailVerdict): GuardrailRecord {
  const record: GuardrailRecord = {
    name: guardrail.name,
    stage,
    verdict: verdict.verdict as GuardrailRecord["verdict"],
  };
  if ("message" in verdict && typeof verdict.message === "string") record.message = verdict.message;
  if ("info" in verdict && verdict.info !== undefined) {
    const plain = toPlainJson(verdict.info, "info", "replace");
    record.info = plain.ok ? plain.value : { unserializable: plain.problem };
  }
  return record;
}
