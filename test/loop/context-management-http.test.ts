/**
 * Context editing over HTTP against the mock server: on the provider (the edits and their beta
 * sent, `applied_edits` reported as `context_edits`, history whole), through an injected SDK
 * client, on a provider that ignores them (detected from its answer: the SDK edits the requests
 * from then on), and the same long conversation on both paths — the model sees equivalent requests.
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AgentOptions,
  CLEARED_TOOL_RESULT,
  createAgent,
  createAnthropicClient,
  defineTool,
  type SDKMessage,
} from "../../src/index";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing";
import { collect, lastResult } from "../support/query-messages";

const MODEL = "claude-sonnet-4-6";
const TURNS = 14;
const servers: MockAnthropicServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server whose model reads one file per turn for `TURNS` turns, then answers. */
async function start(contextManagement = true): Promise<MockAnthropicServer> {
  const server = await startMockAnthropicServer({
    contextManagement,
    handler: (_body, index) =>
      index < TURNS
        ? { content: [{ type: "tool_use", id: `call_${index}`, name: "read", input: { file: index } }] }
        : { content: "All read." },
  });
  servers.push(server);
  return server;
}

const read = defineTool({
  name: "read",
  description: "Reads a file.",
  inputSchema: z.object({ file: z.number() }),
  readOnly: true,
  execute: (input: { file: number }) => `file ${input.file}: ${"lorem ipsum dolor sit amet ".repeat(60)}`,
});

function options(
  server: MockAnthropicServer,
  where: "provider" | "client" | "auto",
  stream = true,
): AgentOptions {
  return {
    model: MODEL,
    client: createAnthropicClient({ apiKey: "sk-context-editing", baseURL: server.url, stream }),
    tools: [read],
    systemPrompt: "You read files.",
    maxTurns: TURNS + 2,
    contextManagement: {
      clearToolUses: { triggerTokens: 2_000, keepToolUses: 2, clearAtLeastTokens: 1_000 },
      where,
    },
  };
}

function ofSubtype<S extends string>(messages: SDKMessage[], subtype: S) {
  return messages.filter(
    (message): message is Extract<SDKMessage, { type: "system"; subtype: S }> =>
      message.type === "system" && message.subtype === subtype,
  );
}

function clearedIn(messages: unknown): number {
  return JSON.stringify(messages).split(JSON.stringify(CLEARED_TOOL_RESULT).slice(1, -1)).length - 1;
}

/** The messages the model saw for each request, cache markers left out. */
function seen(server: MockAnthropicServer): unknown[] {
  return server.requests.map((request) =>
    JSON.parse(JSON.stringify(request.editedMessages ?? request.body.messages), (key, value) =>
      key === "cache_control" ? undefined : value,
    ),
  );
}

async function expectWholeHistory(agent: ReturnType<typeof createAgent>): Promise<void> {
  const history = await agent.getHistory();
  expect(clearedIn(history)).toBe(0);
  expect(JSON.stringify(history)).toContain("file 0: lorem");
}

describe("context editing on the provider", () => {
  for (const stream of [true, false]) {
    it(`sends the edits with their beta and reports applied_edits (${stream ? "streamed" : "JSON"}); history keeps everything`, async () => {
      const server = await start();
      const agent = createAgent(options(server, "provider", stream));
      const messages = await collect(agent.query("Read them all."));
      expect(lastResult(messages).subtype).toBe("success");
      for (const request of server.requests) {
        expect(request.headers["anthropic-beta"]).toContain("context-management-2025-06-27");
        expect(request.body.context_management.edits).toEqual([
          {
            type: "clear_tool_uses_20250919",
            trigger: { type: "input_tokens", value: 2_000 },
            keep: { type: "tool_uses", value: 2 },
            clear_at_least: { type: "input_tokens", value: 1_000 },
          },
        ]);
        expect(clearedIn(request.body.messages)).toBe(0); // the SDK sent history whole
      }
      expect(server.requests.some((request) => request.editedMessages)).toBe(true);
      const reports = ofSubtype(messages, "context_edits");
      expect(reports.length).toBeGreaterThan(0);
      expect(reports.length).toBeLessThan(TURNS / 2); // reported when the cleared part grows, not every turn
      for (const report of reports) {
        expect(report.where).toBe("provider");
        expect(report.applied_edits[0]).toMatchObject({ type: "clear_tool_uses_20250919" });
      }
      const counts = reports.map(
        (report) => (report.applied_edits[0] as { cleared_tool_uses: number }).cleared_tool_uses,
      );
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(ofSubtype(messages, "context_management_fallback")).toEqual([]);
      // The applied edits are kept beside the response in history, never sent back.
      const history = await agent.getHistory();
      expect(history.some((message) => message.meta?.context_management)).toBe(true);
      expect(JSON.stringify(server.requests.at(-1)!.body.messages)).not.toContain("applied_edits");
      await expectWholeHistory(agent);
    });
  }

  it("works through an injected Anthropic SDK client (its header and stream)", async () => {
    const server = await start();
    const sdk = new Anthropic({ apiKey: "sk-context-sdk", baseURL: server.url });
    const agent = createAgent({
      ...options(server, "provider"),
      client: createAnthropicClient({ anthropic: sdk }),
    });
    const messages = await collect(agent.query("Read them all."));
    expect(lastResult(messages).subtype).toBe("success");
    for (const request of server.requests)
      expect(request.headers["anthropic-beta"]).toContain("context-management-2025-06-27");
    expect(ofSubtype(messages, "context_edits").length).toBeGreaterThan(0);
    await expectWholeHistory(agent);
  });
});

describe("context editing on a provider without support", () => {
  it("detects it from the first answer, falls back once, and edits the outgoing requests itself", async () => {
    const server = await start(false);
    const agent = createAgent(options(server, "provider"));
    const messages = await collect(agent.query("Read them all."));
    expect(lastResult(messages).subtype).toBe("success");
    expect(ofSubtype(messages, "context_management_fallback")).toHaveLength(1);
    expect(server.requests[0]!.body.context_management).toBeDefined();
    for (const request of server.requests.slice(1)) {
      expect(request.body.context_management).toBeUndefined();
      expect(request.headers["anthropic-beta"]).toBeUndefined();
    }
    expect(clearedIn(server.requests.at(-1)!.body.messages)).toBeGreaterThan(0);
    const reports = ofSubtype(messages, "context_edits");
    expect(reports.length).toBeGreaterThan(0);
    for (const report of reports) expect(report.where).toBe("client");
    await expectWholeHistory(agent);
  });

  it('"auto" edits on our side at once for an endpoint not known to honour the edits', async () => {
    const server = await start(false);
    const agent = createAgent(options(server, "auto"));
    const messages = await collect(agent.query("Read them all."));
    expect(lastResult(messages).subtype).toBe("success");
    for (const request of server.requests) expect(request.body.context_management).toBeUndefined();
    expect(ofSubtype(messages, "context_management_fallback")).toEqual([]);
    expect(clearedIn(server.requests.at(-1)!.body.messages)).toBeGreaterThan(0);
  });

  it("the same long conversation: the model sees equivalent requests on both paths", async () => {
    const honouring = await start(true);
    const ignoring = await start(false);
    const onProvider = createAgent(options(honouring, "provider"));
    const onClient = createAgent(options(ignoring, "client"));
    expect(lastResult(await collect(onProvider.query("Read them all."))).subtype).toBe("success");
    expect(lastResult(await collect(onClient.query("Read them all."))).subtype).toBe("success");
    const provider = seen(honouring);
    const client = seen(ignoring);
    expect(client).toHaveLength(TURNS + 1);
    expect(client).toEqual(provider);
    expect(clearedIn(client.at(-1))).toBeGreaterThan(0);
    // The cleared part grew in steps: most consecutive requests share their cleared prefix.
    const cleared = client.map((messages) => clearedIn(messages));
    const growths = cleared.filter((count, index) => index > 0 && count !== cleared[index - 1]).length;
    expect(growths).toBeLessThan(TURNS / 2);
  });
});

describe("clearing old thinking over HTTP", () => {
  for (const where of ["provider", "client"] as const) {
    it(`drops old thinking (${where}), the last turn's kept as the API requires; history keeps all`, async () => {
      const server = await startMockAnthropicServer({
        contextManagement: where === "provider",
        handler: (_body, index) =>
          index < 4
            ? {
                content: [
                  { type: "thinking", thinking: `Thinking about file ${index}.`, signature: `sig-${index}` },
                  { type: "tool_use", id: `call_${index}`, name: "read", input: { file: index } },
                ],
              }
            : { content: "Done." },
      });
      servers.push(server);
      const agent = createAgent({
        model: MODEL,
        client: createAnthropicClient({ apiKey: "sk-thinking", baseURL: server.url }),
        tools: [read],
        thinking: { type: "enabled", budgetTokens: 2_000 },
        contextManagement: { clearThinking: true, where },
      });
      const messages = await collect(agent.query("Read four files."));
      expect(lastResult(messages).subtype).toBe("success"); // the mock's thinking check passed
      const last = seen(server).at(-1) as Array<{ role: string; content: Array<{ type: string }> }>;
      const thinkingTurns = last.filter((message) =>
        message.content.some?.((block) => block.type === "thinking"),
      );
      expect(thinkingTurns).toHaveLength(1);
      expect(JSON.stringify(thinkingTurns[0])).toContain("Thinking about file 3.");
      const history = JSON.stringify(await agent.getHistory());
      for (let index = 0; index < 4; index++) expect(history).toContain(`Thinking about file ${index}.`);
      expect(ofSubtype(messages, "context_edits").at(-1)?.applied_edits[0]).toMatchObject({
        type: "clear_thinking_20251015",
        cleared_thinking_turns: 3,
      });
    });
  }
});
