/**
 * The conformance tests of a store under strain: large and awkward messages stored exactly, calls
 * not awaited kept in order, a write that cannot be stored changing nothing, a torn final write.
 * @module
 */
import type { ConformanceTestApi } from "./store-conformance-api";
import {
  assistantMessage,
  largeMessages,
  unstorableMessage,
  userMessage,
} from "./store-conformance-messages";
import { type ConformanceTest, rejectionOf } from "./store-conformance-runner";

/**
 * Registers the strain tests; the torn-write test only with `tearTail`, which leaves a torn final
 * write in the stored conversation.
 */
export function registerStrainTests(
  test: ConformanceTest,
  expect: ConformanceTestApi["expect"],
  tearTail: ((conversation: string) => Promise<void>) | undefined,
): void {
  test("stores large messages exactly: a 1 MB image, unicode, control characters", async ({ open }) => {
    const store = await open();
    await store.load();
    const messages = largeMessages();
    for (const message of messages) await store.append(message);
    expect(await (await open()).load()).toEqual(messages);
    await store.replace([...messages].reverse());
    expect(await (await open()).load()).toEqual([...messages].reverse());
  });

  test("calls made without awaiting are stored in call order", async ({ open }) => {
    const store = await open();
    await store.load();
    const messages = Array.from({ length: 25 }, (_, index) => userMessage(`message ${index}`));
    await Promise.all(messages.map((message) => store.append(message)));
    expect(await (await open()).load()).toEqual(messages);
  });

  test("replace is atomic: a replacement that cannot be stored leaves the old history whole", async ({
    open,
  }) => {
    const store = await open();
    await store.load();
    await store.append(userMessage("old 1"));
    await store.append(userMessage("old 2"));
    const failure = await rejectionOf(
      store.replace([userMessage("new 1"), unstorableMessage(), userMessage("new 3")]),
    );
    expect(failure instanceof Error).toBe(true);
    expect(await (await open()).load()).toEqual([userMessage("old 1"), userMessage("old 2")]);
    await store.append(userMessage("old 3"));
    expect(await (await open()).load()).toEqual([
      userMessage("old 1"),
      userMessage("old 2"),
      userMessage("old 3"),
    ]);
  });

  test("an append that cannot be stored changes nothing", async ({ open }) => {
    const store = await open();
    await store.load();
    await store.append(userMessage("kept"));
    expect((await rejectionOf(store.append(unstorableMessage()))) instanceof Error).toBe(true);
    await store.append(userMessage("next"));
    expect(await (await open()).load()).toEqual([userMessage("kept"), userMessage("next")]);
  });

  if (tearTail) {
    test("a torn final write loses at most that write; later appends start clean", async ({
      open,
      reopen,
      close,
      conversation,
    }) => {
      const store = await open();
      await store.load();
      await store.append(userMessage("one"));
      await store.append(assistantMessage("two"));
      await close(store);
      await tearTail(conversation);
      const resumed = await open();
      expect(await resumed.load()).toEqual([userMessage("one"), assistantMessage("two")]);
      await resumed.append(userMessage("three"));
      expect(await (await reopen(resumed)).load()).toEqual([
        userMessage("one"),
        assistantMessage("two"),
        userMessage("three"),
      ]);
    });
  }
}
