/**
 * The page's timeline model (pure): calls joined with their results and durations, turns numbered,
 * pauses and compaction summaries recognised, the charts' series.
 */
import { describe, expect, it } from "vitest";
import { wrapSummary } from "../../src/compaction/prompt";
import type { ModelMessage } from "../../src/index";
import { seriesOf, timelineOf } from "../../src/studio/page/turns";

const history: ModelMessage[] = [
  { role: "user", content: wrapSummary("We read three files.") },
  {
    role: "assistant",
    content: [{ type: "tool_use", id: "a", name: "read_file", input: { path: "x" } }],
    usage: {
      input_tokens: 100,
      output_tokens: 10,
      cache_read_input_tokens: 50,
      cache_creation_input_tokens: 5,
    },
    meta: { latency_ms: 900, cost_usd: 0.01 },
  },
  {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "a", content: "boom", is_error: true }],
    meta: { tool_durations_ms: { a: 30 } },
  },
  {
    role: "assistant",
    content: [{ type: "text", text: "Done." }],
    meta: { latency_ms: 400, cost_usd: 0.02 },
  },
  { role: "user", content: "Deploy?" },
  { role: "assistant", content: [{ type: "tool_use", id: "d", name: "deploy", input: {} }] },
  Object.assign(
    { role: "user" as const, content: "waiting" },
    { pending_approvals: [{ tool_use_id: "d", name: "deploy" }] },
  ),
];

describe("the studio page's timeline model", () => {
  it("joins calls with results and durations, numbers turns, recognises compaction and pauses", () => {
    const items = timelineOf(history, 10);
    expect(items.map((item) => item.kind)).toEqual(["compaction", "turn", "turn", "prompt", "turn", "pause"]);
    const first = items[1] as Extract<(typeof items)[number], { kind: "turn" }>;
    expect(first).toMatchObject({ index: 11, number: 1, toolMs: 30 });
    expect(first.calls[0]).toMatchObject({ durationMs: 30, result: { is_error: true, content: "boom" } });
    expect(items[5]).toMatchObject({ kind: "pause", index: 16, inputs: [] });
  });

  it("lists the questions a pause waits on beside its calls", () => {
    const question = { id: "q/input-1", server: "crm", message: "Which plan?", mode: "form" };
    const paused: ModelMessage[] = [
      ...history.slice(0, -1),
      Object.assign(
        { role: "user" as const, content: "waiting" },
        { pending_approvals: [], pending_inputs: [question] },
      ),
    ];
    expect(timelineOf(paused, 0).at(-1)).toEqual({
      kind: "pause",
      index: 6,
      pending: [],
      inputs: [question],
    });
  });

  it("gives the charts one point per turn: context, cost so far, model and tool time", () => {
    const series = seriesOf(timelineOf(history, 0));
    expect(series.turn).toEqual([1, 2, 3]);
    expect(series.input).toEqual([100, 0, 0]);
    expect(series.cacheRead).toEqual([50, 0, 0]);
    expect(series.cacheWrite).toEqual([5, 0, 0]);
    expect(series.cumulativeCost[1]).toBeCloseTo(0.03, 10);
    expect(series.modelMs).toEqual([900, 400, 0]);
    expect(series.toolMs).toEqual([30, 0, 0]);
  });
});

describe("a turn opening with the provider's server compaction", () => {
  it("shows the compaction summary among the turn's prose, before its text", async () => {
    const { proseOf } = await import("../../src/studio/page/turns");
    const prose = proseOf({
      role: "assistant",
      content: [
        { type: "compaction", content: "We read three files.", encrypted_content: "b3Bh", signature: "c2ln" },
        { type: "text", text: "Next file." },
        { type: "tool_use", id: "c", name: "read_file", input: {} },
      ],
    });
    expect(prose.map((block) => block.type)).toEqual(["compaction", "text"]);
  });
});

describe("the charts' axes", () => {
  it("pad the turn axis by half a turn, so the first and last bars are drawn whole", async () => {
    const { turnRange } = await import("../../src/studio/page/chart-ranges");
    expect(turnRange(1, 5)).toEqual([0.5, 5.5]);
    expect(turnRange(3, 3)).toEqual([2.5, 3.5]);
    expect(turnRange(null, null)).toEqual([0.5, 1.5]);
  });

  it("tick the turn axis at whole turns only (two turns are 1 and 2, never 1.2, 1.4 …)", async () => {
    const { TURN_STEPS } = await import("../../src/studio/page/chart-ranges");
    expect(TURN_STEPS[0]).toBe(1);
    for (const step of TURN_STEPS) expect(Number.isInteger(step)).toBe(true);
    expect([...TURN_STEPS].sort((a, b) => a - b)).toEqual(TURN_STEPS);
  });

  it("label value ticks with the decimals they need, all alike (a tick at 0.0005 is not shown as 0.001)", async () => {
    const { valueLabels } = await import("../../src/studio/page/chart-ranges");
    expect(valueLabels([0, 0.0005, 0.001])).toEqual(["0.0000", "0.0005", "0.0010"]);
    expect(valueLabels([0, 50, 100])).toEqual(["0", "50", "100"]);
    expect(valueLabels([0, 5000, 10000])).toEqual(["0", "5,000", "10,000"]);
    expect(valueLabels([0, 0.2, 0.4, 0.6000000000000001])).toEqual(["0.0", "0.2", "0.4", "0.6"]);
    expect(valueLabels([])).toEqual([]);
  });

  it("widen a value axis for long labels, never below uPlot's 50 px", async () => {
    const { valueAxisWidth } = await import("../../src/studio/page/chart-ranges");
    expect(valueAxisWidth(["0", "50"])).toBe(50);
    expect(valueAxisWidth(null)).toBe(50);
    expect(valueAxisWidth(["0.0000", "0.0005"])).toBeGreaterThan(valueAxisWidth(["0", "100"]));
  });

  it("start values at zero and stay small when every value is zero (a cost of $0 is not drawn on 0–100)", async () => {
    const { fromZeroRange } = await import("../../src/studio/page/chart-ranges");
    expect(fromZeroRange(0, 0.01)).toEqual([0, 0.01]);
    expect(fromZeroRange(null, 1)).toEqual([0, 1]);
    expect(fromZeroRange(2, 0.01)).toEqual([0, 2.2]);
  });
});

describe("guardrail verdicts on the timeline", () => {
  it("each verdict recorded in history is an item after its message, marked when its turn was withdrawn", () => {
    const record = {
      name: "pii",
      stage: "output" as const,
      verdict: "tripwire" as const,
      message: "personal data",
    };
    const items = timelineOf(
      [
        { role: "user", content: "phone?", meta: { withdrawn: "guardrail" } },
        {
          role: "assistant",
          content: [{ type: "text", text: "+44…" }],
          meta: { withdrawn: "guardrail", guardrail: record },
        },
      ],
      0,
    );
    expect(items.map((item) => item.kind)).toEqual(["prompt", "turn", "guardrail"]);
    expect(items[2]).toEqual({ kind: "guardrail", index: 1, record, withdrawn: true });
  });
});

describe("handoffs on the timeline", () => {
  it("a recorded handoff is an item after its message; each turn keeps who answered it", () => {
    const items = timelineOf(
      [
        { role: "user", content: "invoice?" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "h1", name: "transfer_to_billing", input: {} }],
          meta: { agent: "triage" },
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "h1", content: "Transferred to billing" }],
          meta: { handoff: { from: "triage", to: "billing" } },
        },
        { role: "assistant", content: [{ type: "text", text: "Paid." }], meta: { agent: "billing" } },
      ],
      0,
    );
    expect(items.map((item) => item.kind)).toEqual(["prompt", "turn", "handoff", "turn"]);
    expect(items[2]).toEqual({ kind: "handoff", index: 2, from: "triage", to: "billing" });
    const last = items[3] as Extract<(typeof items)[number], { kind: "turn" }>;
    expect(last.message.meta?.agent).toBe("billing");
  });
});
