import { describe, expect, it } from "vitest";
import { createAnthropicClient } from "../../src/index";
import { withBetaHeader, withToolSearchTool } from "../../src/model/anthropic-tool-search";
import { mockServerPerTest } from "../support/mock-server";

const deferred = { name: "lookup", input_schema: { type: "object" }, defer_loading: true };
const loaded = { name: "echo", input_schema: { type: "object" } };

describe("tool search on the wire", () => {
  const server = mockServerPerTest();

  it("adds the beta to the caller's anthropic-beta header, and sends none without a deferred tool", async () => {
    const client = createAnthropicClient({
      apiKey: "sk-test-beta-00001",
      baseURL: server.url,
      defaultHeaders: { "Anthropic-Beta": "context-management-2025-06-27" },
    });
    server.enqueue({ content: "a" }, { content: "b" });
    const signal = new AbortController().signal;
    await client.createMessage({
      model: "m",
      maxTokens: 10,
      signal,
      messages: [{ role: "user", content: "hi" }],
      tools: [loaded, deferred],
    });
    await client.createMessage({
      model: "m",
      maxTokens: 10,
      signal,
      messages: [{ role: "user", content: "hi" }],
      tools: [loaded],
    });
    expect(server.requests[0]!.headers["anthropic-beta"]).toBe(
      "context-management-2025-06-27,advanced-tool-use-2025-11-20",
    );
    expect(server.requests[1]!.headers["anthropic-beta"]).toBe("context-management-2025-06-27");
    expect(server.requests[1]!.body.tools).toEqual([loaded]);
  });

  it("declares the search tool once, after the others, only with a deferred tool", () => {
    expect(withToolSearchTool([loaded])).toEqual([loaded]);
    const tools = withToolSearchTool([loaded, deferred]);
    expect(tools).toEqual([
      loaded,
      deferred,
      { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
    ]);
    const own = [
      deferred,
      { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" },
    ] as never;
    expect(withToolSearchTool(own)).toBe(own);
    expect(withBetaHeader({ "anthropic-beta": "a, b" }, ["b", "c"])).toEqual({ "anthropic-beta": "a,b,c" });
  });

  it("with the memory tool and context edits in the same request: both betas, the search tool once, accepted", async () => {
    const client = createAnthropicClient({ apiKey: "sk-test-beta-00002", baseURL: server.url });
    server.enqueue({ content: "ok" });
    const memory = { name: "memory", input_schema: { type: "object" }, native_type: "memory_20250818" };
    await client.createMessage({
      model: "m",
      maxTokens: 10,
      signal: new AbortController().signal,
      messages: [{ role: "user", content: "hi" }],
      tools: [memory, loaded, deferred],
      contextManagement: {
        clearToolUses: {
          triggerTokens: 100_000,
          keepToolUses: 3,
          clearAtLeastTokens: 0,
          excludeTools: [],
          clearInputs: false,
        },
      },
    });
    const request = server.requests[0]!;
    const betas = String(request.headers["anthropic-beta"]).split(",").sort();
    expect(betas).toEqual(["advanced-tool-use-2025-11-20", "context-management-2025-06-27"]);
    // A loopback host is not in the profile of hosts that honour native tools: the memory tool goes
    // as a plain tool there (its native form is tested in test/loop/context-management-http).
    expect(request.body.tools).toEqual([
      { name: "memory", input_schema: { type: "object" } },
      loaded,
      deferred,
      { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" },
    ]);
    expect(request.body.context_management).toBeDefined();
  });
});
