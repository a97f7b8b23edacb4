/**
 * The mock server's prompt cache: it remembers the prefix up to each `cache_control` marker of a
 * request, per API key and model, for the marker's TTL, and reports the usage the Messages API
 * would report for the next request — tokens read from the cache, written to it, and the rest.
 *
 * Modelled on the Claude docs, "Prompt caching":
 * - the prefix is rendered tools → system → messages; a marker caches everything up to and
 *   including its block; at most {@link MAX_CACHE_BREAKPOINTS} markers (the top-level
 *   `cache_control` of automatic caching marks the last cacheable block and counts as one);
 * - at each marker the cache is searched for an entry at that block or up to
 *   {@link CACHE_LOOKBACK_BLOCKS} blocks before it; the longest hit is read, the prefix from there
 *   to the last marker is written, what follows the last marker is plain input;
 * - a prefix shorter than the model's minimum cacheable length is not cached (no error);
 * - entries live 5 minutes (or 1 hour with `ttl: "1h"`), refreshed by every read;
 * - a change of `tool_choice` or `thinking` invalidates the cached messages (not tools or system);
 * - markers on thinking blocks or empty text blocks, a fifth marker, and a one-hour marker after a
 *   five-minute one are refused with a 400, as the API does.
 *
 * Token estimate: one token per four characters (rounded up) of the canonical JSON (keys sorted,
 * `cache_control` left out) of each tool, system block and message content block, in prefix order.
 * @module
 */

import { createHash } from "node:crypto";
import type { CacheCreationUsage, Usage } from "../messages/types";
import { CACHE_LOOKBACK_BLOCKS, MAX_CACHE_BREAKPOINTS } from "../model/cache-markers";
import { expandToolReferences, isDeferredTool } from "./mock-tool-search";

/** Options of the mock prompt cache (`startMockAnthropicServer({ promptCache })`). */
export interface MockPromptCacheOptions {
  /** The clock entries expire by, in milliseconds. @default Date.now */
  now?: () => number;
  /**
   * The shortest prefix, in estimated tokens, that is cached. @default {@link defaultMinCacheableTokens}
   * of the request's model
   */
  minCacheableTokens?: number | ((model: string) => number);
  /** How many blocks before a marker the cache is searched. @default CACHE_LOOKBACK_BLOCKS (20) */
  lookbackBlocks?: number;
}

/** What the cache says about one request: the usage to report, or why the API would refuse it. */
export type PromptCacheOutcome = { usage: Omit<Usage, "output_tokens"> } | { error: string };

const TTL_MS = { "5m": 5 * 60_000, "1h": 60 * 60_000 } as const;
type Ttl = keyof typeof TTL_MS;

/** One block of the prefix. */
interface PrefixBlock {
  /** Where it is, in the API's error-path style (`messages.2.content.0`). */
  path: string;
  type: unknown;
  /** Estimated tokens of the prefix through this block. */
  tokens: number;
  /** Identifies the prefix through this block. */
  hash: string;
  /** Whether a marker may sit here (not thinking, not empty text). */
  markable: boolean;
  marker?: { ttl: unknown };
}

interface Breakpoint {
  position: number;
  ttl: Ttl;
}

interface Entry {
  expiresAt: number;
  ttlMs: number;
}

/**
 * The minimum cacheable prompt length by model, per the Claude docs ("Prompt caching", cache
 * limitations): 4,096 tokens for Claude Haiku 4.5 and later Haiku models and for Claude Opus 4.5,
 * 4.6, 4.7 and Mythos Preview; 2,048 for Claude Haiku 3 and 3.5; 1,024 for the other (Sonnet- and
 * Opus-class) models, and for any other model id.
 */
export function defaultMinCacheableTokens(model: string): number {
  if (/haiku-3|3-haiku|3-5-haiku/.test(model)) return 2048;
  if (/haiku/.test(model)) return 4096;
  if (/opus-4-[567]|mythos-preview/.test(model)) return 4096;
  return 1024;
}

/** Estimated input tokens of a request body: the whole prefix, as {@link MockPromptCache} counts it. */
export function estimatePromptTokens(body: unknown): number {
  return prefixBlocks(body).at(-1)?.tokens ?? 0;
}

/** A prompt cache shared by every request of one mock server. */
export class MockPromptCache {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly lookback: number;

  constructor(private readonly options: MockPromptCacheOptions = {}) {
    this.now = options.now ?? Date.now;
    this.lookback = options.lookbackBlocks ?? CACHE_LOOKBACK_BLOCKS;
  }

  /** Live entries (expired ones are dropped as they are met). */
  get size(): number {
    return this.entries.size;
  }

  /** Forgets every entry. */
  clear(): void {
    this.entries.clear();
  }

  /**
   * Reads and writes the cache for one request and returns its usage: without markers only
   * `input_tokens` (the whole prompt), with markers also `cache_read_input_tokens`,
   * `cache_creation_input_tokens` and `cache_creation` by TTL. A malformed marker is an error instead.
   */
  account(body: any, apiKey: string): PromptCacheOutcome {
    const prepared = this.prepare(body, apiKey);
    return "error" in prepared ? prepared : { usage: prepared.commit() };
  }

  /**
   * Checks a request's markers without touching the cache: the API's error for a malformed one, or
   * `commit`, which reads and writes the cache for the request and returns its usage (call it only
   * for a request that is answered).
   */
  prepare(body: any, apiKey: string): { error: string } | { commit(): Omit<Usage, "output_tokens"> } {
    const blocks = prefixBlocks(body);
    const total = blocks.at(-1)?.tokens ?? 0;
    const found = breakpointsOf(body, blocks);
    if ("error" in found) return found;
    if (found.breakpoints.length === 0) return { commit: () => ({ input_tokens: Math.max(1, total) }) };
    const scope = `${apiKey}\u0000${typeof body.model === "string" ? body.model : ""}\u0000`;
    return { commit: () => this.commit(scope, blocks, found.breakpoints, this.minimumFor(body.model)) };
  }

  private commit(
    scope: string,
    blocks: PrefixBlock[],
    breakpoints: Breakpoint[],
    minimum: number,
  ): Omit<Usage, "output_tokens"> {
    const now = this.now();
    let read = 0;
    for (const breakpoint of breakpoints) {
      const hit = this.lookup(scope, blocks, breakpoint.position, now);
      if (hit !== undefined) read = Math.max(read, blocks[hit]!.tokens);
    }
    const creation: CacheCreationUsage = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
    let covered = read;
    for (const breakpoint of breakpoints) {
      const block = blocks[breakpoint.position]!;
      if (block.tokens < minimum) continue;
      this.store(scope + block.hash, TTL_MS[breakpoint.ttl], now);
      if (block.tokens <= covered) continue;
      const written = block.tokens - covered;
      if (breakpoint.ttl === "1h") creation.ephemeral_1h_input_tokens += written;
      else creation.ephemeral_5m_input_tokens += written;
      covered = block.tokens;
    }
    return {
      input_tokens: (blocks.at(-1)?.tokens ?? 0) - covered,
      cache_creation_input_tokens: creation.ephemeral_5m_input_tokens + creation.ephemeral_1h_input_tokens,
      cache_read_input_tokens: read,
      cache_creation: creation,
    };
  }

  /** Writes (or refreshes) an entry; an entry keeps the longer of its TTLs. */
  private store(key: string, ttlMs: number, now: number): void {
    const existing = this.entries.get(key);
    const longest = Math.max(ttlMs, existing && existing.expiresAt > now ? existing.ttlMs : 0);
    this.entries.set(key, { expiresAt: now + longest, ttlMs: longest });
  }

  /** The position of the longest live entry at `position` or within the lookback before it; refreshes it. */
  private lookup(scope: string, blocks: PrefixBlock[], position: number, now: number): number | undefined {
    for (let candidate = position; candidate >= 0 && candidate >= position - this.lookback; candidate--) {
      const key = scope + blocks[candidate]!.hash;
      const entry = this.entries.get(key);
      if (!entry) continue;
      if (entry.expiresAt <= now) {
        this.entries.delete(key);
        continue;
      }
      entry.expiresAt = now + entry.ttlMs;
      return candidate;
    }
    return undefined;
  }

  private minimumFor(model: unknown): number {
    const option = this.options.minCacheableTokens;
    const id = typeof model === "string" ? model : "";
    if (typeof option === "number") return option;
    return option ? option(id) : defaultMinCacheableTokens(id);
  }
}

/** The blocks of the prefix with their cumulative token estimate and prefix hash. */
function prefixBlocks(body: any): PrefixBlock[] {
  const blocks: PrefixBlock[] = [];
  let chars = 0;
  let hash = "";
  const add = (path: string, block: unknown, salt = "") => {
    const canonical = canonicalJson(block);
    chars += canonical.length;
    hash = createHash("sha256")
      .update(`${hash}\u0000${salt}${path.split(".")[0]}\u0000${canonical}`)
      .digest("base64");
    const record = (typeof block === "object" && block !== null ? block : {}) as Record<string, unknown>;
    const marker = record.cache_control ?? nestedMarker(record);
    blocks.push({
      path,
      type: record.type,
      tokens: Math.ceil(chars / 4),
      hash,
      markable: isMarkable(record),
      ...(typeof marker === "object" && marker !== null ? { marker: marker as { ttl: unknown } } : {}),
    });
  };
  const tools: unknown[] = Array.isArray(body?.tools) ? body.tools : [];
  // Deferred tools (tool search) are not in the prompt until a search result references them.
  for (const [index, tool] of tools.entries()) if (!isDeferredTool(tool)) add(`tools.${index}`, tool);
  if (typeof body?.system === "string" && body.system) add("system", { type: "text", text: body.system });
  else if (Array.isArray(body?.system)) {
    for (const [index, block] of (body.system as unknown[]).entries()) add(`system.${index}`, block);
  }
  // A change of tool_choice or thinking invalidates the cached messages, not tools or system.
  const messagesSalt = canonicalJson({ thinking: body?.thinking, tool_choice: body?.tool_choice });
  const messages: unknown[] = Array.isArray(body?.messages) ? body.messages : [];
  messages.forEach((message, messageIndex) => {
    const { role, content } = (message ?? {}) as { role?: unknown; content?: unknown };
    const parts = Array.isArray(content) ? content : [{ type: "text", text: content }];
    parts.forEach((part, index) => {
      const salt = `${messagesSalt}${index === 0 ? `\u0000${String(role)}:` : ""}`;
      add(`messages.${messageIndex}.content.${index}`, expandToolReferences(part, body), salt);
    });
  });
  return blocks;
}

/** The request's markers in prefix order, or the API's error for a malformed one. */
function breakpointsOf(body: any, blocks: PrefixBlock[]): { breakpoints: Breakpoint[] } | { error: string } {
  const breakpoints: Breakpoint[] = [];
  for (const [position, block] of blocks.entries()) {
    if (!block.marker) continue;
    const problem = markerProblem(block);
    if (problem) return { error: problem };
    breakpoints.push({ position, ttl: block.marker.ttl === "1h" ? "1h" : "5m" });
  }
  const automatic = body?.cache_control;
  if (typeof automatic === "object" && automatic !== null) {
    const last = blocks.findLastIndex((block) => block.markable);
    if (last >= 0)
      breakpoints.push({ position: last, ttl: (automatic as { ttl?: unknown }).ttl === "1h" ? "1h" : "5m" });
    breakpoints.sort((a, b) => a.position - b.position);
  }
  if (breakpoints.length > MAX_CACHE_BREAKPOINTS) {
    return {
      error: `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints.length}.`,
    };
  }
  const firstShort = breakpoints.findIndex((breakpoint) => breakpoint.ttl === "5m");
  if (firstShort >= 0 && breakpoints.slice(firstShort).some((breakpoint) => breakpoint.ttl === "1h")) {
    return {
      error:
        "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.",
    };
  }
  return { breakpoints };
}

function markerProblem(block: PrefixBlock): string | undefined {
  const ttl = block.marker?.ttl;
  if (ttl !== undefined && ttl !== "5m" && ttl !== "1h") {
    return `${block.path}.cache_control.ttl: Input should be '5m' or '1h'`;
  }
  if (block.type === "thinking" || block.type === "redacted_thinking") {
    return `${block.path}.${String(block.type)}.cache_control: Extra inputs are not permitted`;
  }
  if (!block.markable) return `${block.path}.text: cache_control cannot be set for empty text blocks`;
  return undefined;
}

/** A marker inside a tool result's content: it caches the prefix through that tool result. */
function nestedMarker(block: Record<string, unknown>): unknown {
  if (block.type !== "tool_result" || !Array.isArray(block.content)) return undefined;
  return block.content.find((part) => typeof part === "object" && part !== null && "cache_control" in part)
    ?.cache_control;
}

function isMarkable(block: Record<string, unknown>): boolean {
  if (block.type === "thinking" || block.type === "redacted_thinking") return false;
  if (block.type === "text") return typeof block.text === "string" && block.text.length > 0;
  return true;
}

/** JSON with object keys sorted and `cache_control` left out, at any depth: what the cache compares. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => key !== "cache_control" && record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
