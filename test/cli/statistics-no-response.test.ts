/**
 * The closing line of a query that got no response (issue 16): a connection that never opened is
 * no turn answered, and the summary says so instead of counting it as "1 turn".
 */
import { describe, expect, it } from "vitest";
import { statisticsOf } from "../../src/cli/render";
import type { SDKResultMessage } from "../../src/index";

function failedBeforeAnyResponse(numTurns: number): SDKResultMessage {
  return {
    type: "result",
    subtype: "error_during_execution",
    is_error: true,
    result: "",
    usage: { input_tokens: 0, output_tokens: 0 },
    stop_reason: null,
    num_turns: numTurns,
    total_cost_usd: 0,
    model_usage: {},
    duration_ms: 1200,
    permission_denials: [],
  };
}

describe("statisticsOf", () => {
  it('says "no response" when no turn was answered', () => {
    expect(statisticsOf(failedBeforeAnyResponse(0))).toBe(
      "· no response · 0 in / 0 out tokens · $0.0000 · 1.2s",
    );
  });

  it("still counts answered turns", () => {
    expect(statisticsOf(failedBeforeAnyResponse(1))).toMatch(/^· 1 turn · /);
    expect(statisticsOf(failedBeforeAnyResponse(2))).toMatch(/^· 2 turns · /);
  });
});
