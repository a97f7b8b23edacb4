import { join } from "node:path";
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Agent,
  createAgent,
  createJsonlHistoryStore,
  defineTool,
  isWellFormedHistory,
} from "../../src/index";
import { mockServerPerTest } from "../support/mock-server";
import { until } from "../support/promises";
import { temporaryFolder } from "../support/temporary-folders";
import { readReply, send, serveChat, startSending, textOf, userMessage } from "./chat-test-kit";

const server = mockServerPerTest();

function cachedAgents(make: (conversationId: string) => Agent<unknown>) {
  const byId = new Map<string, Agent<unknown>>();
  return {
    byId,
    agent: ({ conversationId }: { conversationId: string }) => {
      if (!byId.has(conversationId)) byId.set(conversationId, make(conversationId));
      return byId.get(conversationId)!;
    },
  };
}

function memoryAgent(): Agent<unknown> {
  return createAgent({
    model: "claude-test",
    apiKey: "test-key",
    baseURL: server.url,
    includePartialMessages: true,
  });
}

/**
 * A run that stays "mid-run" until the test says so: the model says something and calls `gate`,
 * whose call waits for `open()`; then the model finishes the answer.
 */
function gatedRun() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const gate = defineTool({
    name: "gate",
    description: "Waits",
    inputSchema: z.object({}),
    async execute() {
      await opened;
      return "opened";
    },
  });
  server.enqueue(
    {
      content: [
        { type: "text", text: "Working on it." },
        { type: "tool_use", id: "toolu_gate", name: "gate", input: {} },
      ],
    },
    { content: "All done." },
  );
  const agent = () =>
    createAgent({
      model: "claude-test",
      apiKey: "test-key",
      baseURL: server.url,
      includePartialMessages: true,
      tools: [gate],
    });
  return { open, agent };
}
const GATED_TEXT = "Working on it.All done.";

describe("stop, reconnect, resume", () => {
  it("stops on the stop route: the run ends interrupted, history stays well-formed, the next message works", async () => {
    const app = cachedAgents(memoryAgent);
    const ends: string[] = [];
    const endpoint = await serveChat({ agent: app.agent, onRunEnd: () => void ends.push("end") });
    server.enqueue({ content: "never finished", delayMs: 60_000 });
    const stream = await startSending(endpoint, "s1", [userMessage("Write a long essay")]);
    const reading = readReply(stream);
    await until(() => server.requests.length === 1, 20_000);
    expect((await fetch(`${endpoint.api}/s1/stop`, { method: "POST" })).status).toBe(204);
    const stopped = await reading;
    expect(stopped.message.metadata).toMatchObject({ end: "interrupted" });
    expect(stopped.errors).toEqual([]);
    await until(() => ends.length === 1, 20_000);
    expect(isWellFormedHistory(await app.byId.get("s1")!.getHistory())).toBe(true);

    server.enqueue({ content: "Here is a short one." });
    const next = await send(endpoint, "s1", [userMessage("Then a short one")]);
    expect(textOf(next.message)).toBe("Here is a short one.");
  });

  it("interrupts a run nobody reads once the grace period passes (useChat's stop, no reconnect)", async () => {
    const app = cachedAgents(memoryAgent);
    const ends: string[] = [];
    const endpoint = await serveChat({
      agent: app.agent,
      reconnectGraceMs: 100,
      onRunEnd: () => void ends.push("end"),
    });
    server.enqueue({ content: "never finished", delayMs: 60_000 });
    const controller = new AbortController();
    const stream = await startSending(endpoint, "s2", [userMessage("Go")], {
      abortSignal: controller.signal,
    });
    const reading = readReply(stream).catch(() => undefined);
    await until(() => server.requests.length === 1, 20_000);
    controller.abort();
    await reading;
    await until(() => ends.length === 1, 20_000);
    expect(await endpoint.transport.reconnectToStream({ chatId: "s2" })).toBeNull();
    // The next message works (and does not wait for the stopped run).
    server.enqueue({ content: "Back." });
    expect(textOf((await send(endpoint, "s2", [userMessage("Again")])).message)).toBe("Back.");
  });

  it("a new message supersedes a run whose reader left (stop, then send at once)", async () => {
    const app = cachedAgents(memoryAgent);
    const endpoint = await serveChat({ agent: app.agent, reconnectGraceMs: 60_000 });
    server.enqueue({ content: "never finished", delayMs: 60_000 });
    const controller = new AbortController();
    const stream = await startSending(endpoint, "s3", [userMessage("Go")], {
      abortSignal: controller.signal,
    });
    const reading = readReply(stream).catch(() => undefined);
    await until(() => server.requests.length === 1, 20_000);
    controller.abort();
    await reading;
    server.enqueue({ content: "Fresh answer." });
    const next = await send(endpoint, "s3", [userMessage("Something else")]);
    expect(textOf(next.message)).toBe("Fresh answer.");
    expect(isWellFormedHistory(await app.byId.get("s3")!.getHistory())).toBe(true);
  });

  it("a reload mid-run reconnects and gets the whole message from its start, without a second run", async () => {
    const gated = gatedRun();
    const endpoint = await serveChat({ agent: cachedAgents(gated.agent).agent, reconnectGraceMs: 60_000 });
    const controller = new AbortController();
    const stream = await startSending(endpoint, "r1", [userMessage("Count")], {
      abortSignal: controller.signal,
    });
    const reader = stream.getReader();
    // Read until some text arrived, then "reload": the POST goes away.
    for (;;) {
      const { value } = await reader.read();
      if (value?.type === "text-delta") break;
    }
    controller.abort();
    await reader.cancel().catch(() => {});
    const history = (await (await fetch(`${endpoint.api}/r1/messages`)).json()) as {
      messages: UIMessage[];
      running: boolean;
    };
    expect(history.running).toBe(true);
    expect(history.messages.map((message) => message.role)).toEqual(["user"]);
    const resumed = await endpoint.transport.reconnectToStream({ chatId: "r1" });
    expect(resumed).not.toBeNull();
    gated.open();
    const reply = await readReply(resumed!);
    expect(reply.chunks[0]).toMatchObject({ type: "start" });
    expect(textOf(reply.message)).toBe(GATED_TEXT);
    expect(reply.message.metadata).toMatchObject({ end: "success" });
    expect(server.requests).toHaveLength(2); // the run's own two turns: it was not started again
    // After the end: nothing to reconnect to; the finished message is in the history route.
    expect(await endpoint.transport.reconnectToStream({ chatId: "r1" })).toBeNull();
    const after = (await (await fetch(`${endpoint.api}/r1/messages`)).json()) as { messages: UIMessage[] };
    expect(after.messages.map((message) => textOf(message))).toEqual(["Count", GATED_TEXT]);
  });

  it("a second tab sees the running run and cannot start another", async () => {
    const gated = gatedRun();
    const endpoint = await serveChat({ agent: cachedAgents(gated.agent).agent });
    const first = send(endpoint, "t1", [userMessage("Count")]);
    await until(() => server.requests.length === 1, 20_000);
    const second = await endpoint.transport.reconnectToStream({ chatId: "t1" });
    expect(second).not.toBeNull();
    const refused = await fetch(endpoint.api, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "t1", messages: [userMessage("Me too")], trigger: "submit-message" }),
    });
    expect(refused.status).toBe(409);
    gated.open();
    const [one, two] = await Promise.all([first, readReply(second!)]);
    expect(textOf(one.message)).toBe(GATED_TEXT);
    expect(textOf(two.message)).toBe(GATED_TEXT);
    expect(two.message.id).toBe(one.message.id);
    expect(server.requests).toHaveLength(2);
  });

  it("after a server restart mid-run, a durable store gives the recorded part and a clear end", async () => {
    const folder = temporaryFolder("ui-restart-");
    const path = join(folder, "chat.jsonl");
    const lookup = defineTool({
      name: "lookup",
      description: "Looks up",
      inputSchema: z.object({ q: z.string() }),
      async execute({ q }) {
        return `result for ${q}`;
      },
    });
    const durable = () =>
      createAgent({
        model: "claude-test",
        apiKey: "test-key",
        baseURL: server.url,
        includePartialMessages: true,
        tools: [lookup],
        historyStore: createJsonlHistoryStore({ path }),
      });
    const before = await serveChat({ agent: cachedAgents(durable).agent });
    server.enqueue(
      { content: [{ type: "tool_use", id: "toolu_1", name: "lookup", input: { q: "x" } }] },
      { content: "never", delayMs: 60_000 },
    );
    const reading = send(before, "d1", [userMessage("Research x")]).catch(() => undefined);
    await until(() => server.requests.length === 2, 20_000);
    await before.close(); // the old server goes away mid-run
    await reading;

    const after = await serveChat({ agent: cachedAgents(durable).agent });
    expect(await after.transport.reconnectToStream({ chatId: "d1" })).toBeNull();
    const recorded = (await (await fetch(`${after.api}/d1/messages`)).json()) as { messages: UIMessage[] };
    expect(recorded.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    const answer = recorded.messages[1]!;
    expect(answer.parts).toContainEqual(
      expect.objectContaining({
        type: "dynamic-tool",
        toolCallId: "toolu_1",
        state: "output-available",
        output: "result for x",
      }),
    );
    expect(answer.metadata).toEqual({ end: "interrupted" });
    server.enqueue({ content: "Carrying on." });
    const next = await send(after, "d1", [userMessage("Go on")]);
    expect(textOf(next.message)).toBe("Carrying on.");
  });
});
