/**
 * A memory tree in a history store (`createMemoryTool({ store })`): the whole tree kept as the
 * store's one message, so agents of a fleet share memory through the store's database (PostgreSQL,
 * Redis, SQLite …). A change loads the tree, changes it and replaces the message; the durable
 * stores refuse a replace when another writer changed the tree since the load
 * (`ConversationConflictError`), and the change is then made again on the new tree — no update
 * is lost. A store without that check (a custom one) only orders the writers of one process.
 * @module
 */
import type { ModelMessage } from "../../messages/types";
import { SerialQueue } from "../../shared/serial-queue";
import type { MemoryBackend, MemoryTree } from "./memory-files";

/** What the memory needs of a store: a `HistoryStore` fits. */
export interface MemoryStore {
  load(): Promise<ModelMessage[]>;
  replace(messages: ModelMessage[]): Promise<void>;
}

/** How many times a change is made again after losing a race, before it fails. */
const MAX_CONFLICT_RETRIES = 50;
/** The marker of a message that holds a memory tree. */
const TREE_MARKER = "agent-lattice memory tree v1";

/** The memory backend over `store`. */
export function createStoreMemoryBackend(store: MemoryStore): MemoryBackend {
  const queue = new SerialQueue();
  const read = async () => treeOf(await store.load());
  return {
    read,
    update(change) {
      return queue.run(async () => {
        for (let attempt = 0; ; attempt++) {
          const tree = await read();
          const result = await change(tree);
          try {
            await store.replace([messageOf(tree)]);
            return result;
          } catch (error) {
            if ((error as Error)?.name !== "ConversationConflictError" || attempt >= MAX_CONFLICT_RETRIES)
              throw error;
          }
        }
      });
    },
  };
}

function treeOf(messages: ModelMessage[]): MemoryTree {
  const last = messages.at(-1);
  const block = Array.isArray(last?.content) ? last.content[0] : undefined;
  if (block?.type !== "text" || !block.text.startsWith(TREE_MARKER)) return new Map();
  const files = JSON.parse(block.text.slice(TREE_MARKER.length + 1)) as Record<string, string>;
  return new Map(Object.entries(files));
}

function messageOf(tree: MemoryTree): ModelMessage {
  const files = Object.fromEntries([...tree.entries()].sort(([a], [b]) => a.localeCompare(b)));
  return { role: "user", content: [{ type: "text", text: `${TREE_MARKER}\n${JSON.stringify(files)}` }] };
}
