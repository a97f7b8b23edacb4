/**
 * Two chat endpoints (two server processes, as far as the conversation goes: each its own handler,
 * Agents and lock) over one store whose run claims both see. A client that has read a reply's
 * `finish` chunk sends its next message to the OTHER endpoint at once — no wait, no retry — and it
 * runs: the first endpoint let go of the conversation before that chunk went out. Likewise after an
 * error end, and after a client that went away.
 *
 * The handlers are called directly (no sockets): the reply's chunks reach the test through promise
 * turns only. The store's claim release takes its time: it first lets every pending promise turn
 * run (one `setImmediate`), and when by then the client has read the finish chunk — the endpoint
 * sent it before letting go — it holds out until the client's next request was answered. So a
 * finish sent before the release finds the conversation still claimed every time, and a finish sent
 * after it never waits on the client.
 */
import { describe, expect, it } from "vitest";
import type { HistoryStore, ModelMessage, RunClaim } from "../../src/index";
import { createAgent } from "../../src/index";
import { createScriptedClient, type ScriptedStep } from "../../src/testing/index";
import { type ChatHandler, createChatHandler } from "../../src/ui/index";
import { submitMessageBody } from "./chat-test-kit";

/** What the client has done so far, as the store's slow release reads it. */
interface ClientProgress {
  sawFinish: boolean;
  /** Settles once the client's next request has its answer (or the test gave up on it). */
  acted: Promise<void>;
  markActed(): void;
}

function clientProgress(): ClientProgress {
  let markActed!: () => void;
  const acted = new Promise<void>((resolve) => {
    markActed = resolve;
  });
  return { sawFinish: false, acted, markActed };
}

/** One conversation's storage, shared by every Agent over it: its messages and its run claim. */
function sharedConversation(client: ClientProgress) {
  const messages: ModelMessage[] = [];
  let holder: symbol | undefined;
  let releases = 0;
  let onRelease: (() => void) | undefined;
  const claimRun = async (): Promise<RunClaim | undefined> => {
    if (holder !== undefined) return undefined;
    const owner = Symbol("claim");
    holder = owner;
    return {
      shared: true,
      renew: async () => holder === owner,
      async release() {
        await new Promise((resolve) => setImmediate(resolve));
        if (client.sawFinish) await client.acted;
        if (holder === owner) holder = undefined;
        releases++;
        onRelease?.();
      },
    };
  };
  const store = (): HistoryStore => ({
    load: async () => structuredClone(messages),
    append: async (message) => void messages.push(structuredClone(message)),
    replace: async (all) => void messages.splice(0, messages.length, ...structuredClone(all)),
    claimRun,
  });
  /** Settles once `count` claims have been released in all. */
  const released = (count: number) =>
    new Promise<void>((resolve) => {
      onRelease = () => releases >= count && resolve();
      onRelease();
    });
  return { messages, store, released };
}

/** Two endpoints over one conversation, their model answering `script` in turn. */
function twoEndpoints(script: ScriptedStep[], client: ClientProgress) {
  const conversation = sharedConversation(client);
  const model = createScriptedClient(script);
  const endpoint = () =>
    createChatHandler({
      agent: () => createAgent({ model: "claude-test", client: model, historyStore: conversation.store() }),
      onRunEnd: ({ agent }) => agent.close(),
      reconnectGraceMs: 0,
    });
  return { first: endpoint(), second: endpoint(), conversation, model };
}

function chatRequest(conversationId: string, text: string): Request {
  return new Request("http://localhost/api/chat", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: submitMessageBody(conversationId, text),
  });
}

type Chunk = { type: string; messageMetadata?: { end?: string } };

/** Reads an SSE reply chunk by chunk until its `finish` chunk, noting it in `client` at once. */
async function readToFinish(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  client: ClientProgress,
): Promise<Chunk[]> {
  const decoder = new TextDecoder();
  const chunks: Chunk[] = [];
  let pending = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the reply ended without a finish chunk: ${JSON.stringify(chunks)}`);
    pending += decoder.decode(value, { stream: true });
    const events = pending.split("\n\n");
    pending = events.pop() ?? "";
    for (const event of events) {
      if (!event.startsWith("data: ") || event === "data: [DONE]") continue;
      const chunk = JSON.parse(event.slice(6)) as Chunk;
      chunks.push(chunk);
      if (chunk.type !== "finish") continue;
      client.sawFinish = true;
      return chunks;
    }
  }
}

/** Sends the next message to `endpoint` the moment the first reply finished; answers its reply. */
async function sendAtOnce(endpoint: ChatHandler, client: ClientProgress): Promise<Response> {
  try {
    return await endpoint(chatRequest("c1", "two"));
  } finally {
    client.markActed();
  }
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  while (!(await reader.read()).done) {}
}

describe("createChatHandler: a conversation is free once its reply's finish chunk is read", () => {
  it("the other endpoint runs the next message sent at once after the finish chunk", async () => {
    const client = clientProgress();
    const { first, second, conversation, model } = twoEndpoints(
      [{ content: "First answer." }, { content: "Second answer." }],
      client,
    );
    const reply = await first(chatRequest("c1", "one"));
    const reader = reply.body!.getReader();
    const chunks = await readToFinish(reader, client);
    expect(chunks.at(-1)).toMatchObject({ type: "finish", messageMetadata: { end: "success" } });
    const next = await sendAtOnce(second, client);
    await drain(reader);
    expect(next.status, await next.clone().text()).toBe(200);
    expect(await next.text()).toContain('"end":"success"');
    // The first run's history was saved before its claim was let go: the second run saw it.
    expect(model.requests[1]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
    expect(conversation.messages).toHaveLength(4);
    await Promise.all([first.close(), second.close()]);
  });

  it("also after a reply that ends with an error chunk", async () => {
    const client = clientProgress();
    const { first, second } = twoEndpoints(
      [new Error("the model failed"), { content: "Back again." }],
      client,
    );
    const reply = await first(chatRequest("c1", "one"));
    const reader = reply.body!.getReader();
    const chunks = await readToFinish(reader, client);
    expect(chunks.map((chunk) => chunk.type).slice(-2)).toEqual(["error", "finish"]);
    const next = await sendAtOnce(second, client);
    await drain(reader);
    expect(next.status, await next.clone().text()).toBe(200);
    expect(await next.text()).toContain("Back again.");
    await Promise.all([first.close(), second.close()]);
  });

  it("also after the client went away mid-reply (the run interrupted, its claim released)", async () => {
    const client = clientProgress();
    const { first, second, conversation, model } = twoEndpoints(
      [{ content: "", hang: true }, { content: "Back again." }],
      client,
    );
    const reply = await first(chatRequest("c1", "one"));
    await model.waitForRequest(1);
    await reply.body!.cancel();
    await conversation.released(1);
    client.markActed();
    const next = await second(chatRequest("c1", "two"));
    expect(next.status, await next.clone().text()).toBe(200);
    expect(await next.text()).toContain("Back again.");
    await Promise.all([first.close(), second.close()]);
  });
});
