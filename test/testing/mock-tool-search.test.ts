import { describe, expect, it } from "vitest";
import { mockToolSearch } from "../../src/testing/index";
import { estimatePromptTokens } from "../../src/testing/mock-prompt-cache";
import { toolSearchRefusal } from "../../src/testing/mock-tool-search";

const search = { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" };
const big = (name: string, deferLoading: boolean) => ({
  name,
  description: `${name} ${"long description ".repeat(50)}`,
  input_schema: { type: "object" },
  ...(deferLoading ? { defer_loading: true } : {}),
});

describe("the mock server's tool search", () => {
  it("checks the request as the API does, or refuses the fields as a provider without it", () => {
    expect(toolSearchRefusal({ tools: [big("a", false), big("b", true), search] }, true)).toBeUndefined();
    expect(toolSearchRefusal({ tools: [big("a", false), big("b", true)] }, true)).toMatch(
      /require a tool search tool/,
    );
    expect(toolSearchRefusal({ tools: [big("a", false), { ...search, defer_loading: true }] }, true)).toMatch(
      /cannot have defer_loading/,
    );
    expect(toolSearchRefusal({ tools: [big("a", true), big("b", false), search] }, false)).toMatch(
      /tools\.0\.defer_loading/,
    );
    expect(toolSearchRefusal({ tools: [big("a", false), search] }, false)).toMatch(
      /does not match any of the expected tags/,
    );
  });

  it("counts a deferred definition only once a search result references it", () => {
    const tools = [big("weather_now", true), big("echo", false), search];
    const [use, result] = mockToolSearch({ tools }, "weather", { id: "srvtoolu_x" });
    expect(result).toMatchObject({
      tool_use_id: "srvtoolu_x",
      content: { tool_references: [{ tool_name: "weather_now" }] },
    });
    const before = estimatePromptTokens({ tools, messages: [{ role: "user", content: "hi" }] });
    const undeferred = estimatePromptTokens({
      tools: tools.map((tool) => ({ ...tool, defer_loading: undefined })),
      messages: [{ role: "user", content: "hi" }],
    });
    const after = estimatePromptTokens({
      tools,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: [use, result] },
      ],
    });
    expect(before).toBeLessThan(undeferred - 200);
    expect(after - before).toBeGreaterThan(200); // the referenced definition is in the prompt now
  });
});
