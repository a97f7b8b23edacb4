/**
 * The conformance tests of `replaceTail`, for a store that has it: the messages before `from` stay,
 * the tail is replaced, a writer whose view is stale writes nothing, and an index past the stored
 * messages is refused. A store without `replaceTail` skips them (the agent uses `replace` there),
 * unless it was declared to have it (`HistoryStoreConformanceOptions.replaceTail`).
 * @module
 */
import { ConcurrentQueryError } from "../errors";
import type { HistoryStore } from "../history/store";
import type { ConformanceTestApi } from "./store-conformance-api";
import { assistantMessage, userMessage } from "./store-conformance-messages";
import { type ConformanceTest, rejectionOf } from "./store-conformance-runner";

type TailStore = HistoryStore & Required<Pick<HistoryStore, "replaceTail">>;

/** Registers the `replaceTail` tests. */
export function registerTailTests(
  test: ConformanceTest,
  expect: ConformanceTestApi["expect"],
  concurrency: boolean,
  required: boolean,
): void {
  /** Whether `store` can replace its tail — asserted when the store is declared to have it. */
  const hasTail = (store: HistoryStore): store is TailStore => {
    if (required) expect(typeof store.replaceTail).toBe("function");
    return typeof store.replaceTail === "function";
  };

  test("replaceTail keeps the messages before `from`, and later appends follow the new tail", async ({
    open,
    reopen,
  }) => {
    const store = await open();
    if (!hasTail(store)) return;
    await store.load();
    for (const text of ["a", "b", "c", "d"]) await store.append(userMessage(text));
    await store.replaceTail(2, [assistantMessage("new c"), userMessage("new d"), userMessage("new e")]);
    await store.append(userMessage("after"));
    const expected = [
      userMessage("a"),
      userMessage("b"),
      assistantMessage("new c"),
      userMessage("new d"),
      userMessage("new e"),
      userMessage("after"),
    ];
    expect(await store.load()).toEqual(expected);
    expect(await (await reopen(store)).load()).toEqual(expected);
  });

  test("replaceTail with nothing after `from` takes the last messages back; with `from` 0 it replaces all", async ({
    open,
  }) => {
    const store = await open();
    if (!hasTail(store)) return;
    await store.load();
    for (const text of ["one", "two", "three"]) await store.append(userMessage(text));
    await store.replaceTail(2, []);
    expect(await (await open()).load()).toEqual([userMessage("one"), userMessage("two")]);
    await store.replaceTail(2, []); // nothing after it: a write that changes no message
    await store.append(userMessage("three again"));
    expect(await (await open()).load()).toEqual([
      userMessage("one"),
      userMessage("two"),
      userMessage("three again"),
    ]);
    await store.replaceTail(0, [userMessage("all new")]);
    expect(await (await open()).load()).toEqual([userMessage("all new")]);
  });

  test("replaceTail past the stored messages is refused and writes nothing", async ({ open }) => {
    const store = await open();
    if (!hasTail(store)) return;
    await store.load();
    await store.append(userMessage("only"));
    expect(await rejectionOf(store.replaceTail(2, [userMessage("beyond")]))).toBeInstanceOf(Error);
    expect(await rejectionOf(store.replaceTail(-1, []))).toBeInstanceOf(Error);
    expect(await (await open()).load()).toEqual([userMessage("only")]);
    await store.load();
    await store.append(userMessage("still writable"));
    expect(await (await open()).load()).toEqual([userMessage("only"), userMessage("still writable")]);
  });

  if (concurrency) registerTailConflictTest(test, expect, hasTail);
}

/** The two-writer test of `replaceTail`: a stale writer's tail is a conflict, and a tail makes the other writer stale. */
function registerTailConflictTest(
  test: ConformanceTest,
  expect: ConformanceTestApi["expect"],
  hasTail: (store: HistoryStore) => store is TailStore,
): void {
  test("replaceTail by a writer whose view is stale is a conflict and writes nothing", async ({ open }) => {
    const first = await open();
    const second = await open();
    if (!hasTail(first) || !hasTail(second)) return;
    await first.load();
    await first.append(userMessage("one"));
    await first.append(userMessage("two"));
    await second.load();
    await first.append(userMessage("three"));
    const error = await rejectionOf(second.replaceTail(1, [userMessage("stale tail")]));
    expect(error).toBeInstanceOf(ConcurrentQueryError);
    expect(await (await open()).load()).toEqual([
      userMessage("one"),
      userMessage("two"),
      userMessage("three"),
    ]);
    // And a tail replaced by one writer makes the other stale.
    await second.load();
    await second.replaceTail(2, [userMessage("replaced")]);
    expect(await rejectionOf(first.append(userMessage("lost")))).toBeInstanceOf(ConcurrentQueryError);
    expect(await (await open()).load()).toEqual([
      userMessage("one"),
      userMessage("two"),
      userMessage("replaced"),
    ]);
  });
}
