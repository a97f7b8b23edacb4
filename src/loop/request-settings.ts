/**
 * The model settings as requests carry them: copied onto a main request's fields, and the subset a
 * summary request (compaction of history or of a tool result) keeps.
 * @module
 */
import type { RequestSettings } from "./state/loop-config";

/** The request fields the settings go onto (a main or a summary request's base). */
type SettingsTarget = RequestSettings & { maxTokens: number };

/**
 * `target` with every set field of `settings` copied onto it, field by field (absent fields stay
 * absent, so the provider's defaults apply). Returns `target`.
 */
export function withRequestSettings<R extends SettingsTarget>(target: R, settings: RequestSettings): R {
  if (settings.temperature !== undefined) target.temperature = settings.temperature;
  if (settings.topP !== undefined) target.topP = settings.topP;
  if (settings.topK !== undefined) target.topK = settings.topK;
  if (settings.stopSequences !== undefined) target.stopSequences = settings.stopSequences;
  if (settings.toolChoice !== undefined) target.toolChoice = settings.toolChoice;
  if (settings.parallelToolCalls !== undefined) target.parallelToolCalls = settings.parallelToolCalls;
  if (settings.thinking !== undefined) target.thinking = settings.thinking;
  if (settings.effort !== undefined) target.effort = settings.effort;
  if (settings.metadata !== undefined) target.metadata = settings.metadata;
  if (settings.serviceTier !== undefined) target.serviceTier = settings.serviceTier;
  if (settings.extraBody !== undefined) target.extraBody = settings.extraBody;
  if (settings.promptCaching !== undefined) target.promptCaching = settings.promptCaching;
  return target;
}

/**
 * The settings a summary request keeps, for a response of `maxTokens`: sampling (`temperature`,
 * `topP`, `topK`), `effort`, `metadata`, `serviceTier` and `extraBody` as set; thinking only when
 * it fits — adaptive, or a budget below `maxTokens` (a disabled one is kept: it asks for nothing).
 * Never a tool choice or `parallelToolCalls` (a summary offers no tools), never stop sequences
 * (they would cut the summary short), and no prompt-caching markers: a summary request is one
 * transcript sent once, so a marker would only bill it as a cache write (1.25× the input price,
 * 2× with the one-hour TTL) that no later request reads.
 */
export function summaryRequestSettings(settings: RequestSettings, maxTokens: number): RequestSettings {
  const {
    toolChoice,
    parallelToolCalls,
    stopSequences,
    thinking,
    promptCaching: _caching,
    ...kept
  } = settings;
  const summary: RequestSettings = kept;
  if (thinking && (thinking.type !== "enabled" || thinking.budgetTokens < maxTokens))
    summary.thinking = thinking;
  return summary;
}
