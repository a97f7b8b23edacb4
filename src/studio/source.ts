/**
 * What the studio reads conversations from: a {@link StudioSource} lists a place's conversations
 * (most recent first), opens one as a {@link HistoryStore}, and tells cheaply whether one changed.
 * Built from a location (`./sessions`, `sqlite:agents.db`, `postgres://…`, `redis://…`) by
 * `location-source.ts`, or from a store object.
 * @module
 */

import { type HistoryStore, readHistoryWindow } from "../index";
import { fnv1a32, hex32 } from "../shared/fnv-hash";
import type { EvalRunsReader } from "./eval-runs";

/** One conversation of a source, as listed. */
export interface ConversationEntry {
  /** The id the studio names it by in its own source. */
  conversationId: string;
  /** When it was last written. */
  updatedAt: Date;
  /** How many messages it holds, when the source knows without loading it. */
  messageCount?: number;
  /** What `version()` would say, when the listing knows it (a store object's). */
  version?: string;
}

/** A place holding conversations. */
export interface StudioSource {
  /** How the page names it: the location with any credential removed. */
  readonly label: string;
  /** Every conversation, most recently written first. */
  list(): Promise<ConversationEntry[]>;
  /** A store for one conversation (a new id gives an empty store: forks are written this way). */
  open(conversationId: string): HistoryStore;
  /**
   * A string that changes when the conversation is written (what the page polls for live updates);
   * `undefined` when it does not exist.
   */
  version(conversationId: string): Promise<string | undefined>;
  /** Releases connections the studio opened. */
  close(): Promise<void>;
  /** The eval runs the source holds (a SQLite results database of `agent-lattice eval`). */
  readonly evals?: EvalRunsReader;
}

/** The store object a library user handed over, with what the database stores add when present. */
type GivenStore = HistoryStore & {
  conversationId?: unknown;
  path?: unknown;
  listConversations?: () => Promise<Array<{ conversationId: string; updatedAt: Date; messageCount: number }>>;
};

/**
 * A source of one store object. A database store (SQLite, PostgreSQL, Redis) lists every
 * conversation of its tables but opens only its own (a location opens them all); any other store
 * is one conversation, named after its `conversationId` or file when it has one.
 */
export function storeSource(store: HistoryStore, index: number): StudioSource {
  const given = store as GivenStore;
  const ownId =
    typeof given.conversationId === "string"
      ? given.conversationId
      : typeof given.path === "string"
        ? (given.path.split("/").pop() ?? "conversation").replace(/\.jsonl$/, "")
        : "conversation";
  const startedAt = new Date();
  return {
    label: `store ${index + 1}`,
    async list() {
      if (typeof given.listConversations !== "function") {
        const version = await windowVersion(store);
        return [
          {
            conversationId: ownId,
            updatedAt: startedAt,
            messageCount: Number(version.split(":")[0]),
            version,
          },
        ];
      }
      const listed = await given.listConversations();
      return listed.filter((entry) => entry.conversationId === ownId);
    },
    open(conversationId) {
      if (conversationId !== ownId) throw new UnknownConversationError(conversationId);
      return store;
    },
    async version(conversationId) {
      if (conversationId !== ownId) return undefined;
      return windowVersion(store);
    },
    close: async () => {},
  };
}

/**
 * A store object's version: its message count and a hash of its newest message, from a window of
 * one (a whole `load()` per poll for a store without `loadRange`).
 */
export async function windowVersion(store: HistoryStore): Promise<string> {
  const { messages, total } = await readHistoryWindow(store, { limit: 1 });
  return `${total}:${hex32(fnv1a32(JSON.stringify(messages[0] ?? null)))}`;
}

/** A conversation id this source does not hold (or may not open). */
export class UnknownConversationError extends Error {
  constructor(conversationId: string) {
    super(`No conversation ${JSON.stringify(conversationId)} here.`);
    this.name = "UnknownConversationError";
  }
}
