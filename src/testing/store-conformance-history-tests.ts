/**
 * The conformance tests of a store's history: what is appended loads back in order, across loads,
 * replaces and reopened stores.
 * @module
 */
import type { ConformanceTestApi } from "./store-conformance-api";
import { assistantMessage, sampleConversation, userMessage } from "./store-conformance-messages";
import type { ConformanceTest } from "./store-conformance-runner";

/** Registers the history tests. */
export function registerHistoryTests(test: ConformanceTest, expect: ConformanceTestApi["expect"]): void {
  test("loads an empty history for a conversation never written", async ({ open }) => {
    expect(await (await open()).load()).toEqual([]);
  });

  test("loads appended messages back in order, metadata included, after a reopen", async ({
    open,
    reopen,
  }) => {
    const store = await open();
    await store.load();
    for (const message of sampleConversation()) await store.append(message);
    expect(await (await reopen(store)).load()).toEqual(sampleConversation());
  });

  test("load is idempotent: repeated loads neither duplicate nor lose messages", async ({ open }) => {
    const store = await open();
    await store.load();
    await store.append(userMessage("one"));
    await store.append(userMessage("two"));
    const first = await store.load();
    expect(await store.load()).toEqual(first);
    expect(await (await open()).load()).toEqual(first);
    expect(first).toEqual([userMessage("one"), userMessage("two")]);
  });

  test("keeps appending after a load on the same store", async ({ open }) => {
    const store = await open();
    await store.load();
    await store.append(userMessage("one"));
    await store.load();
    await store.append(userMessage("two"));
    expect(await (await open()).load()).toEqual([userMessage("one"), userMessage("two")]);
  });

  test("replace then append: the replacement is the new base", async ({ open, reopen }) => {
    const store = await open();
    await store.load();
    for (const text of ["a", "b", "c"]) await store.append(userMessage(text));
    await store.replace([userMessage("summary"), assistantMessage("kept")]);
    await store.append(userMessage("after"));
    expect(await (await reopen(store)).load()).toEqual([
      userMessage("summary"),
      assistantMessage("kept"),
      userMessage("after"),
    ]);
  });

  test("replace with an empty history, then append", async ({ open }) => {
    const store = await open();
    await store.load();
    await store.append(userMessage("gone"));
    await store.replace([]);
    expect(await (await open()).load()).toEqual([]);
    await store.append(userMessage("fresh"));
    expect(await (await open()).load()).toEqual([userMessage("fresh")]);
  });

  test("a conversation continues across reopened stores", async ({ open, reopen }) => {
    const first = await open();
    await first.load();
    await first.append(userMessage("one"));
    const second = await reopen(first);
    expect(await second.load()).toEqual([userMessage("one")]);
    await second.append(assistantMessage("two"));
    const third = await reopen(second);
    expect(await third.load()).toEqual([userMessage("one"), assistantMessage("two")]);
  });
}
