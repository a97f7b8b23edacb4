/**
 * The conformance tests of checkpoints: a prompt's `meta` (its checkpoint id and timestamp) is kept
 * by every write and load; a conversation stored without checkpoints derives the same ones from
 * every load; a rewind (one replace at a checkpoint) and a fork (the part before a checkpoint,
 * written into another conversation) hold across reopened stores.
 * @module
 */
import { ConcurrentQueryError } from "../errors";
import { listCheckpoints } from "../history/checkpoints";
import type { ModelMessage } from "../messages/types";
import type {
  ConformanceTestApi,
  HistoryStoreConformanceOptions,
  HistoryStoreFactory,
} from "./store-conformance-api";
import { assistantMessage, userMessage } from "./store-conformance-messages";
import { type ConformanceTest, rejectionOf } from "./store-conformance-runner";

/** A prompt as the loop records it: with its checkpoint id and timestamp in `meta`. */
function prompt(text: string, id: string): ModelMessage {
  return {
    role: "user",
    content: text,
    meta: { created_at: "2026-12-03T10:00:00.000Z", checkpoint_id: `cp_${id.padEnd(32, "0")}` },
  };
}

/** Three prompts and their answers, each prompt with a checkpoint. */
function conversationWithCheckpoints(): ModelMessage[] {
  return [
    prompt("first", "a1"),
    assistantMessage("one"),
    prompt("second", "b2"),
    assistantMessage("two"),
    prompt("third", "c3"),
    assistantMessage("three"),
  ];
}

/** Registers the checkpoint tests. */
export function registerCheckpointTests(
  test: ConformanceTest,
  expect: ConformanceTestApi["expect"],
  factory: HistoryStoreFactory,
  options: HistoryStoreConformanceOptions,
): void {
  const metaOf = (messages: ModelMessage[]) => messages.map((message) => message.meta ?? null);
  const idsOf = (messages: ModelMessage[]) =>
    listCheckpoints(messages).map((entry) => [entry.id, entry.index]);

  test("keeps each prompt's meta (checkpoint id, timestamp) through append, replace and reopen", async ({
    open,
    reopen,
  }) => {
    const written = conversationWithCheckpoints();
    const store = await open();
    await store.load();
    for (const message of written) await store.append(message);
    const reopened = await reopen(store);
    const loaded = await reopened.load();
    expect(metaOf(loaded)).toEqual(metaOf(written));
    expect(idsOf(loaded)).toEqual(idsOf(written));
    await reopened.replace(written.slice(0, 4));
    expect(metaOf(await (await reopen(reopened)).load())).toEqual(metaOf(written.slice(0, 4)));
  });

  test("derives the same checkpoints for a conversation stored without them, from every load", async ({
    open,
  }) => {
    const store = await open();
    await store.load();
    for (const message of [userMessage("old one"), assistantMessage("a"), userMessage("old two")])
      await store.append(message);
    const first = listCheckpoints(await (await open()).load());
    const second = listCheckpoints(await (await open()).load());
    expect(first.map((entry) => [entry.index, entry.derived])).toEqual([
      [0, true],
      [2, true],
    ]);
    expect(second).toEqual(first);
  });

  test("a rewind — one replace with the part before a checkpoint — loads back, and later appends follow it", async ({
    open,
    reopen,
  }) => {
    const written = conversationWithCheckpoints();
    const store = await open();
    await store.load();
    for (const message of written) await store.append(message);
    const target = listCheckpoints(written)[1]!;
    await store.replace(written.slice(0, target.index));
    const next = prompt("second, again", "d4");
    await store.append(next);
    const loaded = await (await reopen(store)).load();
    expect(metaOf(loaded)).toEqual(metaOf([...written.slice(0, 2), next]));
    expect(listCheckpoints(loaded).map((entry) => entry.prompt)).toEqual(["first", "second, again"]);
  });

  registerForkTests(test, expect, factory, options);
}

/** The fork and stale-rewind tests. */
function registerForkTests(
  test: ConformanceTest,
  expect: ConformanceTestApi["expect"],
  factory: HistoryStoreFactory,
  options: HistoryStoreConformanceOptions,
): void {
  test("a fork at a checkpoint into another conversation: both load and go on independently", async ({
    conversation,
    open,
  }) => {
    const forkKey = `${conversation}-fork`;
    const original = await open();
    await original.load();
    const written = conversationWithCheckpoints();
    for (const message of written) await original.append(message);
    const fork = await factory(forkKey);
    try {
      expect(await fork.load()).toEqual([]);
      await fork.replace(written.slice(0, listCheckpoints(written)[2]!.index));
      await fork.append(prompt("fork third", "e5"));
      await original.append(prompt("fourth", "f6"));
      const forkReader = await factory(forkKey);
      const forked = await forkReader.load();
      await forkReader.close?.();
      expect(listCheckpoints(forked).map((entry) => entry.prompt)).toEqual(["first", "second", "fork third"]);
      expect(listCheckpoints(await (await open()).load()).map((entry) => entry.prompt)).toEqual([
        "first",
        "second",
        "third",
        "fourth",
      ]);
    } finally {
      await fork.close?.();
      await options.cleanup?.(forkKey);
    }
  });

  if (options.concurrency ?? true) {
    test("a rewind from a stale view is a conflict and writes nothing", async ({ open }) => {
      const rewinder = await open();
      const writer = await open();
      await rewinder.load();
      for (const message of conversationWithCheckpoints()) await rewinder.append(message);
      const seen = await writer.load();
      await rewinder.load();
      await writer.append(prompt("meanwhile", "g7"));
      const error = await rejectionOf(rewinder.replace(seen.slice(0, 2)));
      expect(error).toBeInstanceOf(ConcurrentQueryError);
      const loaded = await (await open()).load();
      expect(listCheckpoints(loaded).map((entry) => entry.prompt)).toEqual([
        "first",
        "second",
        "third",
        "meanwhile",
      ]);
    });
  }
}
