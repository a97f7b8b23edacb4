/**
 * The Redis store's key layout — two keys per conversation sharing a hash tag — and its reads: one
 * conversation (version and messages together), and every conversation under a key prefix.
 * @module
 */
import type { Redis } from "ioredis";
import type { ConversationInfo } from "../../history/store-kit/conversation-history-store";
import { LOAD_RANGE_SCRIPT, LOAD_SCRIPT, runScript } from "./redis-scripts";

/** The keys of one conversation. */
export interface ConversationKeys {
  meta: string;
  messages: string;
  replacing: string;
  /** The run claim (see redis-run-claims.ts). */
  run: string;
}

/** The keys of conversation `conversationId` under `keyPrefix`. */
export function keysOf(keyPrefix: string, conversationId: string): ConversationKeys {
  const base = `${keyPrefix}{${conversationId}}`;
  return {
    meta: `${base}:meta`,
    messages: `${base}:messages`,
    replacing: `${base}:replacing`,
    run: `${base}:run`,
  };
}

/** Reads the version and the messages in one script, so they belong together. */
export async function loadConversation(
  client: Redis,
  keys: ConversationKeys,
): Promise<{ version: number; rows: string[] }> {
  const [version, rows] = (await runScript(client, LOAD_SCRIPT, [keys.meta, keys.messages], [])) as [
    string | null,
    string[],
  ];
  return { version: Number(version ?? 0), rows };
}

/** A window of the messages and their count, in one script. */
export async function loadConversationRange(
  client: Redis,
  keys: ConversationKeys,
  range: { from?: number; limit: number },
): Promise<{ total: number; start: number; rows: string[] }> {
  const [total, start, rows] = (await runScript(
    client,
    LOAD_RANGE_SCRIPT,
    [keys.messages],
    [String(range.from ?? -1), String(range.limit)],
  )) as [number, number, string[]];
  return { total: Number(total), start: Number(start), rows };
}

/** Every conversation under `keyPrefix`, the most recently updated first. */
export async function listConversations(client: Redis, keyPrefix: string): Promise<ConversationInfo[]> {
  const pattern = `${escapeGlob(keyPrefix)}{*}:meta`;
  const metaKeys = new Set<string>();
  let cursor = "0";
  do {
    const [next, found] = await client.scan(cursor, "MATCH", pattern, "COUNT", 1000);
    for (const key of found) metaKeys.add(key);
    cursor = next;
  } while (cursor !== "0");

  const ids = [...metaKeys].map((key) => key.slice(keyPrefix.length + 1, -"}:meta".length));
  const pipeline = client.pipeline();
  for (const id of ids)
    pipeline.hget(keysOf(keyPrefix, id).meta, "updatedAt").llen(keysOf(keyPrefix, id).messages);
  const replies = (await pipeline.exec()) ?? [];
  const conversations = ids.map((conversationId, index) => ({
    conversationId,
    updatedAt: new Date(String(replies[index * 2]?.[1] ?? 0)),
    messageCount: Number(replies[index * 2 + 1]?.[1] ?? 0),
  }));
  return conversations.sort(
    (a, b) =>
      b.updatedAt.getTime() - a.updatedAt.getTime() || a.conversationId.localeCompare(b.conversationId),
  );
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (character) => `\\${character}`);
}
