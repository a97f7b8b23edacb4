/**
 * The provider's server compaction (`compact_20260112`) as a response reports it: the usage of the
 * compaction itself — the `compaction` entries of `usage.iterations`, which the response's
 * top-level usage leaves out — and whether the response opens with a `compaction` block.
 * @module
 */
import { readUsage, toUsage } from "../messages/reported-usage";
import type { AssistantModelMessage, Usage } from "../messages/types";

/**
 * The summed usage of the `compaction` entries of a usage object's `iterations`, or `undefined`
 * when it has none (no compaction ran, or the provider does not report iterations).
 */
export function readCompactionUsage(rawUsage: unknown): Usage | undefined {
  const iterations = (rawUsage as { iterations?: unknown } | null | undefined)?.iterations;
  if (!Array.isArray(iterations)) return undefined;
  let total: Usage | undefined;
  for (const entry of iterations) {
    if ((entry as { type?: unknown } | null)?.type !== "compaction") continue;
    const reported = readUsage(entry);
    if (!reported) continue;
    const usage = toUsage(reported);
    total = total ? addUsage(total, usage) : usage;
  }
  return total;
}

/** Whether the response opens a compacted context: it holds a `compaction` block. */
export function hasCompactionBlock(message: AssistantModelMessage): boolean {
  return message.content.some((block) => block.type === "compaction");
}

function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
  };
  const created = (a.cache_creation_input_tokens ?? 0) + (b.cache_creation_input_tokens ?? 0);
  const read = (a.cache_read_input_tokens ?? 0) + (b.cache_read_input_tokens ?? 0);
  if (a.cache_creation_input_tokens !== undefined || b.cache_creation_input_tokens !== undefined)
    sum.cache_creation_input_tokens = created;
  if (a.cache_read_input_tokens !== undefined || b.cache_read_input_tokens !== undefined)
    sum.cache_read_input_tokens = read;
  return sum;
}
