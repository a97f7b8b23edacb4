/**
 * The conversation list over every source: listed most recent first, summarised on demand from
 * windows (a long conversation's first and newest messages; its totals counted whole in the
 * background, once per version), paged, and filtered — a filtered page summarises until the page
 * is full, so a store of 10,000 conversations costs one listing per request plus the windows the
 * page needs.
 * @module
 */
import { readHistoryWindow } from "../index";
import type { ConversationEntry, StudioSource } from "./source";
import {
  type ConversationSummary,
  matches,
  type SummaryEntry,
  summarize,
  summarizeWindows,
  withRunning,
} from "./summary";

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

/** How many conversations are read at once while summarising. */
const LOAD_CONCURRENCY = 8;
/** A conversation up to this many messages is summarised whole from one window. */
export const WHOLE_SUMMARY_LIMIT = 400;
/** How many of a long conversation's first messages are read for its title. */
const HEAD_LIMIT = 20;

/** Tells whether a run holds a conversation now (see `SummaryEntry.running`). */
export type RunningCheck = (source: number, conversationId: string) => Promise<SummaryEntry["running"]>;

/** A listed conversation, with the index of its source. */
export type CatalogEntry = ConversationEntry & { source: number };

/** Lists and summarises the conversations of `sources`. */
export class Catalog {
  /**
   * The last whole count of each conversation, under the listing's key it was counted for and,
   * when known, the store's version read before its messages (see {@link Catalog.cached}).
   */
  private readonly cache = new Map<string, { key: string; version?: string; summary: ConversationSummary }>();
  private readonly counting = new Map<string, Promise<ConversationSummary | undefined>>();

  constructor(
    private readonly sources: readonly StudioSource[],
    private readonly running: RunningCheck = async () => undefined,
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

  /**
   * A summary of one conversation without reading all of a long one: its newest
   * {@link WHOLE_SUMMARY_LIMIT} messages (all of a short one), plus its first few for the title; the
   * whole count comes from the cache while the conversation is unchanged, and is started in the
   * background otherwise. `undefined` when it cannot be read now (deleted since the listing, a
   * dropped connection): left out of the list.
   */
  async summary(entry: CatalogEntry): Promise<ConversationSummary | undefined> {
    try {
      const running = await this.running(entry.source, entry.conversationId);
      const cached = this.cached(entry);
      if (cached && !running && cached.status !== "running") return cached;
      const store = this.sources[entry.source]!.open(entry.conversationId);
      const tail = await readHistoryWindow(store, { limit: WHOLE_SUMMARY_LIMIT });
      const head =
        tail.from === 0 ? [] : (await readHistoryWindow(store, { from: 0, limit: HEAD_LIMIT })).messages;
      const summary = summarizeWindows(head, tail, { ...entry, running }, this.now());
      if (!summary.partial) this.remember(entry, summary);
      else if (cached) return { ...cached, status: summary.status, statusBasis: summary.statusBasis };
      else void this.wholeSummary(entry).catch(() => undefined);
      return summary;
    } catch {
      return undefined;
    }
  }

  /** The summary of all of a conversation's messages (read whole once per version). */
  wholeSummary(entry: CatalogEntry): Promise<ConversationSummary | undefined> {
    const cached = this.cached(entry);
    if (cached && cached.status !== "running")
      return this.running(entry.source, entry.conversationId).then((running) => withRunning(cached, running));
    const countKey = `${idOf(entry)}\u0000${keyOf(entry)}\u0000${entry.version ?? ""}`;
    const inFlight = this.counting.get(countKey);
    if (inFlight) return inFlight;
    const counted = (async () => {
      const running = await this.running(entry.source, entry.conversationId);
      const messages = await this.sources[entry.source]!.open(entry.conversationId).load();
      const summary = summarize(messages, { ...entry, running }, this.now());
      this.remember(entry, summary);
      return summary;
    })();
    this.counting.set(countKey, counted);
    void counted.finally(() => this.counting.delete(countKey)).catch(() => undefined);
    return counted;
  }

  /**
   * The whole summary of `entry`'s version, when counted already. An entry that names its version
   * (the store's, read before the messages were) matches only a count made at that version; one
   * from a listing alone matches the listing's key (write time, count), which the list re-reads
   * within a second — a count it finds is at least as new as that listing.
   */
  cached(entry: CatalogEntry): ConversationSummary | undefined {
    const cached = this.cache.get(idOf(entry));
    if (cached === undefined) return undefined;
    const hit = entry.version === undefined ? cached.key === keyOf(entry) : cached.version === entry.version;
    return hit ? cached.summary : undefined;
  }

  private remember(entry: CatalogEntry, summary: ConversationSummary): void {
    this.cache.set(idOf(entry), { key: keyOf(entry), version: entry.version, summary });
  }

  /** Every conversation of every source, most recent first. */
  async entries(): Promise<CatalogEntry[]> {
    const lists = await Promise.all(
      this.sources.map(async (source, index) =>
        (await source.list()).map((entry) => ({ ...entry, source: index })),
      ),
    );
    return lists.flat().sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  }
}

function idOf(entry: CatalogEntry): string {
  return `${entry.source}\u0000${entry.conversationId}`;
}

/** What a listing shows changing when the conversation is written: its write time and (where listed) its count. */
function keyOf(entry: CatalogEntry): string {
  return `${entry.updatedAt.getTime()}:${entry.messageCount ?? ""}`;
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
