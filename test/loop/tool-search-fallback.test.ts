/**
 * Tool search detection over HTTP: a provider that refuses the tool-search fields with a 400 (the
 * mock server started with `toolSearch: false`, or a scripted 400 in another wording) hands the
 * search to the agent's own `search_tools` for the rest of the conversation, with one notice and
 * the same turn sent again; other failures, and a provider that has searched tools before, do not.
 */
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  createAnthropicClient,
  defineTool,
  type SDKMessage,
  SEARCH_TOOLS_TOOL_NAME,
  type Tool,
} from "../../src/index";
import { type MockAnthropicServer, mockToolSearch, startMockAnthropicServer } from "../../src/testing/index";
import { collect, lastResult, MODEL, toolUse } from "./support";

const KEY = "sk-test-fallback-0001";

/** One tool always loaded, twelve deferred ones. */
function catalog(ran: string[]): Tool[] {
  const tools: Tool[] = [
    defineTool({
      name: "echo",
      description: "Repeats text.",
      inputSchema: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    }),
  ];
  for (const service of ["github", "slack", "jira", "calendar"])
    for (const verb of ["create", "list", "delete"])
      tools.push(
        defineTool({
          name: `${service}_${verb}`,
          description: `${verb} items in ${service}`,
          inputSchema: z.object({ id: z.string().optional() }),
          deferLoading: true,
          execute: () => {
            ran.push(`${service}_${verb}`);
            return `${service} ${verb} done`;
          },
        }),
      );
  return tools;
}

type WireTool = { name: string; type?: string; defer_loading?: boolean };
const toolsOf = (body: { tools?: WireTool[] }) => body.tools ?? [];
const names = (body: { tools?: WireTool[] }) => toolsOf(body).map((tool) => tool.name);
const carriesToolSearch = (request: MockAnthropicServer["requests"][number]) =>
  toolsOf(request.body).some(
    (tool) => tool.defer_loading !== undefined || tool.type?.startsWith("tool_search"),
  ) || (request.headers["anthropic-beta"] ?? "").includes("advanced-tool-use");
const fallbacks = (messages: SDKMessage[]) =>
  messages.filter(
    (message) => message.type === "system" && message.subtype === "context_management_fallback",
  ) as Array<Extract<SDKMessage, { subtype: "context_management_fallback" }>>;

async function withServer(
  options: Parameters<typeof startMockAnthropicServer>[0],
  test: (server: MockAnthropicServer) => Promise<void>,
): Promise<void> {
  const server = await startMockAnthropicServer(options);
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

/** A client whose endpoint is the Anthropic API (profiled: provider search) whose requests reach `server`. */
function profiledClient(server: MockAnthropicServer) {
  return createAnthropicClient({
    apiKey: KEY,
    baseURL: "https://api.anthropic.com",
    fetch: (input, init) => fetch(String(input).replace("https://api.anthropic.com", server.url), init),
  });
}

describe("tool search detection: a provider that refuses the fields", () => {
  it('"auto" on a profiled host: the 400 is detected, the turn is sent again with search_tools, and the conversation stays on our side', async () => {
    await withServer({ toolSearch: false }, async (server) => {
      const ran: string[] = [];
      server.enqueue(
        {
          content: [toolUse("toolu_1", SEARCH_TOOLS_TOOL_NAME, { query: "jira delete" })],
          stop_reason: "tool_use",
        },
        { content: [toolUse("toolu_2", "jira_delete", { id: "J-1" })], stop_reason: "tool_use" },
        { content: "Deleted." },
        { content: "Second answer." },
      );
      const agent = createAgent({ model: MODEL, client: profiledClient(server), tools: catalog(ran) });
      const messages = await collect(agent.query("Delete J-1."));
      expect(lastResult(messages).subtype).toBe("success");
      expect(lastResult(messages).num_turns).toBe(3); // the refused request is no turn
      expect(ran).toEqual(["jira_delete"]);

      const [refused, ...sent] = server.requests;
      expect(carriesToolSearch(refused!)).toBe(true); // refused: the mock takes no step for it
      expect(toolsOf(refused!.body).filter((tool) => tool.defer_loading === true)).toHaveLength(12);
      expect(sent).toHaveLength(3);
      for (const request of sent) expect(carriesToolSearch(request)).toBe(false);
      // The same turn again: the prompt alone, the deferred tools left out, search_tools offered.
      expect(sent[0]!.body.messages).toEqual(refused!.body.messages);
      expect(names(sent[0]!.body)).toEqual(["echo", SEARCH_TOOLS_TOOL_NAME]);
      const loaded = names(sent[1]!.body);
      expect(loaded.slice(0, 3)).toEqual(["echo", SEARCH_TOOLS_TOOL_NAME, "jira_delete"]); // the best match first

      const [notice, ...more] = fallbacks(messages);
      expect(more).toEqual([]);
      expect(notice).toMatchObject({ feature: "tool_search" });
      expect(notice!.message).toMatch(/defer_loading: Extra inputs are not permitted/);
      expect(notice!.message).not.toContain(KEY);
      // Reported before the retried turn's answer.
      expect(messages.indexOf(notice!)).toBeLessThan(
        messages.findIndex((message) => message.type === "assistant"),
      );

      // The next query: no refusal, no notice, the found tool still offered.
      const second = await collect(agent.query("Anything else?"));
      expect(lastResult(second).subtype).toBe("success");
      expect(fallbacks(second)).toEqual([]);
      expect(server.requests).toHaveLength(5);
      expect(names(server.requests[4]!.body)).toEqual(loaded);
    });
  });

  for (const via of ["fetch, streaming", "an injected Anthropic SDK client"] as const) {
    it(`"provider" falls back the same way (${via})`, async () => {
      await withServer({ toolSearch: false }, async (server) => {
        server.enqueue({ content: "ok" });
        const agent = createAgent({
          model: MODEL,
          client:
            via === "fetch, streaming"
              ? createAnthropicClient({ apiKey: KEY, baseURL: server.url })
              : createAnthropicClient({ anthropic: new Anthropic({ apiKey: KEY, baseURL: server.url }) }),
          tools: catalog([]),
          toolSearch: "provider",
          includePartialMessages: via === "fetch, streaming",
        });
        const messages = await collect(agent.query("hi"));
        expect(lastResult(messages).subtype).toBe("success");
        expect(fallbacks(messages)).toHaveLength(1);
        expect(server.requests).toHaveLength(2);
        expect(carriesToolSearch(server.requests[0]!)).toBe(true);
        expect(carriesToolSearch(server.requests[1]!)).toBe(false);
      });
    });
  }

  it("does not read the wording: a refused beta header is detected as well", async () => {
    await withServer({}, async (server) => {
      server.enqueue(
        {
          fault: "status",
          status: 400,
          body: {
            type: "error",
            error: {
              type: "invalid_request_error",
              message: "Unexpected value(s) `advanced-tool-use-2025-11-20` for the `anthropic-beta` header.",
            },
          },
        },
        { content: "ok" },
      );
      const agent = createAgent({
        model: MODEL,
        client: profiledClient(server),
        tools: catalog([]),
      });
      const messages = await collect(agent.query("hi"));
      expect(lastResult(messages).subtype).toBe("success");
      expect(fallbacks(messages)[0]!.message).toMatch(/anthropic-beta/);
      expect(carriesToolSearch(server.requests[0]!)).toBe(true);
      expect(carriesToolSearch(server.requests[1]!)).toBe(false);
    });
  });

  it("falls back once: a second 400 ends the query with its error, and nothing loops", async () => {
    await withServer({ toolSearch: false }, async (server) => {
      server.enqueue({ fault: "status", status: 400 });
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: KEY, baseURL: server.url }),
        tools: catalog([]),
        toolSearch: "provider",
      });
      const messages = await collect(agent.query("hi"));
      const result = lastResult(messages);
      expect(result.subtype).toBe("error_during_execution");
      expect(result.num_turns).toBe(1);
      expect(fallbacks(messages)).toHaveLength(1);
      expect(server.requests).toHaveLength(2);
      expect(carriesToolSearch(server.requests[1]!)).toBe(false);
    });
  });
});

describe("tool search detection: what is not a refusal of the fields", () => {
  it("a provider that has searched tools keeps them: a later 400 is an error, not a fallback", async () => {
    await withServer({}, async (server) => {
      server.setHandler((body, index) =>
        index === 0
          ? {
              content: [
                ...mockToolSearch(body, "jira delete", { id: "srvtoolu_1" }),
                { type: "text", text: "Found." },
              ] as never,
            }
          : { content: "unused" },
      );
      const agent = createAgent({
        model: MODEL,
        client: profiledClient(server),
        tools: catalog([]),
      });
      expect((await agent.prompt("find it")).subtype).toBe("success");
      server.setHandler(() => ({ fault: "status", status: 400 }));
      const messages = await collect(agent.query("again"));
      expect(lastResult(messages).subtype).toBe("error_during_execution");
      expect(fallbacks(messages)).toEqual([]);
      expect(server.requests).toHaveLength(2);
      expect(carriesToolSearch(server.requests[1]!)).toBe(true);
    });
  });

  it("transient failures are retried as they are, with the fields; a prompt too long is no refusal", async () => {
    await withServer({}, async (server) => {
      server.enqueue({ fault: "status", status: 529 }, { fault: "status", status: 500 }, { content: "ok" });
      const agent = createAgent({
        model: MODEL,
        client: profiledClient(server),
        tools: catalog([]),
        retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 },
      });
      const messages = await collect(agent.query("hi"));
      expect(lastResult(messages).subtype).toBe("success");
      expect(fallbacks(messages)).toEqual([]);
      expect(server.requests).toHaveLength(3);
      for (const request of server.requests) expect(carriesToolSearch(request)).toBe(true);

      server.enqueue({
        fault: "status",
        status: 400,
        body: {
          type: "error",
          error: {
            type: "invalid_request_error",
            message: "prompt is too long: 250000 tokens > 200000 maximum",
          },
        },
      });
      const tooLong = await collect(agent.query("a long one"));
      expect(lastResult(tooLong).subtype).toBe("error_during_execution");
      expect(fallbacks(tooLong)).toEqual([]);
      expect(server.requests).toHaveLength(4);
    });
  });

  it("client search and no deferred tool never fall back", async () => {
    await withServer({}, async (server) => {
      server.enqueue({ fault: "status", status: 400 }, { fault: "status", status: 400 });
      const plain = createAgent({
        model: MODEL,
        client: profiledClient(server),
        tools: catalog([]).slice(0, 1),
      });
      const onClient = createAgent({
        model: MODEL,
        client: profiledClient(server),
        tools: catalog([]),
        toolSearch: "client",
      });
      for (const agent of [plain, onClient]) {
        const messages = await collect(agent.query("hi"));
        expect(lastResult(messages).subtype).toBe("error_during_execution");
        expect(fallbacks(messages)).toEqual([]);
      }
      expect(server.requests).toHaveLength(2);
    });
  });
});
