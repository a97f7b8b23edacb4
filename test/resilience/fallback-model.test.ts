/**
 * `fallbackModel` against the mock server: tried once the primary's retries are spent on a
 * transient error, with retries of its own, announced by a `model_fallback` message, and costed
 * under its own name.
 */
import { describe, expect, it } from "vitest";
import { costOf } from "../../src/cost/pricing";
import { DEFAULT_PRICING, ProviderError } from "../../src/index";
import type { MockStep } from "../../src/testing/index";
import {
  FALLBACK_MODEL,
  PRIMARY_MODEL,
  runQuery,
  startHarness,
  TEST_RETRY,
  TRANSPORT_MODES,
} from "./fault-harness";

const OVERLOADED: MockStep = { fault: "status", status: 529 };
const primaryFailures = (): MockStep[] => Array.from({ length: TEST_RETRY.maxRetries + 1 }, () => OVERLOADED);

const TOOL_TURN_USAGE = { input_tokens: 1_000, output_tokens: 200, cache_read_input_tokens: 3_000 };
const FALLBACK_USAGE = { input_tokens: 1_500, output_tokens: 80, cache_creation_input_tokens: 500 };

describe.each(TRANSPORT_MODES)("fallbackModel (%s)", (mode) => {
  it("takes over a turn once the primary's retries are spent; model_usage lists both models", async () => {
    const harness = await startHarness({
      mode,
      agent: { fallbackModel: FALLBACK_MODEL, tools: [] },
      steps: [
        { content: "Primary's first answer.", usage: TOOL_TURN_USAGE },
        ...primaryFailures(),
        { content: "The fallback's answer.", usage: FALLBACK_USAGE },
      ],
    });
    const first = await runQuery(harness.agent, "First question");
    expect(first.result.subtype).toBe("success");

    const { result, retries, fallbacks, messages } = await runQuery(harness.agent, "Second question");
    const models = harness.server.requests.map((request) => request.body.model);
    expect(models).toEqual([PRIMARY_MODEL, PRIMARY_MODEL, PRIMARY_MODEL, PRIMARY_MODEL, FALLBACK_MODEL]);
    expect(retries.map((retry) => [retry.attempt, retry.model])).toEqual([
      [1, PRIMARY_MODEL],
      [2, PRIMARY_MODEL],
    ]);
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatchObject({ from: PRIMARY_MODEL, to: FALLBACK_MODEL });
    expect(fallbacks[0]!.error).toBeInstanceOf(ProviderError);
    expect((fallbacks[0]!.error as ProviderError).status).toBe(529);
    // The notice comes after the primary's last retry notice and before the answer.
    const fallbackIndex = messages.indexOf(fallbacks[0]!);
    expect(messages.indexOf(retries[1]!)).toBeLessThan(fallbackIndex);
    expect(messages.findIndex((message) => message.type === "assistant")).toBeGreaterThan(fallbackIndex);

    expect(result.subtype).toBe("success");
    expect(result.result).toBe("The fallback's answer.");
    expect(Object.keys(result.model_usage)).toEqual([FALLBACK_MODEL]);
    const history = await harness.agent.getHistory();
    expect(history.at(-1)).toMatchObject({ role: "assistant", model: FALLBACK_MODEL });
  });

  it("model_usage of one query lists the primary and the fallback when both served it", async () => {
    const harness = await startHarness({
      mode,
      agent: { fallbackModel: FALLBACK_MODEL, tools: [await echoTool()] },
      steps: [
        {
          content: [{ type: "tool_use", id: "toolu_1", name: "echo", input: { text: "hi" } }],
          usage: TOOL_TURN_USAGE,
        },
        ...primaryFailures(),
        { content: "Done.", usage: FALLBACK_USAGE },
      ],
    });
    const { result, fallbacks } = await runQuery(harness.agent, "Use the tool");
    expect(result.subtype).toBe("success");
    expect(fallbacks).toHaveLength(1);
    expect(result.num_turns).toBe(2);

    const primaryCost = costOf(TOOL_TURN_USAGE, DEFAULT_PRICING[PRIMARY_MODEL]!);
    const fallbackCost = costOf(FALLBACK_USAGE, DEFAULT_PRICING[FALLBACK_MODEL]!);
    expect(primaryCost).toBeGreaterThan(0);
    expect(fallbackCost).toBeGreaterThan(0);
    expect(result.model_usage[PRIMARY_MODEL]).toMatchObject({ ...TOOL_TURN_USAGE });
    expect(result.model_usage[PRIMARY_MODEL]!.cost_usd).toBeCloseTo(primaryCost, 12);
    expect(result.model_usage[FALLBACK_MODEL]).toMatchObject({ ...FALLBACK_USAGE });
    expect(result.model_usage[FALLBACK_MODEL]!.cost_usd).toBeCloseTo(fallbackCost, 12);
    expect(result.total_cost_usd).toBeCloseTo(primaryCost + fallbackCost, 12);
    expect(result.usage).toEqual({
      input_tokens: 2_500,
      output_tokens: 280,
      cache_creation_input_tokens: 500,
      cache_read_input_tokens: 3_000,
    });
  });

  it("the fallback has retries of its own", async () => {
    const harness = await startHarness({
      mode,
      agent: { fallbackModel: FALLBACK_MODEL },
      steps: [...primaryFailures(), { fault: "status", status: 503 }, { content: "At last." }],
    });
    const { result, retries, fallbacks } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("success");
    expect(fallbacks).toHaveLength(1);
    expect(retries.map((retry) => [retry.attempt, retry.model, retry.status])).toEqual([
      [1, PRIMARY_MODEL, 529],
      [2, PRIMARY_MODEL, 529],
      [1, FALLBACK_MODEL, 503],
    ]);
    expect(harness.server.requests.map((request) => request.body.model)).toEqual([
      PRIMARY_MODEL,
      PRIMARY_MODEL,
      PRIMARY_MODEL,
      FALLBACK_MODEL,
      FALLBACK_MODEL,
    ]);
  });

  it("when the fallback's retries are spent too, the query fails with the fallback's error", async () => {
    const harness = await startHarness({
      mode,
      agent: { fallbackModel: FALLBACK_MODEL },
      steps: [...primaryFailures(), ...primaryFailures()],
    });
    const { result, retries, fallbacks } = await runQuery(harness.agent, "Say hello");
    expect(harness.server.requests).toHaveLength(2 * (TEST_RETRY.maxRetries + 1));
    expect(retries).toHaveLength(2 * TEST_RETRY.maxRetries);
    expect(fallbacks).toHaveLength(1);
    expect(result.subtype).toBe("error_during_execution");
    const error = result.error as ProviderError;
    expect(error.status).toBe(529);
    expect(error.requestId).toBe(`req_mock_${2 * (TEST_RETRY.maxRetries + 1)}`);
    expect(result.model_usage).toEqual({});
    expect(result.total_cost_usd).toBe(0);
  });

  it("a fallback equal to the model is not tried twice", async () => {
    const harness = await startHarness({
      mode,
      agent: { fallbackModel: PRIMARY_MODEL },
      steps: [...primaryFailures(), { content: "never requested" }],
    });
    const { result, fallbacks } = await runQuery(harness.agent, "Say hello");
    expect(result.subtype).toBe("error_during_execution");
    expect(fallbacks).toEqual([]);
    expect(harness.server.requests).toHaveLength(TEST_RETRY.maxRetries + 1);
  });

  it("the next turn goes back to the primary model", async () => {
    const harness = await startHarness({
      mode,
      agent: { fallbackModel: FALLBACK_MODEL },
      steps: [...primaryFailures(), { content: "From the fallback." }, { content: "From the primary." }],
    });
    expect((await runQuery(harness.agent, "One")).result.result).toBe("From the fallback.");
    const second = await runQuery(harness.agent, "Two");
    expect(second.result.result).toBe("From the primary.");
    expect(second.fallbacks).toEqual([]);
    expect(harness.server.requests.at(-1)!.body.model).toBe(PRIMARY_MODEL);
  });
});

async function echoTool() {
  const { defineTool } = await import("../../src/index");
  const { z } = await import("zod");
  return defineTool({
    name: "echo",
    description: "Echo the text",
    inputSchema: z.object({ text: z.string() }),
    readOnly: true,
    execute: async ({ text }) => text,
  });
}
