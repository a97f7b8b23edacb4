/**
 * Reading the token buckets a Messages API usage object reports (in a response, or in the
 * `message_start` / `message_delta` events of a stream). Protocol-level: every client and the loop
 * read usage the same way.
 * @module
 */
import type { Usage } from "./types";

/** The four token buckets as far as a usage object reports them (numbers only; `null` is "not reported"). */
export type PartialUsage = Partial<Usage>;

const USAGE_BUCKETS = [
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
] as const;

/**
 * Reads the token buckets a usage object reports — token counts only (finite, not negative); any
 * other value is "not reported" — or `undefined` when it reports none.
 */
export function readUsage(raw: unknown): PartialUsage | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const usage: PartialUsage = {};
  for (const bucket of USAGE_BUCKETS) {
    const value = (raw as Record<string, unknown>)[bucket];
    if (typeof value === "number" && Number.isFinite(value) && value >= 0) usage[bucket] = value;
  }
  return Object.keys(usage).length > 0 ? usage : undefined;
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
  return usage;
}
