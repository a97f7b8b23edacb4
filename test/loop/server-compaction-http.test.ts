/**
 * Server compaction (`autoCompact.where`) over HTTP against the mock server, which compacts like the
 * Messages API: the `compact_20260112` edit and its beta sent, the `compaction` block kept in
 * history byte for byte and sent back (the mock refuses an altered one and reads from it on), its
 * usage counted, a `compaction` message emitted; `"auto"` falling back to our compaction when the
 * provider refuses (400) or ignores it; a provider without compaction blocks reading the summary.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AgentOptions,
  type CompactionBlock,
  createAgent,
  createAnthropicClient,
  createJsonlHistoryStore,
  defineTool,
  InvalidOptionError,
  type ModelClient,
  type ModelMessage,
  type SDKMessage,
} from "../../src/index";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing";
import { collect, lastResult } from "../support/query-messages";

const MODEL = "claude-sonnet-4-6";
const TURNS = 16;
const THRESHOLD = 50_000;
const servers: MockAnthropicServer[] = [];
const folders: string[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A server whose model reads one 20 KB file per turn for `TURNS` turns, then answers. */
async function start(options: { contextManagement?: boolean; serverCompaction?: boolean } = {}) {
  const server = await startMockAnthropicServer({
    ...options,
    handler: (body, index) => {
      if (!Array.isArray(body.tools)) return { content: "Summary: files were read." }; // our compaction
      const reads = server.requests.filter((request) => Array.isArray(request.body.tools)).length - 1;
      return reads < TURNS
        ? { content: [{ type: "tool_use", id: `call_${index}`, name: "read", input: { file: reads } }] }
        : { content: "All read." };
    },
  });
  servers.push(server);
  return server;
}

const read = defineTool({
  name: "read",
  description: "Reads a file.",
  inputSchema: z.object({ file: z.number() }),
  readOnly: true,
  execute: (input: { file: number }) => `file ${input.file}: ${"lorem ipsum dolor sit amet ".repeat(740)}`,
});

function options(client: ModelClient, where: "provider" | "client" | "auto"): AgentOptions {
  return {
    model: MODEL,
    client,
    tools: [read],
    systemPrompt: "You read files.",
    maxTurns: TURNS + 4,
    autoCompact: { thresholdTokens: THRESHOLD, where },
  };
}

/** The built-in client on the mock, presented as the Anthropic API (whose profile compacts). */
function asAnthropicApi(server: MockAnthropicServer, stream = true): ModelClient {
  const client = createAnthropicClient({ apiKey: "sk-compaction-test", baseURL: server.url, stream });
  return {
    endpoint: { providerName: "anthropic", address: "api.anthropic.com" },
    createMessage: (request) => client.createMessage(request),
    countTokens: (request) => client.countTokens!(request),
  };
}

function ofSubtype<S extends string>(messages: SDKMessage[], subtype: S) {
  return messages.filter(
    (message): message is Extract<SDKMessage, { type: "system"; subtype: S }> =>
      message.type === "system" && message.subtype === subtype,
  );
}

function compactionBlocks(messages: readonly ModelMessage[]): CompactionBlock[] {
  return messages.flatMap((message) =>
    typeof message.content === "string"
      ? []
      : message.content.filter((block): block is CompactionBlock => block.type === "compaction"),
  );
}

function compactEditOf(body: any): unknown {
  return body.context_management?.edits?.find((edit: { type: string }) => edit.type === "compact_20260112");
}

/** Requests of our own compaction: a summary request carries no tools. */
function summaryRequests(server: MockAnthropicServer) {
  return server.requests.filter((request) => !Array.isArray(request.body.tools));
}

describe("server compaction on the provider", () => {
  for (const stream of [true, false]) {
    it(`sends the edit, keeps the compaction block and sends it back verbatim (${stream ? "streamed" : "JSON"})`, async () => {
      const server = await start();
      const client = createAnthropicClient({ apiKey: "sk-compaction-test", baseURL: server.url, stream });
      const agent = createAgent(options(client, "provider"));
      const messages = await collect(agent.query("Read them all."));
      const result = lastResult(messages);
      expect(result.subtype).toBe("success");
      expect(summaryRequests(server)).toEqual([]); // the provider compacted, not the SDK
      for (const request of server.requests) {
        expect(request.headers["anthropic-beta"]).toContain("compact-2026-01-12");
        expect(compactEditOf(request.body)).toEqual({
          type: "compact_20260112",
          trigger: { type: "input_tokens", value: THRESHOLD },
        });
      }
      const history = await agent.getHistory();
      const blocks = compactionBlocks(history);
      expect(blocks).toHaveLength(1);
      const [block] = blocks;
      expect(block!.content).toMatch(/^Summary of \d+ earlier messages/);
      expect(block!.signature).toBeTruthy();
      // The response that compacted opens with the block; every later request carries it as it came.
      const at = history.findIndex((message) => compactionBlocks([message]).length > 0);
      expect((history[at]!.content as Array<{ type: string }>)[0]!.type).toBe("compaction");
      const later = server.requests.filter((request) =>
        JSON.stringify(request.body).includes('"compaction"'),
      );
      expect(later.length).toBeGreaterThan(0);
      for (const request of later) {
        const sent = compactionBlocks(request.body.messages);
        expect(sent).toEqual([block]);
        // The model read from the block on: far less than the whole history sent.
        expect(JSON.stringify(request.editedMessages).length).toBeLessThan(
          JSON.stringify(request.body.messages).length / 2,
        );
      }
      // The compaction is reported and counted like ours.
      const [compaction, ...more] = ofSubtype(messages, "compaction");
      expect(more).toEqual([]);
      expect(compaction).toMatchObject({ where: "provider", trigger: "auto", compacted_messages: at });
      expect(compaction!.usage.input_tokens).toBeGreaterThan(THRESHOLD);
      const answered = history.flatMap((message) => (message.role === "assistant" ? [message.usage!] : []));
      const inputs = (usage: {
        input_tokens: number;
        cache_creation_input_tokens?: number;
        cache_read_input_tokens?: number;
      }) =>
        usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
      const sum = answered.reduce((total, usage) => total + inputs(usage), 0);
      expect(inputs(result.usage)).toBe(sum + inputs(compaction!.usage));
      expect(history[at]!.meta?.compaction_usage).toEqual(compaction!.usage);
      // After it, the context is counted from the compaction on.
      const usage = await agent.getContextUsage();
      expect(usage.measured).toBe(true);
      expect(usage.inputTokens).toBeLessThan(THRESHOLD);
    });
  }

  it("works through an injected Anthropic SDK client (its beta header and stream)", async () => {
    const server = await start();
    const sdk = new Anthropic({ apiKey: "sk-compaction-sdk", baseURL: server.url });
    const agent = createAgent(options(createAnthropicClient({ anthropic: sdk }), "provider"));
    const messages = await collect(agent.query("Read them all."));
    expect(lastResult(messages).subtype).toBe("success");
    for (const request of server.requests)
      expect(request.headers["anthropic-beta"]).toContain("compact-2026-01-12");
    const [block] = compactionBlocks(await agent.getHistory());
    expect(block?.signature).toBeTruthy();
    expect(ofSubtype(messages, "compaction")).toEqual([expect.objectContaining({ where: "provider" })]);
    const later = server.requests.filter((request) => compactionBlocks(request.body.messages).length > 0);
    expect(later.length).toBeGreaterThan(0);
    for (const request of later) expect(compactionBlocks(request.body.messages)).toEqual([block]);
  });

  it("resumes after a server compaction in a fresh agent over the same JSONL store", async () => {
    const folder = await mkdtemp(join(tmpdir(), "server-compaction-"));
    folders.push(folder);
    const path = join(folder, "conversation.jsonl");
    const server = await start();
    const first = createAgent({
      ...options(asAnthropicApi(server), "auto"),
      historyStore: createJsonlHistoryStore({ path }),
    });
    expect((await first.prompt("Read them all.")).subtype).toBe("success");
    const stored = compactionBlocks(await first.getHistory());
    expect(stored).toHaveLength(1);
    await first.close();

    server.setHandler(() => ({ content: "Still here." }));
    const second = createAgent({
      ...options(asAnthropicApi(server), "auto"),
      historyStore: createJsonlHistoryStore({ path }),
    });
    const before = server.requests.length;
    expect((await second.prompt("What did you read?")).result).toBe("Still here.");
    const request = server.requests[before]!;
    expect(compactionBlocks(request.body.messages)).toEqual(stored); // byte for byte from the file
    expect((request.editedMessages![0] as { content: Array<{ text: string }> }).content[0]!.text).toBe(
      stored[0]!.content,
    );
    await second.close();
  });
});

describe('"provider" server compaction refused', () => {
  it("ends the query with the provider's 400 (no silent fallback when the provider was asked for)", async () => {
    const server = await start({ serverCompaction: false });
    const client = createAnthropicClient({ apiKey: "sk-compaction-test", baseURL: server.url });
    const messages = await collect(createAgent(options(client, "provider")).query("Read them all."));
    const result = lastResult(messages);
    expect(result.subtype).toBe("error_during_execution");
    expect(String(result.error?.message)).toMatch(/compact_20260112 is not supported/);
    expect(server.requests).toHaveLength(1);
    expect(ofSubtype(messages, "context_management_fallback")).toEqual([]);
  });
});

describe('"auto" server compaction', () => {
  it("falls back to our compaction when the provider refuses it with a 400, retrying the turn", async () => {
    const server = await start({ serverCompaction: false });
    const agent = createAgent(options(asAnthropicApi(server), "auto"));
    const messages = await collect(agent.query("Read them all."));
    expect(lastResult(messages).subtype).toBe("success");
    const [refused, ...rest] = server.requests;
    expect(compactEditOf(refused!.body)).toBeDefined();
    for (const request of rest) expect(compactEditOf(request.body)).toBeUndefined();
    expect(ofSubtype(messages, "context_management_fallback")).toEqual([
      expect.objectContaining({ feature: "compaction", message: expect.stringContaining("refused") }),
    ]);
    // The refused request was made again at once, then our compaction ran over the threshold.
    expect(rest[0]!.body.messages).toEqual(refused!.body.messages);
    expect(summaryRequests(server).length).toBeGreaterThan(0);
    expect(ofSubtype(messages, "compaction")[0]).not.toHaveProperty("where");
    expect(compactionBlocks(await agent.getHistory())).toEqual([]);
  });

  it("falls back to our compaction when the provider ignores it (no compaction over the trigger)", async () => {
    const server = await start({ contextManagement: false });
    const agent = createAgent(options(asAnthropicApi(server), "auto"));
    const messages = await collect(agent.query("Read them all."));
    expect(lastResult(messages).subtype).toBe("success");
    expect(ofSubtype(messages, "context_management_fallback")).toEqual([
      expect.objectContaining({ feature: "compaction", message: expect.stringContaining("did not compact") }),
    ]);
    const summaries = summaryRequests(server);
    expect(summaries.length).toBeGreaterThan(0);
    const after = server.requests.slice(server.requests.indexOf(summaries[0]!) + 1);
    for (const request of after) expect(compactEditOf(request.body)).toBeUndefined();
  });

  it("compacts on our side for an endpoint not known to compact, without asking the provider", async () => {
    const server = await start();
    const client = createAnthropicClient({ apiKey: "sk-compaction-test", baseURL: server.url });
    const messages = await collect(createAgent(options(client, "auto")).query("Read them all."));
    expect(lastResult(messages).subtype).toBe("success");
    for (const request of server.requests) expect(request.body.context_management).toBeUndefined();
    expect(summaryRequests(server).length).toBeGreaterThan(0);
    expect(ofSubtype(messages, "context_management_fallback")).toEqual([]);
  });
});

describe("history after a server compaction on a provider without it", () => {
  it("sends the summary in place of the block and what preceded it", async () => {
    const donor = await start();
    const compacting = createAgent(
      options(createAnthropicClient({ apiKey: "sk-a", baseURL: donor.url }), "provider"),
    );
    await compacting.prompt("Read them all.");
    const history = await compacting.getHistory();
    const [block] = compactionBlocks(history);

    // A provider that knows no compaction block (the mock refuses one with a 400).
    const plain = await startMockAnthropicServer({
      contextManagement: false,
      responses: [{ content: "Go on." }],
    });
    servers.push(plain);
    const agent = createAgent({
      model: MODEL,
      client: createAnthropicClient({ apiKey: "sk-b", baseURL: plain.url }),
    });
    await agent.replaceHistory(history);
    expect((await agent.prompt("And now?")).subtype).toBe("success");
    const sent: ModelMessage[] = plain.requests[0]!.body.messages;
    expect(compactionBlocks(sent)).toEqual([]);
    expect(JSON.stringify(sent[0])).toContain(JSON.stringify(block!.content).slice(1, -1));
    expect(JSON.stringify(sent)).not.toContain('"file 0: lorem');
    expect(sent.map((message) => message.role)).toEqual(
      sent.map((_, index) => (index % 2 === 0 ? "user" : "assistant")),
    );
    expect(compactionBlocks(await agent.getHistory())).toEqual([block]); // history keeps it
  });
});

describe("autoCompact.where validation", () => {
  it('refuses "provider" below the provider\'s lowest trigger', () => {
    const base = { model: MODEL, apiKey: "sk-validation" };
    const low = () => createAgent({ ...base, autoCompact: { where: "provider", thresholdTokens: 10_000 } });
    expect(low).toThrow(InvalidOptionError);
    expect(low).toThrow(/at least 50000/);
    expect(() => createAgent({ ...base, autoCompact: { where: "elsewhere" as "auto" } })).toThrow(
      /"auto", "provider" or "client"/,
    );
    // "auto" below it is no mistake: the SDK compacts.
    expect(() =>
      createAgent({ ...base, autoCompact: { where: "auto", thresholdTokens: 10_000 } }),
    ).not.toThrow();
  });
});
