/**
 * The conformance suite asks of a store only what the HistoryStore contract does. A store whose
 * `close()` may be called once (it ends its pool, say — `pg` throws on a second `end()`) passes.
 */
import { describe, expect, it } from "vitest";
import { defineHistoryStore, type HistoryStore, type ModelMessage } from "../../src/index";
import { runHistoryStoreConformance } from "../../src/testing/index";

const conversations = new Map<string, string[]>();

/** Keeps each conversation as JSON lines in memory; its `close()` refuses a second call. */
function closeOnceStore(conversation: string): HistoryStore {
  let closed = false;
  const rows = () => conversations.get(conversation) ?? [];
  const assertOpen = () => {
    if (closed) throw new Error("the store is closed");
  };
  return {
    async load() {
      assertOpen();
      return rows().map((row) => JSON.parse(row) as ModelMessage);
    },
    async append(message) {
      assertOpen();
      const row = JSON.stringify(message);
      conversations.set(conversation, [...rows(), row]);
    },
    async replace(messages) {
      assertOpen();
      const replacement = messages.map((message) => JSON.stringify(message));
      conversations.set(conversation, replacement);
    },
    async close() {
      if (closed) throw new Error("Called end on pool more than once");
      closed = true;
    },
  };
}

runHistoryStoreConformance("a store closed at most once", closeOnceStore, {
  describe,
  it,
  expect,
  concurrency: false,
  cleanup: async (conversation) => {
    conversations.delete(conversation);
  },
});

// A custom store through defineHistoryStore passes too (checkpoints included: meta kept, derived ids stable).
runHistoryStoreConformance(
  "defineHistoryStore",
  (conversation) => defineHistoryStore(closeOnceStore(conversation)),
  {
    describe,
    it,
    expect,
    concurrency: false,
    cleanup: async (conversation) => {
      conversations.delete(conversation);
    },
  },
);
