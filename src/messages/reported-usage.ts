/**
 * Reading the token buckets a Messages API usage object reports (in a response, or in the
 * `message_start` / `message_delta` events of a stream). Protocol-level: every client and the loop
 * read usage the same way.
 * @module
 */
import type { CacheCreationUsage, Usage } from "./types";

/** The token buckets as far as a usage object reports them (numbers only; `null` is "not reported"). */
export type PartialUsage = Partial<Usage>;

const USAGE_BUCKETS = [
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
] as const;

/**
 * Reads the token buckets a usage object reports — token counts only (finite, not negative); any
 * other value is "not reported" — or `undefined` when it reports none. The cache writes by TTL
 * (`cache_creation.ephemeral_5m_input_tokens` / `ephemeral_1h_input_tokens`) are read too; when
 * only they are reported, `cache_creation_input_tokens` is their sum.
 */
export function readUsage(raw: unknown): PartialUsage | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const usage: PartialUsage = {};
  for (const bucket of USAGE_BUCKETS) {
    const value = (raw as Record<string, unknown>)[bucket];
    if (isTokenCount(value)) usage[bucket] = value;
  }
  const split = readCacheCreation((raw as Record<string, unknown>).cache_creation);
  if (split) {
    usage.cache_creation = split;
    usage.cache_creation_input_tokens ??= split.ephemeral_5m_input_tokens + split.ephemeral_1h_input_tokens;
  }
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** The cache writes by TTL, when at least one of the two is a token count (the other then counts 0). */
function readCacheCreation(raw: unknown): CacheCreationUsage | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const { ephemeral_5m_input_tokens: fiveMinutes, ephemeral_1h_input_tokens: oneHour } = raw as Record<
    string,
    unknown
  >;
  if (!isTokenCount(fiveMinutes) && !isTokenCount(oneHour)) return undefined;
  return {
    ephemeral_5m_input_tokens: isTokenCount(fiveMinutes) ? fiveMinutes : 0,
    ephemeral_1h_input_tokens: isTokenCount(oneHour) ? oneHour : 0,
  };
}

function isTokenCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0;
}

/** Completes reported buckets into a {@link Usage}: input and output default to 0, cache buckets only when reported. */
export function toUsage(reported: PartialUsage): Usage {
  const usage: Usage = {
    input_tokens: reported.input_tokens ?? 0,
    output_tokens: reported.output_tokens ?? 0,
  };
  if (reported.cache_creation_input_tokens !== undefined) {
    usage.cache_creation_input_tokens = reported.cache_creation_input_tokens;
  }
  if (reported.cache_read_input_tokens !== undefined)
    usage.cache_read_input_tokens = reported.cache_read_input_tokens;
  if (reported.cache_creation !== undefined) usage.cache_creation = { ...reported.cache_creation };
  return usage;
}
