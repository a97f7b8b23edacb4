/**
 * The storage of one Redis conversation behind the versioned store core: load, then append and
 * replace through the version-checked scripts.
 * @module
 */
import type { Redis } from "ioredis";
import { ConversationConflictError } from "../../errors";
import { describeVersionConflict } from "../../history/store-kit/conversation-history-store";
import { parseStoredMessage } from "../../history/store-kit/message-codec";
import type { SharedResource } from "../../history/store-kit/shared-resource";
import { type DeletableVersionedBackend, tailPastTheEnd } from "../../history/store-kit/versioned-store";
import type { ModelMessage } from "../../messages/types";
import { type ConversationKeys, loadConversation, loadConversationRange } from "./redis-conversations";
import { APPEND_SCRIPT, REPLACE_SCRIPT, REPLACE_TAIL_SCRIPT, runScript } from "./redis-scripts";

/** The backend of conversation `conversationId` at `keys`, on the client of `resource` (released by `close()`). */
export function createRedisBackend(
  resource: SharedResource<Redis>,
  keys: ConversationKeys,
  conversationId: string,
  ttlSeconds: number,
): DeletableVersionedBackend {
  const client = resource.value;
  let expectedVersion: number | undefined;

  async function readVersion(): Promise<number> {
    return Number((await client.hget(keys.meta, "version")) ?? 0);
  }

  /** Runs a write script; `before` are its arguments between the common three and the messages. */
  async function write(
    script: string,
    scriptKeys: string[],
    serializedMessages: readonly string[],
    before: readonly string[] = [],
  ): Promise<void> {
    const from = expectedVersion ?? (await readVersion());
    const now = new Date().toISOString();
    const argumentsList = [String(from), String(ttlSeconds), now, ...before, ...serializedMessages];
    const [written, version] = (await runScript(client, script, scriptKeys, argumentsList)) as [
      number,
      number,
    ];
    if (written === -1) throw tailPastTheEnd(Number(before[0]), version);
    if (written !== 1)
      throw new ConversationConflictError(conversationId, describeVersionConflict(from, version));
    expectedVersion = version;
  }

  return {
    async load(): Promise<ModelMessage[]> {
      const { version, rows } = await loadConversation(client, keys);
      expectedVersion = version;
      return rows.flatMap((text) => parseStoredMessage(text) ?? []);
    },
    async loadRange(range) {
      const { total, start, rows } = await loadConversationRange(client, keys, range);
      return { messages: rows.flatMap((text) => parseStoredMessage(text) ?? []), from: start, total };
    },
    append: (serializedMessages) => write(APPEND_SCRIPT, [keys.meta, keys.messages], serializedMessages),
    replace: (serializedMessages) =>
      write(REPLACE_SCRIPT, [keys.meta, keys.messages, keys.replacing], serializedMessages),
    replaceTail: (keep, serializedMessages) =>
      write(REPLACE_TAIL_SCRIPT, [keys.meta, keys.messages], serializedMessages, [String(keep)]),
    close: () => resource.release(),
    forgetConversation() {
      expectedVersion = 0;
    },
  };
}
