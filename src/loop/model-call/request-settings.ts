/**
 * The model settings as requests carry them: the set ones a main request carries, and the subset a
 * summary request (compaction of history or of a tool result) keeps — each an object holding only
 * the keys that are set, which every attempt copies onto its request.
 * @module
 */

import { MODEL_SETTING_KEYS, SUMMARY_SETTING_KEYS } from "../../model/model-setting-keys";
import type { RequestSettings } from "../state/loop-config";

/**
 * The settings a main request carries: every set field of `settings`, in {@link MODEL_SETTING_KEYS}'
 * order, and no other key (absent fields stay absent, so the provider's defaults apply) — built
 * once per query, so each attempt copies only the keys that are set.
 */
export function setRequestSettings(settings: RequestSettings): RequestSettings {
  const set: Record<string, unknown> = {};
  for (const key of MODEL_SETTING_KEYS) {
    const value = settings[key];
    if (value !== undefined) set[key] = value;
  }
  return set as RequestSettings;
}

/**
 * The settings a summary request keeps, for a response of `maxTokens` (the `summary` rule of each
 * in `MODEL_SETTINGS`): sampling (`temperature`,
 * `topP`, `topK`), `effort`, `metadata`, `serviceTier` and `extraBody` as set; thinking only when
 * it fits — adaptive, or a budget below `maxTokens` (a disabled one is kept: it asks for nothing).
 * Never a tool choice or `parallelToolCalls` (a summary offers no tools), never stop sequences
 * (they would cut the summary short), and no prompt-caching markers: a summary request is one
 * transcript sent once, so a marker would only bill it as a cache write (1.25× the input price,
 * 2× with the one-hour TTL) that no later request reads.
 */
export function summaryRequestSettings(settings: RequestSettings, maxTokens: number): RequestSettings {
  const summary: Record<string, unknown> = {};
  for (const key of SUMMARY_SETTING_KEYS) {
    const value = settings[key];
    if (value !== undefined) summary[key] = value;
  }
  const { thinking } = settings;
  if (thinking && (thinking.type !== "enabled" || thinking.budgetTokens < maxTokens))
    summary.thinking = thinking;
  return summary as RequestSettings;
}
