/** With `telemetry` on in the agent's options, each trial is a span carrying its case, trial and scores, parent of the agent's spans. */
import { context } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, expect, it } from "vitest";
import { defineEval, runEval } from "../../src/evals/index";
import { createScriptedClient } from "../../src/testing/index";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterAll(async () => {
  context.disable();
  await provider.shutdown();
});

it("records one eval_trial span per trial with its case id, trial number, status and scores", async () => {
  const tracer = provider.getTracer("evals-test");
  await runEval(
    defineEval({
      name: "traced",
      agent: ({ trial }) => ({
        model: "claude-sonnet-4-6",
        client: createScriptedClient(() => ({ content: trial === 1 ? "yes" : "no" })),
        telemetry: { tracer },
      }),
      cases: [{ id: "only", input: "hi" }],
      scorers: [
        function saysYes(run) {
          return { score: run.output === "yes" ? 1 : 0 };
        },
      ],
      trials: 2,
      concurrency: 1,
    }),
  );
  const spans = exporter.getFinishedSpans();
  const trials = spans.filter((span) => span.name === "eval_trial traced");
  expect(trials.map((span) => span.attributes)).toEqual([
    expect.objectContaining({
      "agent_lattice.eval.case_id": "only",
      "agent_lattice.eval.trial": 1,
      "agent_lattice.eval.status": "passed",
      "agent_lattice.eval.score.saysYes": 1,
      "agent_lattice.eval.pass.saysYes": true,
    }),
    expect.objectContaining({
      "agent_lattice.eval.trial": 2,
      "agent_lattice.eval.status": "failed",
      "agent_lattice.eval.score.saysYes": 0,
    }),
  ]);
  const agentSpans = spans.filter((span) => span.name.startsWith("invoke_agent"));
  expect(agentSpans).toHaveLength(2);
  for (const [index, span] of agentSpans.entries())
    expect(span.parentSpanContext?.spanId).toBe(trials[index]!.spanContext().spanId);
});
