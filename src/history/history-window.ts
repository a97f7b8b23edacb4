/**
 * A window of a stored conversation: `loadRange({ from, limit })` reads some of its messages and
 * how many there are, without reading (or parsing) the rest — what a viewer of a long conversation
 * needs (the studio opens a 10,000-turn conversation at its newest 200 messages).
 * @module
 */
import type { ModelMessage } from "../messages/types";

/** Which messages a window holds. */
export interface HistoryRange {
  /**
   * Index of the first message (0 = the conversation's first). Omitted: the newest `limit`
   * messages. Past the end: an empty window at the end.
   */
  from?: number;
  /** At most this many messages (a positive integer). */
  limit: number;
}

/** Some consecutive messages of a stored conversation. */
export interface HistoryWindow {
  /** The messages, in history order. */
  messages: ModelMessage[];
  /** Index of `messages[0]` in the whole conversation (where an empty window sits). */
  from: number;
  /** How many messages the conversation holds, read together with `messages`. */
  total: number;
}

/** Throws a `TypeError` for a range that is not `{ from?: integer ≥ 0, limit: integer ≥ 1 }`. */
export function assertHistoryRange(range: HistoryRange): void {
  const { from, limit } = (range ?? {}) as Partial<HistoryRange>;
  if (!Number.isSafeInteger(limit) || (limit as number) < 1)
    throw new TypeError(`loadRange needs \`limit\`, a whole number ≥ 1 (got ${String(limit)}).`);
  if (from !== undefined && (!Number.isSafeInteger(from) || from < 0))
    throw new TypeError(`loadRange's \`from\` must be a whole number ≥ 0 (got ${String(from)}).`);
}

/** The first index and the end (exclusive) of `range` in a conversation of `total` messages. */
export function windowBounds(total: number, range: HistoryRange): { start: number; end: number } {
  const start = range.from === undefined ? Math.max(0, total - range.limit) : Math.min(range.from, total);
  return { start, end: Math.min(total, start + range.limit) };
}

/** The window `range` of messages already loaded whole. */
export function sliceWindow(messages: readonly ModelMessage[], range: HistoryRange): HistoryWindow {
  const { start, end } = windowBounds(messages.length, range);
  return { messages: messages.slice(start, end), from: start, total: messages.length };
}

/**
 * A window of `store`: through its `loadRange` when it has one, otherwise one `load()` cut to the
 * range (what a store made with `defineHistoryStore` and no `loadRange` costs).
 */
export async function readHistoryWindow(
  store: {
    load(): Promise<ModelMessage[]>;
    loadRange?: (range: HistoryRange) => Promise<HistoryWindow>;
  },
  range: HistoryRange,
): Promise<HistoryWindow> {
  assertHistoryRange(range);
  if (typeof store.loadRange === "function") return store.loadRange(range);
  return sliceWindow(await store.load(), range);
}
