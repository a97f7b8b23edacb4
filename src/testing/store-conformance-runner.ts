/**
 * How each conformance test runs: on a conversation of its own, with helpers that open, reopen and
 * close stores on it, every store closed and the conversation cleaned up afterwards.
 * @module
 */
import { randomUUID } from "node:crypto";
import type { HistoryStore } from "../history/store";
import type { HistoryStoreConformanceOptions, HistoryStoreFactory } from "./store-conformance-api";

/** What a test body gets. */
export type TestContext = {
  conversation: string;
  /** Opens a store on the test's conversation (closed after the test). */
  open: () => Promise<HistoryStore>;
  /** Closes `store` and opens the conversation again. */
  reopen: (store: HistoryStore) => Promise<HistoryStore>;
  /** Closes `store`, once: the contract does not ask `close()` to be idempotent. */
  close: (store: HistoryStore) => Promise<void>;
};
/** Registers one test of the suite. */
export type ConformanceTest = (name: string, body: (context: TestContext) => Promise<void>) => void;

/** The `test` function of the suite: `options.it` around a fresh conversation and its cleanup. */
export function createTestRunner(
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

/** The error `promise` rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("Expected the store call to fail, but it succeeded.");
}
