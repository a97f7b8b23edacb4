/**
 * `runHistoryStoreConformance`: the behaviour every {@link HistoryStore} must have, as a test suite
 * any store can run — ours run it, and so can yours. It takes the test framework's functions as
 * arguments (vitest, jest, or anything with the same shape), so this package imports none.
 * @module
 */
import { randomUUID } from "node:crypto";
import { ConcurrentQueryError } from "../errors";
import type { HistoryStore } from "../history/store";
import type { ModelMessage } from "../messages/types";

/** The assertions the suite uses; vitest's and jest's `expect` fit. */
export interface ConformanceAssertion {
  toEqual(expected: unknown): void;
  toBe(expected: unknown): void;
  toBeInstanceOf(expected: any): void;
}

/** The test-framework functions the suite needs. */
export interface ConformanceTestApi {
  describe: (name: string, body: () => void) => void;
  it: (name: string, test: () => Promise<void>) => void;
  expect: (actual: any) => ConformanceAssertion;
}

/** Options of {@link runHistoryStoreConformance}: the framework functions plus what the store supports. */
export interface HistoryStoreConformanceOptions extends ConformanceTestApi {
  /**
   * Run the two-writer tests: a writer whose view is stale must get an error that extends
   * `ConcurrentQueryError` and write nothing. Turn off only for a store meant for one process.
   * @default true
   */
  concurrency?: boolean;
  /**
   * Leaves a torn final write in the stored conversation (e.g. half a JSON line), as a crash
   * mid-write would. When given, the suite checks that load skips it and later appends survive.
   */
  tearTail?: (conversation: string) => Promise<void>;
  /** Removes what a test stored, called after each test with its conversation key. */
  cleanup?: (conversation: string) => Promise<void>;
}

/**
 * Opens a store on a conversation. Called several times with the same key to open the same
 * conversation again (a reopen, or a second writer); different keys must not share history.
 */
export type HistoryStoreFactory = (conversation: string) => HistoryStore | Promise<HistoryStore>;

/**
 * Registers the conformance suite for a store.
 *
 * @example
 * import { describe, expect, it } from "vitest";
 * import { runHistoryStoreConformance } from "agent-lattice/testing";
 *
 * runHistoryStoreConformance("my store", (conversation) => createMyStore({ id: conversation }), {
 *   describe, it, expect,
 * });
 */
export function runHistoryStoreConformance(
  name: string,
  factory: HistoryStoreFactory,
  options: HistoryStoreConformanceOptions,
): void {
  const { describe, expect } = options;
  const test = createTestRunner(factory, options);

  describe(`${name}: history store conformance`, () => {
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

    if (options.tearTail) {
      const tearTail = options.tearTail;
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

    if (options.concurrency ?? true) registerConcurrencyTests(test, expect);
  });
}

type TestContext = {
  conversation: string;
  /** Opens a store on the test's conversation (closed after the test). */
  open: () => Promise<HistoryStore>;
  /** Closes `store` and opens the conversation again. */
  reopen: (store: HistoryStore) => Promise<HistoryStore>;
  /** Closes `store`, once: the contract does not ask `close()` to be idempotent. */
  close: (store: HistoryStore) => Promise<void>;
};
type ConformanceTest = (name: string, body: (context: TestContext) => Promise<void>) => void;

function createTestRunner(
  factory: HistoryStoreFactory,
  options: HistoryStoreConformanceOptions,
): ConformanceTest {
  return (name, body) =>
    options.it(name, async () => {
      const conversation = `conformance-${randomUUID()}`;
      const opened: HistoryStore[] = [];
      const closed = new Set<HistoryStore>();
      const open = async () => {
        const store = await factory(conversation);
        opened.push(store);
        return store;
      };
      const close = async (store: HistoryStore) => {
        if (closed.has(store)) return;
        closed.add(store);
        await store.close?.();
      };
      const reopen = async (store: HistoryStore) => {
        await close(store);
        return open();
      };
      try {
        await body({ conversation, open, reopen, close });
      } finally {
        for (const store of opened) await close(store);
        await options.cleanup?.(conversation);
      }
    });
}

function registerConcurrencyTests(test: ConformanceTest, expect: ConformanceTestApi["expect"]): void {
  const expectConflict = (error: unknown) => {
    expect(error).toBeInstanceOf(ConcurrentQueryError);
    expect(typeof (error as { conversationId?: unknown }).conversationId).toBe("string");
  };

  test("a writer whose view is stale gets a conflict error and writes nothing", async ({ open }) => {
    const first = await open();
    const second = await open();
    await first.load();
    await second.load();
    await first.append(userMessage("first writer"));
    expectConflict(await rejectionOf(second.append(userMessage("second writer"))));
    expectConflict(await rejectionOf(second.replace([userMessage("second writer replaces")])));
    await first.append(assistantMessage("first writer continues"));
    expect(await (await open()).load()).toEqual([
      userMessage("first writer"),
      assistantMessage("first writer continues"),
    ]);
  });

  test("after a reload the stale writer may continue, and the other becomes stale", async ({ open }) => {
    const first = await open();
    const second = await open();
    await first.load();
    await second.load();
    await first.append(userMessage("one"));
    expectConflict(await rejectionOf(second.append(userMessage("lost"))));
    expect(await second.load()).toEqual([userMessage("one")]);
    await second.append(userMessage("two"));
    expectConflict(await rejectionOf(first.append(userMessage("lost too"))));
    expect(await (await open()).load()).toEqual([userMessage("one"), userMessage("two")]);
  });

  test("a replace by one writer makes the other writer stale", async ({ open }) => {
    const first = await open();
    await first.load();
    await first.append(userMessage("original"));
    const second = await open();
    await first.load();
    await second.load();
    await second.replace([userMessage("compacted")]);
    expectConflict(await rejectionOf(first.append(userMessage("stale"))));
    expect(await (await open()).load()).toEqual([userMessage("compacted")]);
  });

  test("two writers appending at the same moment: exactly one wins", async ({ open }) => {
    const first = await open();
    const second = await open();
    await first.load();
    await second.load();
    const outcomes = await Promise.allSettled([
      first.append(userMessage("first")),
      second.append(userMessage("second")),
    ]);
    const winners = outcomes.flatMap((outcome, index) => (outcome.status === "fulfilled" ? [index] : []));
    expect(winners.length).toBe(1);
    const loser = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
    expectConflict(loser.reason);
    expect(await (await open()).load()).toEqual([userMessage(winners[0] === 0 ? "first" : "second")]);
  });
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected the store call to fail, but it succeeded.");
}

function userMessage(text: string): ModelMessage {
  return { role: "user", content: text };
}

function assistantMessage(text: string): ModelMessage {
  return { role: "assistant", content: [{ type: "text", text }], stop_reason: "end_turn" };
}

/** A message JSON cannot hold: storing it must fail before anything is written. */
function unstorableMessage(): ModelMessage {
  return {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "x", content: "n" }],
    size: 1n,
  } as unknown as ModelMessage;
}

function sampleConversation(): ModelMessage[] {
  return [
    { role: "user", content: "What is in README.md?" },
    {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "I should read it.", signature: "sig-1" },
        { type: "text", text: "Let me read it." },
        {
          type: "tool_use",
          id: "toolu_01",
          name: "read_file",
          input: { path: "README.md", nested: { lines: [1, 2] } },
        },
      ],
      stop_reason: "tool_use",
      usage: { input_tokens: 120, output_tokens: 30, cache_read_input_tokens: 100 },
      providerResponseId: "msg_01",
      model: "claude-sonnet-4-6",
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "toolu_01",
          content: [{ type: "text", text: "# Title" }],
          is_error: false,
        },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "redacted_thinking", data: "opaque" },
        { type: "text", text: "It has a title." },
      ],
      stop_reason: "end_turn",
    },
  ];
}

function largeMessages(): ModelMessage[] {
  const bytes = new Uint8Array(1024 * 1024);
  for (let index = 0; index < bytes.length; index++) bytes[index] = (index * 7919 + 13) % 256;
  const unicode =
    "Grüße, 你好, こんにちは, مرحبا, שלום, 👩‍👩‍👧‍👦 🏳️‍🌈, e\u0301, \u2028\u2029, tab\there, NUL\u0000end, " +
    "quotes \" ' ` backslash \\ \\n literal, newline\nsecond line\r\n, lone surrogate \ud800 and \udfff";
  return [
    {
      role: "user",
      content: [
        { type: "text", text: "Describe this image." },
        {
          type: "image",
          source: { type: "base64", media_type: "image/png", data: Buffer.from(bytes).toString("base64") },
        },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: unicode.repeat(200) }] },
    { role: "user", content: unicode },
    {
      role: "assistant",
      content: [
        {
          type: "tool_use",
          id: "toolu_big",
          name: "write",
          input: { text: "x".repeat(300_000), [unicode]: unicode },
        },
      ],
    },
  ];
}
