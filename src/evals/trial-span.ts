/**
 * Telemetry: each trial as an OpenTelemetry span (`eval_trial <eval>`), carrying its case id, trial
 * number, status and scores, active while the trial runs so that the agent's own spans (with
 * `telemetry` on in its options) nest under it. `@opentelemetry/api` is loaded only when present
 * and a tracer provider is registered; without it this is a plain call.
 * @module
 */
import type { TrialRecord } from "./run-trial";

interface OtelApi {
  trace: {
    getTracer(name: string): {
      startActiveSpan<T>(name: string, run: (span: OtelSpan) => T): T;
    };
  };
}
interface OtelSpan {
  setAttribute(key: string, value: string | number | boolean): void;
  setStatus(status: { code: number; message?: string }): void;
  end(): void;
}

let api: Promise<OtelApi | undefined> | undefined;

function loadApi(): Promise<OtelApi | undefined> {
  api ??= import("@opentelemetry/api").then(
    (module) => ((module as { default?: OtelApi }).default ?? module) as OtelApi,
    () => undefined,
  );
  return api;
}

/** Runs `trial` inside a span when OpenTelemetry is there; records the outcome on it. */
export async function withTrialSpan(
  evalName: string,
  caseId: string,
  trial: number,
  run: () => Promise<TrialRecord>,
): Promise<TrialRecord> {
  const otel = await loadApi();
  if (!otel) return run();
  return otel.trace.getTracer("agent-lattice").startActiveSpan(`eval_trial ${evalName}`, async (span) => {
    try {
      const record = await run();
      span.setAttribute("agent_lattice.eval.name", evalName);
      span.setAttribute("agent_lattice.eval.case_id", caseId);
      span.setAttribute("agent_lattice.eval.trial", trial);
      span.setAttribute("agent_lattice.eval.status", record.status);
      span.setAttribute("agent_lattice.eval.cost_usd", record.costUsd);
      span.setAttribute("agent_lattice.eval.judge_cost_usd", record.judgeCostUsd);
      for (const score of record.scores) {
        span.setAttribute(`agent_lattice.eval.score.${score.scorer}`, score.score);
        span.setAttribute(`agent_lattice.eval.pass.${score.scorer}`, score.pass);
      }
      // 2 is SpanStatusCode.ERROR, 1 OK.
      span.setStatus(
        record.status === "passed" ? { code: 1 } : { code: 2, message: record.error ?? record.status },
      );
      return record;
    } finally {
      span.end();
    }
  });
}
