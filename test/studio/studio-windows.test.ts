/**
 * The studio's API over windows (no browser): a long conversation is answered from its newest
 * window with a partial summary and counted whole apart; the list summarises it without reading it
 * whole; the status says what told it (pause marker, answer, `isRunning`, a recent write); a store
 * without `loadRange` still works (one load cut to the window); context edits, tool searches and
 * checkpoint ids reach the timeline model.
 */
import { mkdtemp, rm, stat, utimes } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  createJsonlHistoryStore,
  defineHistoryStore,
  type HistoryRange,
  type ModelMessage,
} from "../../src/index";
import { type Studio, startStudio } from "../../src/studio/index";
import { eventsOf, timelineOf } from "../../src/studio/page/turns";
import type { ConversationSummary } from "../../src/studio/summary";

let folder: string;
let studio: Studio | undefined;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), "studio-windows-"));
});
afterEach(async () => {
  await studio?.close();
  studio = undefined;
  await rm(folder, { recursive: true, force: true });
});

function turns(count: number, last: ModelMessage): ModelMessage[] {
  const messages: ModelMessage[] = [{ role: "user", content: "The very first prompt." }];
  for (let index = 0; index < count; index++)
    messages.push(
      {
        role: "assistant",
        content: [{ type: "text", text: `step ${index}` }],
        stop_reason: "end_turn",
        model: "claude-haiku-4-5",
        usage: { input_tokens: 3, output_tokens: 2 },
        meta: { cost_usd: 0.5, latency_ms: 10 },
      },
      { role: "user", content: `next ${index}` },
    );
  messages.push(last);
  return messages;
}

const answer: ModelMessage = { role: "assistant", content: [{ type: "text", text: "All done." }] };

async function write(id: string, messages: ModelMessage[], ageMs = 0): Promise<void> {
  const store = createJsonlHistoryStore({ path: join(folder, `${id}.jsonl`) });
  await store.replace(messages);
  await store.close();
  if (ageMs > 0) {
    const at = new Date(Date.now() - ageMs);
    await utimes(join(folder, `${id}.jsonl`), at, at);
  }
}

async function get<T>(path: string): Promise<T> {
  const url = new URL(studio!.url);
  const response = await fetch(new URL(path, url.origin), {
    headers: { "x-studio-token": url.searchParams.get("token")! },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

describe("a long conversation", () => {
  it("opens at its newest window with a partial summary; /api/summary counts it whole", async () => {
    await write("long", turns(300, answer)); // 602 messages
    studio = await startStudio({ store: folder });
    const window = await get<{
      from: number;
      total: number;
      messages: ModelMessage[];
      summary: ConversationSummary;
    }>("/api/conversation?source=0&id=long&limit=200");
    expect({ from: window.from, total: window.total, count: window.messages.length }).toEqual({
      from: 402,
      total: 602,
      count: 200,
    });
    expect(window.summary).toMatchObject({
      partial: true,
      title: "The very first prompt.",
      status: "finished",
      statusBasis: "answer",
      turns: 0,
    });
    const whole = await get<ConversationSummary>("/api/summary?source=0&id=long");
    expect(whole).toMatchObject({ turns: 301, costUsd: 150, messageCount: 602, status: "finished" });
    expect(whole.partial).toBeUndefined();
    // Counted once per version: the next window carries the whole summary.
    const again = await get<{ summary: ConversationSummary }>("/api/conversation?source=0&id=long&limit=200");
    expect(again.summary.turns).toBe(301);
    const earliest = await get<{ from: number; messages: ModelMessage[] }>(
      "/api/conversation?source=0&id=long&from=0&limit=2",
    );
    expect(earliest.messages.map((message) => message.content)).toEqual([
      "The very first prompt.",
      [{ type: "text", text: "step 0" }],
    ]);
  });

  it("is counted again after each write, even one that leaves the listing as it was", async () => {
    // A listing is reused for a second, and a file's write time can stay the same across writes
    // (a coarse clock, a copied time): the count must follow the conversation's version, which the
    // page polls, not the listing — or the page keeps old totals for good.
    await write("long", turns(300, answer));
    const path = join(folder, "long.jsonl");
    studio = await startStudio({ store: folder });
    type Window = { version: string; summary: ConversationSummary };
    const first = await get<Window>("/api/conversation?source=0&id=long");
    expect(first.summary.partial).toBe(true);
    expect((await get<ConversationSummary>("/api/summary?source=0&id=long")).turns).toBe(301);
    expect((await get<Window>("/api/conversation?source=0&id=long")).summary.turns).toBe(301);
    const { mtime } = await stat(path);
    for (const added of [1, 2]) {
      const store = createJsonlHistoryStore({ path });
      await store.append({ role: "user", content: `more ${added}` });
      await store.append({ ...answer, usage: { input_tokens: 1, output_tokens: 1 } });
      await store.close();
      await utimes(path, mtime, mtime);
      const window = await get<Window>("/api/conversation?source=0&id=long");
      expect(window.version).not.toBe(first.version);
      const whole = window.summary.partial
        ? await get<ConversationSummary>("/api/summary?source=0&id=long")
        : window.summary;
      expect({ turns: whole.turns, messageCount: whole.messageCount }).toEqual({
        turns: 301 + added,
        messageCount: 602 + 2 * added,
      });
      expect((await get<ConversationSummary>("/api/summary?source=0&id=long")).turns).toBe(301 + added);
    }
  });

  it("is listed from its first and newest messages, then counted whole in the background", async () => {
    await write("long", turns(300, answer));
    await write("short", [{ role: "user", content: "Hi" }, answer], 5_000);
    studio = await startStudio({ store: folder });
    const page = await get<{ items: ConversationSummary[] }>("/api/conversations");
    const [long, short] = page.items;
    expect(long).toMatchObject({ conversationId: "long", partial: true, title: "The very first prompt." });
    expect(short).toMatchObject({ conversationId: "short", turns: 1, status: "finished" });
    expect(short!.partial).toBeUndefined();
    await get("/api/summary?source=0&id=long");
    const listed = await get<{ items: ConversationSummary[] }>("/api/conversations");
    expect(listed.items[0]).toMatchObject({ conversationId: "long", turns: 301 });
  });
});

describe("the status", () => {
  const prompt: ModelMessage = { role: "user", content: "Waiting for an answer" };

  it("is told by the pause marker, an answer, a recent write, or none of them", async () => {
    await write("paused", [
      { role: "user", content: "Deploy" },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t", name: "deploy", input: {} }],
        stop_reason: "tool_use",
      },
      {
        role: "user",
        content: [],
        pending_approvals: [{ tool_use_id: "t", name: "deploy", input: {} }],
      } as never,
    ]);
    await write("answered", [prompt, answer], 120_000);
    await write("recent", [prompt]);
    await write("stopped", [prompt], 120_000);
    studio = await startStudio({ store: folder });
    const { items } = await get<{ items: ConversationSummary[] }>("/api/conversations");
    const statusOf = (id: string) => {
      const item = items.find((candidate) => candidate.conversationId === id)!;
      return `${item.status} (${item.statusBasis})`;
    };
    expect(statusOf("paused")).toBe("paused (pause marker)");
    expect(statusOf("answered")).toBe("finished (answer)");
    expect(statusOf("recent")).toBe("running (recent write)");
    expect(statusOf("stopped")).toBe("failed (no answer)");
  });

  it("is running when isRunning says so, whatever the history; a throwing check cannot tell", async () => {
    await write("answered", [prompt, answer], 120_000);
    await write("stopped", [prompt], 120_000);
    const asked: Array<{ conversationId: string; source: string }> = [];
    studio = await startStudio({
      store: folder,
      isRunning: (conversation) => {
        asked.push(conversation);
        if (conversation.conversationId === "stopped") throw new Error("lease unknown");
        return true;
      },
    });
    const { items } = await get<{ items: ConversationSummary[] }>("/api/conversations");
    expect(items.map((item) => [item.conversationId, item.status, item.statusBasis]).sort()).toEqual([
      ["answered", "running", "isRunning"],
      ["stopped", "failed", "no answer"],
    ]);
    expect(asked).toContainEqual({ conversationId: "answered", source: folder });
  });
});

describe("a store object without loadRange", () => {
  it("is shown through one load cut to the window, and polled for its version the same way", async () => {
    const messages = turns(150, answer); // 302 messages
    let loads = 0;
    const store = defineHistoryStore({
      load: async () => {
        loads++;
        return messages;
      },
      append: async () => {},
      replace: async () => {},
    });
    expect("loadRange" in store).toBe(false);
    studio = await startStudio({ store });
    const window = await get<{ from: number; total: number }>(
      "/api/conversation?source=0&id=conversation&limit=100",
    );
    expect({ from: window.from, total: window.total }).toEqual({ from: 202, total: 302 });
    expect(loads).toBeGreaterThan(0);
    const version = await get<{ version: string }>("/api/version?source=0&id=conversation");
    messages.push({ role: "user", content: "one more" });
    expect((await get<{ version: string }>("/api/version?source=0&id=conversation")).version).not.toBe(
      version.version,
    );
  });

  it("with its own loadRange given through defineHistoryStore, is read through it", async () => {
    const ranges: HistoryRange[] = [];
    const messages = turns(10, answer);
    const store = defineHistoryStore({
      load: async () => {
        throw new Error("not for a window");
      },
      loadRange: async (range) => {
        ranges.push(range);
        const start = range.from ?? Math.max(0, messages.length - range.limit);
        return { messages: messages.slice(start, start + range.limit), from: start, total: messages.length };
      },
      append: async () => {},
      replace: async () => {},
    });
    studio = await startStudio({ store });
    const window = await get<{ total: number; messages: ModelMessage[] }>(
      "/api/conversation?source=0&id=conversation&limit=5",
    );
    expect(window.total).toBe(messages.length);
    expect(window.messages).toEqual(messages.slice(-5));
    expect(ranges).toContainEqual({ from: undefined, limit: 5 });
  });
});

describe("events on the timeline", () => {
  it("shows context edits applied, provider tool searches and checkpoint ids", () => {
    const turn: ModelMessage = {
      role: "assistant",
      content: [
        { type: "server_tool_use", id: "srv", name: "tool_search_tool_bm25", input: { query: "weather" } },
        {
          type: "tool_search_tool_result",
          tool_use_id: "srv",
          content: {
            type: "tool_search_tool_search_result",
            tool_references: [{ type: "tool_reference", tool_name: "get_weather" }],
          },
        },
        { type: "server_tool_use", id: "srv2", name: "tool_search_tool_bm25", input: { query: "x" } },
        {
          type: "tool_search_tool_result",
          tool_use_id: "srv2",
          content: { type: "tool_search_tool_result_error", error_code: "too_many_requests" },
        },
        { type: "text", text: "It is sunny." },
      ],
      meta: {
        context_management: {
          applied_edits: [
            { type: "clear_tool_uses_20250919", cleared_tool_uses: 3, cleared_input_tokens: 12_000 },
            { type: "clear_thinking_20251015", cleared_thinking_turns: 2, cleared_input_tokens: 800 },
          ],
        },
      },
    };
    expect(eventsOf(turn as never)).toEqual([
      "Context edit: cleared 3 tool use(s), 12000 input tokens freed",
      "Context edit: cleared 2 thinking turn(s), 800 input tokens freed",
      'Tool search (tool_search_tool_bm25) {"query":"weather"}: found get_weather',
      'Tool search (tool_search_tool_bm25) {"query":"x"}: error too_many_requests',
    ]);
    const items = timelineOf(
      [{ role: "user", content: "Weather?", meta: { checkpoint_id: "cp_1" } }, turn],
      0,
    );
    expect(items[0]).toMatchObject({ kind: "prompt", checkpointId: "cp_1" });
    expect(items[1]).toMatchObject({
      kind: "turn",
      events: expect.arrayContaining([expect.stringContaining("Context edit")]),
    });
    expect(
      eventsOf({ role: "assistant", content: [], meta: { context_management: { applied_edits: [] } } }),
    ).toEqual([]);
  });
});

describe("the studio's own resume", () => {
  it("counts as running while it runs, and only then", async () => {
    const { StudioActions } = await import("../../src/studio/actions");
    let finish!: () => void;
    const resumed = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const agent = {
      getPendingApprovals: async () => [{ tool_use_id: "t" }],
      getPendingInputs: async () => [],
      prompt: async () => {
        await resumed;
        return { subtype: "success" };
      },
      close: async () => {},
    };
    const actions = new StudioActions(() => agent as never);
    const decision = actions.decide("c", { t: { approved: true } });
    await new Promise<void>((resolve) => {
      const check = () => (actions.busy("c") ? resolve() : setImmediate(check));
      check();
    });
    expect(actions.busy("other")).toBe(false);
    finish();
    expect(await decision).toEqual({ subtype: "success" });
    expect(actions.busy("c")).toBe(false);
  });
});
