import { afterEach, describe, expect, it } from "vitest";
import type { ContentBlock, ModelMessage, Usage } from "../../src/messages/types";
import { createAnthropicClient } from "../../src/model/anthropic";
import { toAnthropicRequestBody } from "../../src/model/anthropic-request";
import type { ModelRequest, PromptCachingConfig } from "../../src/model/client";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing";

let server: MockAnthropicServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SYSTEM = "You are a meticulous reviewer. Explain every finding. ".repeat(110); // ≈ 1,500 tokens
const TOOLS = [
  {
    name: "read",
    description: "Read a file from the workspace",
    input_schema: { type: "object", properties: {} },
  },
  { name: "grep", description: "Search the workspace", input_schema: { type: "object", properties: {} } },
];
const MODEL = "claude-sonnet-4-6";

/** A mock that answers with `calls` parallel tool calls per turn for `turns` turns, then text. */
async function startAgentLikeServer(turns: number, calls: number): Promise<MockAnthropicServer> {
  server = await startMockAnthropicServer({
    handler: (body) => {
      const turn = (body.messages as ModelMessage[]).filter((message) => message.role === "assistant").length;
      if (turn >= turns) return { content: "All files reviewed." };
      const conversation = String((body.messages[0].content as ContentBlock[] | string).toString()).length;
      return {
        content: Array.from({ length: calls }, (_, call) => ({
          type: "tool_use" as const,
          id: `toolu_${conversation}_${turn}_${call}`,
          name: "read",
          input: { path: `src/file-${turn}-${call}.ts` },
        })),
      };
    },
  });
  return server;
}

interface Conversation {
  usages: Usage[];
  history: ModelMessage[];
}

/** Runs a tool loop the way the agent does: each response and its tool results join the history. */
async function converse(
  mock: MockAnthropicServer,
  prompt: string,
  promptCaching: PromptCachingConfig | undefined,
  extra: Partial<ModelRequest> = {},
): Promise<Conversation> {
  const client = createAnthropicClient({ apiKey: "cache-test-key", baseURL: mock.url });
  const history: ModelMessage[] = [{ role: "user", content: prompt }];
  const usages: Usage[] = [];
  for (let turn = 0; turn < 50; turn++) {
    const message = await client.createMessage({
      model: MODEL,
      system: SYSTEM,
      tools: TOOLS,
      messages: history,
      maxTokens: 1024,
      signal: new AbortController().signal,
      ...(promptCaching ? { promptCaching } : {}),
      ...extra,
    });
    usages.push(message.usage!);
    history.push(message);
    const calls = message.content.filter((block) => block.type === "tool_use");
    if (calls.length === 0) break;
    history.push({
      role: "user",
      content: calls.map((call) => ({
        type: "tool_result" as const,
        tool_use_id: call.id,
        content: `// ${call.id}\n${"export const value = 1;\n".repeat(20)}`,
      })),
    });
  }
  return { usages, history };
}

const promptTokens = (usage: Usage) =>
  usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);

/** Billed input-token equivalents: input + 1.25 × cache writes + 0.1 × cache reads. */
const billed = (usages: Usage[]) =>
  usages.reduce(
    (sum, usage) =>
      sum +
      usage.input_tokens +
      1.25 * (usage.cache_creation_input_tokens ?? 0) +
      0.1 * (usage.cache_read_input_tokens ?? 0),
    0,
  );

/** Asserts each request after the first read from the cache everything the one before it sent. */
function expectEachTurnReadsThePrevious(usages: Usage[]): void {
  for (let turn = 1; turn < usages.length; turn++) {
    expect(usages[turn]!.cache_read_input_tokens, `turn ${turn + 1}`).toBe(promptTokens(usages[turn - 1]!));
    expect(usages[turn]!.input_tokens, `turn ${turn + 1}`).toBe(0);
  }
}

describe("prompt caching through the built-in client and the mock's cache", () => {
  it("reads everything before the newest messages from the cache on every turn", async () => {
    const mock = await startAgentLikeServer(8, 1);
    const { usages } = await converse(mock, "Review the workspace.", { ttl: "5m" });
    expect(usages).toHaveLength(9);
    expect(usages[0]!.cache_read_input_tokens).toBe(0);
    expect(usages[0]!.cache_creation_input_tokens).toBe(promptTokens(usages[0]!));
    expectEachTurnReadsThePrevious(usages);
  });

  it("still finds the previous turn's entry when a turn adds 30 parallel tool results", async () => {
    const mock = await startAgentLikeServer(4, 30);
    const { usages, history } = await converse(mock, "Review all thirty files.", { ttl: "5m" });
    expectEachTurnReadsThePrevious(usages);
    // The extra marker is what makes it work: the same request with only a marker on its last block
    // (and the stable prefix) finds nothing within the API's lookback but the system prompt.
    const request: ModelRequest = {
      model: MODEL,
      system: SYSTEM,
      tools: TOOLS,
      messages: history.slice(0, 3),
      maxTokens: 1024,
      signal: new AbortController().signal,
      promptCaching: { ttl: "5m" },
    };
    const body = toAnthropicRequestBody(request) as unknown as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(body.messages[0])).toContain("cache_control");
    server!.promptCache!.clear();
    const first = toAnthropicRequestBody({ ...request, messages: history.slice(0, 1) });
    await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k" },
      body: JSON.stringify(first),
    });
    const tailOnly = { ...body, messages: [history[0], ...body.messages.slice(1)] };
    const response = await fetch(`${mock.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k" },
      body: JSON.stringify(tailOnly),
    });
    const { usage } = (await response.json()) as { usage: Usage };
    // Only the stable prefix (tools and system) is found: the first message is written again.
    expect(usage.cache_read_input_tokens).toBeGreaterThan(1000);
    expect(usage.cache_read_input_tokens).toBeLessThan(promptTokens(usages[0]!));
  });

  it("shares the tools and system prompt between conversations of one configuration", async () => {
    const mock = await startAgentLikeServer(2, 1);
    const first = await converse(mock, "Review module A.", { ttl: "5m" });
    const stablePrefix = promptTokens(first.usages[0]!) - 10; // everything but the prompt, roughly
    for (const name of ["B", "C", "D"]) {
      const { usages } = await converse(mock, `Review module ${name}.`, { ttl: "5m" });
      expect(usages[0]!.cache_read_input_tokens).toBeGreaterThan(stablePrefix - 20);
      expect(usages[0]!.cache_creation_input_tokens).toBeLessThan(30);
      expectEachTurnReadsThePrevious(usages);
    }
  });

  it("costs a fraction of the same run without caching, which sends no marker at all", async () => {
    const mock = await startAgentLikeServer(12, 2);
    const cached = await converse(mock, "Review the workspace.", { ttl: "5m" });
    const uncached = await converse(mock, "Review the workspace again.", undefined);
    expect(uncached.usages.every((usage) => usage.cache_read_input_tokens === undefined)).toBe(true);
    const requests = mock.requests.slice(cached.usages.length);
    expect(requests.every((request) => !JSON.stringify(request.body).includes("cache_control"))).toBe(true);
    expect(billed(cached.usages)).toBeLessThan(0.3 * billed(uncached.usages));
  });

  it("writes one-hour entries with ttl 1h, reported in the one-hour bucket", async () => {
    const mock = await startAgentLikeServer(2, 1);
    const { usages } = await converse(mock, "Review.", { ttl: "1h" });
    for (const usage of usages) {
      expect(usage.cache_creation).toEqual({
        ephemeral_5m_input_tokens: 0,
        ephemeral_1h_input_tokens: usage.cache_creation_input_tokens,
      });
    }
    expectEachTurnReadsThePrevious(usages);
  });

  it("never sends more than four markers, keeping the caller's, whatever the turn looks like", async () => {
    const mock = await startAgentLikeServer(3, 30);
    const system = [
      { type: "text" as const, text: SYSTEM, cache_control: { type: "ephemeral" } },
      { type: "text" as const, text: "House style: terse.", cache_control: { type: "ephemeral" } },
    ] as unknown as ModelRequest["system"];
    const { usages } = await converse(mock, "Review all thirty files.", { ttl: "5m" }, { system });
    expect(usages).toHaveLength(4);
    for (const request of mock.requests) {
      const markers = JSON.stringify(request.body).split('"cache_control"').length - 1;
      expect(markers).toBeLessThanOrEqual(4);
    }
  });
});
