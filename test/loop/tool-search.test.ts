/**
 * Tool search over HTTP against the mock server: on a provider without it, the agent's own
 * `search_tools` (found tools appended, kept across resume, approvals and hooks applied); on the
 * Anthropic API, `defer_loading` definitions, the search tool, the beta header, and the server
 * blocks kept in history and sent back verbatim.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createAnthropicClient,
  createJsonlHistoryStore,
  defineTool,
  type ModelMessage,
  SEARCH_TOOLS_TOOL_NAME,
  type Tool,
} from "../../src/index";
import { mockToolSearch, startMockAnthropicServer } from "../../src/testing/index";
import { temporaryFolder } from "../support/temporary-folders";
import { createMemoryStore, lastResult, MODEL, resultText, toolResults, toolUse } from "./support";

/** A catalog: 30 deferred tools of various services, and one tool always loaded. */
function catalog(ran: string[]): Tool[] {
  const services = ["github", "slack", "jira", "calendar", "drive", "sentry"];
  const verbs = ["create", "list", "delete", "update", "search"];
  const tools: Tool[] = [
    defineTool({
      name: "echo",
      description: "Repeats text.",
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    }),
  ];
  for (const service of services)
    for (const verb of verbs)
      tools.push(
        defineTool({
          name: `${service}_${verb}`,
          description: `${verb} items in ${service}`,
          inputSchema: z.object({ id: z.string().optional() }),
          deferLoading: true,
          execute: () => `${service} ${verb} done`,
        }),
      );
  tools.push(
    defineTool({
      name: "get_weather",
      description: "Current weather forecast for a city: temperature, rain, wind.",
      inputSchema: z.object({ city: z.string().describe("The city name") }),
      deferLoading: true,
      needsApproval: true,
      execute: ({ city }) => {
        ran.push(city);
        return `Sunny in ${city}`;
      },
    }),
  );
  return tools;
}

const names = (body: { tools?: Array<{ name: string }> }) => (body.tools ?? []).map((tool) => tool.name);

describe("tool search on a provider without it (client side)", () => {
  it("offers search_tools, appends what it found, and applies approvals and hooks to found tools, across a resume", async () => {
    const server = await startMockAnthropicServer({ toolSearch: false });
    try {
      const ran: string[] = [];
      const hooked: string[] = [];
      const store = createMemoryStore();
      const make = () =>
        createAgent({
          model: MODEL,
          client: createAnthropicClient({ apiKey: "sk-test-search-0001", baseURL: server.url }),
          tools: catalog(ran),
          historyStore: store,
          hooks: {
            preToolUse: [{ matcher: "get_weather", handler: ({ toolName }) => void hooked.push(toolName) }],
          },
        });
      server.enqueue(
        {
          content: [toolUse("toolu_1", SEARCH_TOOLS_TOOL_NAME, { query: "weather forecast" })],
          stop_reason: "tool_use",
        },
        { content: [toolUse("toolu_2", "get_weather", { city: "Lyon" })], stop_reason: "tool_use" },
      );
      const first = await make().prompt("Weather in Lyon?");
      expect(first.subtype).toBe("requires_approval");
      expect(first.pending_approvals?.map((call) => call.name)).toEqual(["get_weather"]);
      expect(ran).toEqual([]);

      const [before, after] = server.requests.map((request) => request.body);
      expect(names(before)).toEqual(["echo", SEARCH_TOOLS_TOOL_NAME]);
      expect(JSON.stringify(before)).not.toContain("defer_loading");
      // Append-only: what was sent keeps its place, the found tool comes last.
      expect(names(after)).toEqual(["echo", SEARCH_TOOLS_TOOL_NAME, "get_weather"]);
      expect(after.tools[2].input_schema.properties.city.description).toBe("The city name");
      const [searchResult] = toolResults(store.saved);
      expect(resultText(searchResult!)).toMatch(/^Loaded tools: get_weather/);

      // Another Agent over the same store: the found tool is still offered (read from history).
      server.enqueue({ content: "It is sunny in Lyon." });
      const resumed = await make().prompt({ approvals: { toolu_2: { approved: true } } });
      expect(resumed.subtype).toBe("success");
      expect(ran).toEqual(["Lyon"]);
      // preToolUse runs before the approval step: at the pause and again when the batch resumes, as for any tool.
      expect(hooked).toEqual(["get_weather", "get_weather"]);
      expect(names(server.requests[2]!.body)).toEqual(["echo", SEARCH_TOOLS_TOOL_NAME, "get_weather"]);
    } finally {
      await server.close();
    }
  });

  it("ranks by name, description and schema text, and says so when nothing matches", async () => {
    const server = await startMockAnthropicServer({ toolSearch: false });
    try {
      server.enqueue(
        {
          content: [toolUse("toolu_1", SEARCH_TOOLS_TOOL_NAME, { query: "delete a jira item", limit: 2 })],
          stop_reason: "tool_use",
        },
        { content: [toolUse("toolu_2", SEARCH_TOOLS_TOOL_NAME, { query: "zzqx" })], stop_reason: "tool_use" },
        { content: "ok" },
      );
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test-search-0001", baseURL: server.url }),
        tools: catalog([]),
      });
      await agent.prompt("clean up");
      const [hit, miss] = toolResults(await agent.getHistory());
      expect(resultText(hit!).split("\n")[0]).toMatch(/^Loaded tools: jira_delete, /);
      expect(resultText(hit!).split("\n")[0]!.split(", ")).toHaveLength(2);
      expect(resultText(miss!)).toMatch(/^No tool matches "zzqx"/);
      expect(names(server.requests[2]!.body).slice(2)).toEqual(
        resultText(hit!).split("\n")[0]!.slice(14).split(", "),
      );
    } finally {
      await server.close();
    }
  });

  it("loads a deferred tool that toolChoice forces, for that request and (once called) from then on", async () => {
    const server = await startMockAnthropicServer({ toolSearch: false });
    try {
      server.enqueue(
        { content: [toolUse("toolu_1", "github_list", {})], stop_reason: "tool_use" },
        { content: "Listed." },
        { content: "Later." },
      );
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test-search-0001", baseURL: server.url }),
        tools: catalog([]),
      });
      // The mock refuses a tool_choice naming a tool the request does not declare, as the API does.
      const forced = await agent.prompt("List them.", { toolChoice: { type: "tool", name: "github_list" } });
      expect(forced.subtype).toBe("success");
      const [first, second] = server.requests.map((request) => request.body);
      expect(first.tool_choice).toEqual({ type: "tool", name: "github_list" });
      expect(names(first)).toEqual(["echo", SEARCH_TOOLS_TOOL_NAME, "github_list"]);
      expect(names(second)).toEqual(["echo", SEARCH_TOOLS_TOOL_NAME, "github_list"]);
      expect(resultText(toolResults(await agent.getHistory())[0]!)).toBe("github list done");
      // The next query forces nothing: the tool the model called stays loaded, in its place.
      expect((await agent.prompt("And now?")).subtype).toBe("success");
      const third = server.requests[2]!.body;
      expect(third.tool_choice).toBeUndefined();
      expect(names(third)).toEqual(["echo", SEARCH_TOOLS_TOOL_NAME, "github_list"]);
    } finally {
      await server.close();
    }
  });

  it("sends every tool when toolSearch is false", async () => {
    const server = await startMockAnthropicServer({ toolSearch: false });
    try {
      server.enqueue({ content: "ok" });
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test-search-0001", baseURL: server.url }),
        tools: catalog([]),
        toolSearch: false,
      });
      await agent.prompt("hi");
      expect(names(server.requests[0]!.body)).toHaveLength(32);
      expect(names(server.requests[0]!.body)).not.toContain(SEARCH_TOOLS_TOOL_NAME);
    } finally {
      await server.close();
    }
  });
});

describe("tool search on the Anthropic API (provider side)", () => {
  it("sends deferred definitions, declares the search tool and the beta, and round-trips the server blocks through a store", async () => {
    const server = await startMockAnthropicServer();
    try {
      const ran: string[] = [];
      server.setHandler((body, index) =>
        index === 0
          ? {
              content: [
                ...mockToolSearch(body, "weather forecast", { id: "srvtoolu_1" }),
                toolUse("toolu_1", "get_weather", { city: "Oslo" }),
              ] as never,
              stop_reason: "tool_use",
            }
          : { content: "Sunny in Oslo." },
      );
      const file = path.join(temporaryFolder("tool-search-"), "history.jsonl");
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test-search-0001", baseURL: server.url }),
        tools: catalog(ran).map((tool) =>
          tool.name === "get_weather" ? { ...tool, needsApproval: false } : tool,
        ),
        toolSearch: "provider",
        historyStore: createJsonlHistoryStore({ path: file }),
      });
      const result = await agent.prompt("Weather in Oslo?");
      expect(result.subtype).toBe("success");
      expect(ran).toEqual(["Oslo"]);

      const [first, second] = server.requests;
      expect(first!.headers["anthropic-beta"]).toBe("advanced-tool-use-2025-11-20");
      const tools = first!.body.tools as Array<Record<string, unknown>>;
      expect(tools[0]).toMatchObject({ name: "echo" });
      expect(tools[0]).not.toHaveProperty("defer_loading");
      expect(tools.filter((tool) => tool.defer_loading === true)).toHaveLength(31);
      expect(tools.at(-1)).toMatchObject({
        type: "tool_search_tool_bm25_20251119",
        name: "tool_search_tool_bm25",
      });
      expect(tools.at(-1)!.cache_control).toBeDefined(); // the tools' cache marker lands on the search tool

      const history = await agent.getHistory();
      const answer = history[1] as Extract<ModelMessage, { role: "assistant" }>;
      expect(answer.content.map((block) => block.type)).toEqual([
        "server_tool_use",
        "tool_search_tool_result",
        "tool_use",
      ]);
      expect(answer.content[1]).toMatchObject({
        content: { tool_references: [{ type: "tool_reference", tool_name: "get_weather" }] },
      });
      // Sent back verbatim, and the same after a reload from the JSONL file.
      expect(second!.body.messages[1].content.slice(0, 2)).toEqual(answer.content.slice(0, 2));
      expect(await createJsonlHistoryStore({ path: file }).load()).toEqual(history);
      expect(lastResult([result]).result).toBe("Sunny in Oslo.");

      // The same conversation resumed by an agent on client-side search: the tool the provider
      // found and the model called stays loaded there (a called deferred tool counts as loaded).
      server.setHandler(() => ({ content: "Still sunny." }));
      const moved = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test-search-0001", baseURL: server.url }),
        tools: catalog([]),
        toolSearch: "client",
        historyStore: createJsonlHistoryStore({ path: file }),
      });
      expect((await moved.prompt("And tomorrow?")).subtype).toBe("success");
      expect(names(server.requests[2]!.body)).toEqual(["echo", SEARCH_TOOLS_TOOL_NAME, "get_weather"]);
    } finally {
      await server.close();
    }
  });

  it("chooses by endpoint under auto: client-side search on a host without it", async () => {
    const server = await startMockAnthropicServer({ toolSearch: false });
    try {
      server.enqueue({ content: "ok" });
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test-search-0001", baseURL: server.url }),
        tools: catalog([]),
        toolSearch: "auto",
      });
      expect((await agent.prompt("hi")).subtype).toBe("success");
      expect(server.requests).toHaveLength(1);
      expect(JSON.stringify(server.requests[0]!.body)).not.toContain("defer_loading");
      // A provider without tool search refuses the provider's fields: "provider" there falls back
      // (test/loop/tool-search-fallback.test.ts) after one refused request.
      server.enqueue({ content: "ok" });
      const forced = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-test-search-0001", baseURL: server.url }),
        tools: catalog([]),
        toolSearch: "provider",
      });
      expect((await forced.prompt("hi")).subtype).toBe("success");
      expect(server.requests).toHaveLength(3);
      expect(JSON.stringify(server.requests[1]!.body)).toContain("defer_loading");
      expect(JSON.stringify(server.requests[2]!.body)).not.toContain("defer_loading");
    } finally {
      await server.close();
    }
  });
});
