/**
 * Telemetry: with `telemetry` on in the agent's options, each trial is an OpenTelemetry span
 * `eval_trial <eval>` (on the options' tracer, else the global one) carrying the eval's name, the
 * case id, the trial number, its status, costs and every score; the agent's own spans start while
 * it is the active context, so a context manager makes them its children. `@opentelemetry/api` is
 * loaded only then.
 * @module
 */
import type { AgentOptions } from "../index";
import type { ScoreRecord } from "./run-scorer";

/** What a trial's span records of its outcome (the fields of a `TrialRecord`). */
interface TrialOutcome {
  status: string;
  costUsd: number;
  judgeCostUsd: number;
  scores: ScoreRecord[];
  error?: string;
}

interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean): void;
  setStatus(status: { code: number; message?: string }): void;
  end(): void;
}
interface OtelTracer {
  startSpan(name: string, options?: unknown, context?: unknown): OtelSpan;
}
interface OtelApi {
  trace: { getTracer(name: string): OtelTracer; setSpan(context: unknown, span: OtelSpan): unknown };
  context: { active(): unknown; with<T>(context: unknown, work: () => T): T };
}

/** A trial's span: run the trial's work inside it, then record the outcome and end it. */
export interface TrialSpan {
  run<T>(work: () => Promise<T>): Promise<T>;
  finish(record: TrialOutcome): void;
}

/** The span of one trial, or `undefined` when the agent's options have no telemetry (or the API is missing). */
export async function startTrialSpan(
  telemetry: AgentOptions<unknown>["telemetry"],
  evalName: string,
  caseId: string,
  trial: number,
): Promise<TrialSpan | undefined> {
  if (!telemetry) return undefined;
  const otel = await import("@opentelemetry/api").then(
    (module) => ((module as { default?: OtelApi }).default ?? module) as unknown as OtelApi,
    () => undefined,
  );
  if (!otel) return undefined;
  const given = typeof telemetry === "object" ? (telemetry.tracer as OtelTracer | undefined) : undefined;
  const tracer = given ?? otel.trace.getTracer("agent-lattice");
  const span = tracer.startSpan(`eval_trial ${evalName}`);
  span.setAttribute("agent_lattice.eval.name", evalName);
  span.setAttribute("agent_lattice.eval.case_id", caseId);
  span.setAttribute("agent_lattice.eval.trial", trial);
  const active = otel.trace.setSpan(otel.context.active(), span);
  return {
    run: (work) => otel.context.with(active, work),
    finish(record) {
      span.setAttribute("agent_lattice.eval.status", record.status);
      span.setAttribute("agent_lattice.eval.cost_usd", record.costUsd);
      span.setAttribute("agent_lattice.eval.judge_cost_usd", record.judgeCostUsd);
      for (const score of record.scores) {
        span.setAttribute(`agent_lattice.eval.score.${score.scorer}`, score.score);
        span.setAttribute(`agent_lattice.eval.pass.${score.scorer}`, score.pass);
      }
      // SpanStatusCode: 1 OK, 2 ERROR.
      span.setStatus(
        record.status === "passed" ? { code: 1 } : { code: 2, message: record.error ?? record.status },
      );
      span.end();
    },
  };
}
