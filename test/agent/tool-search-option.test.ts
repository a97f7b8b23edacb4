/**
 * `toolSearch` as an object: its mode resolved as the string form, its synonyms checked and handed
 * to client-side `search_tools` — over HTTP against the mock server, also after a fallback from
 * provider search.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { resolveToolSearch, toolSearchSynonyms } from "../../src/agent/tool-search-option";
import {
  createAgent,
  createAnthropicClient,
  defineTool,
  InvalidOptionError,
  SEARCH_TOOLS_TOOL_NAME,
  type Tool,
  type ToolSearchOption,
} from "../../src/index";
import { startMockAnthropicServer } from "../../src/testing/index";
import { MODEL, resultText, toolResults, toolUse } from "../loop/support";

const anthropic = createAnthropicClient({ apiKey: "sk-test-search-0002" });
const elsewhere = createAnthropicClient({ apiKey: "sk-test-search-0002", baseURL: "http://127.0.0.1:9" });

function tools(): Tool[] {
  const deferred = (name: string, description: string) =>
    defineTool({
      name,
      description,
      inputSchema: z.object({}),
      deferLoading: true,
      execute: () => `${name} done`,
    });
  return [
    defineTool({
      name: "echo",
      description: "Repeats text.",
      inputSchema: z.object({}),
      execute: () => "echo",
    }),
    deferred("deploy_service", "Roll out a new build of a service."),
    deferred("list_builds", "List the recent builds."),
  ];
}

describe("toolSearch as an object", () => {
  it("resolves its mode as the string form does, auto by default", () => {
    expect(resolveToolSearch({ mode: "client" }, anthropic)).toBe("client");
    expect(resolveToolSearch({ mode: "provider" }, elsewhere)).toBe("provider");
    expect(resolveToolSearch({ synonyms: {} }, anthropic)).toBe("provider");
    expect(resolveToolSearch({}, elsewhere)).toBe("client");
    expect(toolSearchSynonyms({ synonyms: { ship: ["deploy"] } })).toEqual({ ship: ["deploy"] });
    expect(toolSearchSynonyms("client")).toBeUndefined();
  });

  it("refuses a bad mode, unknown keys and synonyms that are not word lists, naming the option", () => {
    const make = (toolSearch: unknown) => () =>
      createAgent({ model: MODEL, client: elsewhere, toolSearch: toolSearch as ToolSearchOption });
    expect(make({ mode: "server" })).toThrow(InvalidOptionError);
    expect(make({ mode: false })).toThrow(/toolSearch: false/);
    expect(make({ synonym: {} })).toThrow(/takes `mode` and `synonyms`, not "synonym"/);
    expect(make({ synonyms: { ship: "deploy" } })).toThrow(/toolSearch.synonyms/);
    expect(make({ synonyms: ["deploy"] })).toThrow(/toolSearch.synonyms/);
    expect(make({ synonyms: { ship: [1] } })).toThrow(/toolSearch.synonyms/);
  });

  it("hands its synonyms to search_tools, which loads what they find", async () => {
    const server = await startMockAnthropicServer({ toolSearch: false });
    try {
      const run = async (toolSearch: ToolSearchOption) => {
        server.enqueue(
          {
            content: [toolUse("toolu_1", SEARCH_TOOLS_TOOL_NAME, { query: "promote it" })],
            stop_reason: "tool_use",
          },
          { content: "ok" },
        );
        const agent = createAgent({
          model: MODEL,
          client: createAnthropicClient({ apiKey: "sk-test-search-0002", baseURL: server.url }),
          tools: tools(),
          toolSearch,
        });
        await agent.prompt("ship the new build");
        return resultText(toolResults(await agent.getHistory())[0]!);
      };
      expect(await run("client")).toMatch(/^No tool matches "promote it"/);
      expect(await run({ mode: "client", synonyms: { promote: ["deploy", "roll out"] } })).toMatch(
        /^Loaded tools: deploy_service\n/,
      );
      expect(server.requests.at(-1)!.body.tools.map((tool: { name: string }) => tool.name)).toEqual([
        "echo",
        SEARCH_TOOLS_TOOL_NAME,
        "deploy_service",
      ]);
    } finally {
      await server.close();
    }
  });

  it("keeps its synonyms when provider search falls back to the client", async () => {
    const server = await startMockAnthropicServer({ toolSearch: false });
    try {
      server.enqueue(
        {
          content: [toolUse("toolu_1", SEARCH_TOOLS_TOOL_NAME, { query: "ship it" })],
          stop_reason: "tool_use",
        },
        { content: "ok" },
      );
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test-search-0002", baseURL: server.url }),
        tools: tools(),
        toolSearch: { mode: "provider", synonyms: { ship: ["deploy"] } },
      });
      await agent.prompt("ship the new build");
      expect(resultText(toolResults(await agent.getHistory())[0]!)).toMatch(
        /^Loaded tools: deploy_service\n/,
      );
    } finally {
      await server.close();
    }
  });
});
