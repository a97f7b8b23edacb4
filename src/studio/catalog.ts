/**
 * The conversation list over every source: listed most recent first, summarised on demand and
 * cached by version (a conversation is loaded again only when it was written since), paged, and
 * filtered — a filtered page loads summaries until the page is full, so a store of 10,000
 * conversations costs one listing per request plus the conversations the page needs.
 * @module
 */
import type { ConversationEntry, StudioSource } from "./source";
import { type ConversationSummary, matches, summarize } from "./summary";

/** A page of the list. */
export interface CatalogPage {
  /** Conversations in the sources (before filtering). */
  total: number;
  items: ConversationSummary[];
  /** Offset to ask for the next page with, or `null` at the end. */
  next: number | null;
}

/** The list's filters. */
export interface CatalogFilter {
  text?: string;
  model?: string;
  status?: string;
}

/** How many conversations are loaded at once while summarising. */
const LOAD_CONCURRENCY = 8;

/** Lists and summarises the conversations of `sources`. */
export class Catalog {
  private readonly cache = new Map<string, { key: string; summary: ConversationSummary }>();

  constructor(
    private readonly sources: readonly StudioSource[],
    private readonly now: () => number = Date.now,
  ) {}

  /** One page, from `offset` in the (unfiltered) listing, of at most `limit` matching conversations. */
  async page(offset: number, limit: number, filter: CatalogFilter): Promise<CatalogPage> {
    const entries = await this.entries();
    const items: ConversationSummary[] = [];
    let position = offset;
    while (items.length < limit && position < entries.length) {
      const batch = entries.slice(position, position + Math.max(LOAD_CONCURRENCY, limit - items.length));
      const summaries = await mapLimited(batch, LOAD_CONCURRENCY, (entry) => this.summary(entry));
      for (const summary of summaries) {
        position++;
        if (summary && matches(summary, filter)) items.push(summary);
        if (items.length === limit) break;
      }
    }
    return { total: entries.length, items, next: position < entries.length ? position : null };
  }

  /** A summary of one conversation, from the cache while its version is unchanged. */
  async summary(entry: ConversationEntry & { source: number }): Promise<ConversationSummary | undefined> {
    const id = `${entry.source}\u0000${entry.conversationId}`;
    const key = `${entry.updatedAt.getTime()}:${entry.messageCount ?? ""}`;
    const cached = this.cache.get(id);
    if (cached?.key === key && cached.summary.status !== "running") return cached.summary;
    try {
      const messages = await this.sources[entry.source]!.open(entry.conversationId).load();
      const summary = summarize(messages, entry, this.now());
      this.cache.set(id, { key, summary });
      return summary;
    } catch {
      return undefined; // unreadable now (deleted since the listing, a dropped connection): left out
    }
  }

  /** Every conversation of every source, most recent first. */
  async entries(): Promise<Array<ConversationEntry & { source: number }>> {
    const lists = await Promise.all(
      this.sources.map(async (source, index) =>
        (await source.list()).map((entry) => ({ ...entry, source: index })),
      ),
    );
    return lists.flat().sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  }
}

async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
