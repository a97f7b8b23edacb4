/**
 * How much of a rewritten history is the history it replaces: the leading entries that are the very
 * same objects. A rewrite of the tail only (an approval record taken back, a pause recorded over it)
 * keeps them, so a store need write only what follows (`HistoryStore.replaceTail`).
 * @module
 */
import type { ModelMessage } from "../messages/types";

/** The number of leading entries of `next` that are the entries of `held` at the same index. */
export function sharedPrefixLength(held: readonly ModelMessage[], next: readonly ModelMessage[]): number {
  const limit = Math.min(held.length, next.length);
  let index = 0;
  while (index < limit && held[index] === next[index]) index++;
  return index;
}
