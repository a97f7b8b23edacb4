/**
 * The conformance tests of windowed reads (`loadRange`, optional on a store): every window equals
 * the same cut of `load()`, its count is the conversation's, it reads the store's own earlier
 * writes, and — a read only — it never makes a stale writer's version current. A store without
 * `loadRange` is checked through `readHistoryWindow`, which falls back to `load()`.
 * @module
 */

import { ConcurrentQueryError } from "../errors";
import { type HistoryRange, readHistoryWindow } from "../history/history-window";
import type { HistoryStore } from "../history/store";
import type { ConformanceTestApi } from "./store-conformance-api";
import { assistantMessage, sampleConversation, userMessage } from "./store-conformance-messages";
import { type ConformanceTest, rejectionOf } from "./store-conformance-runner";

/** The ranges every window test reads, on conversations of a few messages. */
const RANGES: HistoryRange[] = [
  { limit: 1 },
  { limit: 3 },
  { limit: 1_000 },
  { from: 0, limit: 2 },
  { from: 2, limit: 3 },
  { from: 5, limit: 100 },
  { from: 1_000, limit: 5 },
];

/** Registers the window tests; the stale-writer test only when the store runs the concurrency tests. */
export function registerWindowTests(
  test: ConformanceTest,
  expect: ConformanceTestApi["expect"],
  concurrency: boolean,
): void {
  const expectWindowsOf = async (store: HistoryStore) => {
    const all = await store.load();
    for (const range of RANGES) {
      const start =
        range.from === undefined ? Math.max(0, all.length - range.limit) : Math.min(range.from, all.length);
      expect(await readHistoryWindow(store, range)).toEqual({
        messages: all.slice(start, start + range.limit),
        from: start,
        total: all.length,
      });
    }
  };

  test("a window (loadRange, or load() cut) of a conversation never written is empty", async ({ open }) => {
    const store = await open();
    expect(await readHistoryWindow(store, { limit: 10 })).toEqual({ messages: [], from: 0, total: 0 });
    expect(await readHistoryWindow(store, { from: 3, limit: 10 })).toEqual({
      messages: [],
      from: 0,
      total: 0,
    });
  });

  test("every window equals the same cut of load(), after appends and after a replace", async ({ open }) => {
    const store = await open();
    await store.load();
    for (const message of sampleConversation()) await store.append(message);
    await expectWindowsOf(await open());
    await store.replace([userMessage("a"), assistantMessage("b"), userMessage("c")]);
    await expectWindowsOf(await open());
  });

  test("loadRange reads the store's own earlier calls, even unawaited", async ({ open }) => {
    const store = await open();
    if (typeof store.loadRange !== "function") return;
    await store.load();
    void store.append(userMessage("one"));
    void store.append(assistantMessage("two"));
    expect(await store.loadRange({ limit: 1 })).toEqual({
      messages: [assistantMessage("two")],
      from: 1,
      total: 2,
    });
  });

  test("loadRange refuses a range that is not whole numbers (TypeError, nothing read)", async ({ open }) => {
    const store = await open();
    if (typeof store.loadRange !== "function") return;
    for (const range of [{ limit: 0 }, { limit: 1.5 }, { from: -1, limit: 2 }, {}] as HistoryRange[])
      expect(await rejectionOf(store.loadRange(range))).toBeInstanceOf(TypeError);
  });

  if (!concurrency) return;
  test("loadRange is a read only: a stale writer still conflicts after it", async ({ open }) => {
    const stale = await open();
    if (typeof stale.loadRange !== "function") return;
    await stale.load();
    await stale.append(userMessage("one"));
    const other = await open();
    await other.load();
    await other.append(assistantMessage("two"));
    expect((await stale.loadRange({ limit: 5 })).total).toBe(2);
    expect(await rejectionOf(stale.append(userMessage("three")))).toBeInstanceOf(ConcurrentQueryError);
    expect(await (await open()).load()).toEqual([userMessage("one"), assistantMessage("two")]);
  });
}
