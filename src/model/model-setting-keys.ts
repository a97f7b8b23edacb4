/**
 * The one list of model settings: every key a request's model settings may hold, with its
 * Messages API name, whether a query may override it, whether a summary request keeps it, and its
 * command-line flag. The agent's option names and checks, the query overrides, the settings a
 * request carries, the wire mapping and the CLI's model flags all derive from it.
 *
 * Adding a setting touches four places, and the compiler points at each: its type
 * ({@link ModelSettings} in `model-settings.ts`, with its check in `validateModelSettings`), its
 * entry here (with its wire name), its writer in `anthropic-request.ts`, and the sample the wire
 * test (`test/model/model-setting-keys.test.ts`) sends for every key.
 * @module
 */
import type { ModelRequest, ModelSettingsField } from "./client";

/** The model settings as a request carries them: {@link ModelSettingsField}'s fields of a {@link ModelRequest}. */
export type RequestModelSettings = Pick<ModelRequest, ModelSettingsField>;

/** What a summary request (compaction of history or of a tool result) does with a setting. */
export type SummaryRule =
  /** Carried as set. */
  | "keep"
  /** Never carried (a tool choice with no tools, stop sequences that would cut the summary short …). */
  | "drop"
  /** Carried when it fits the summary's output budget (thinking). */
  | "when-it-fits";

/** One entry of {@link MODEL_SETTINGS}. */
export interface ModelSettingSpec {
  /** Where the built-in client writes it in the Messages API body (a dotted path). */
  readonly wire: string;
  /** Whether a query may override it (`QueryOptions`). */
  readonly perQuery: boolean;
  /** What a summary request does with it. */
  readonly summary: SummaryRule;
  /** The `agent-lattice` command's flag that sets it, when there is one. */
  readonly flag?: string;
}

/**
 * Every model setting, in the order the docs list them. The
 * `satisfies` clause fails to compile when a field of {@link ModelSettingsField} has no entry, or an
 * entry names no such field.
 */
export const MODEL_SETTINGS = {
  temperature: { wire: "temperature", perQuery: true, summary: "keep", flag: "--temperature" },
  topP: { wire: "top_p", perQuery: true, summary: "keep" },
  topK: { wire: "top_k", perQuery: true, summary: "keep" },
  stopSequences: { wire: "stop_sequences", perQuery: true, summary: "drop" },
  toolChoice: { wire: "tool_choice", perQuery: true, summary: "drop" },
  parallelToolCalls: { wire: "tool_choice.disable_parallel_tool_use", perQuery: false, summary: "drop" },
  thinking: { wire: "thinking", perQuery: true, summary: "when-it-fits", flag: "--thinking" },
  effort: { wire: "output_config.effort", perQuery: true, summary: "keep", flag: "--effort" },
  metadata: { wire: "metadata.user_id", perQuery: false, summary: "keep" },
  serviceTier: { wire: "service_tier", perQuery: false, summary: "keep" },
  promptCaching: { wire: "cache_control", perQuery: false, summary: "drop", flag: "--no-cache" },
  extraBody: { wire: "(each of its fields, over the body)", perQuery: false, summary: "keep" },
} as const satisfies { readonly [K in ModelSettingsField]-?: ModelSettingSpec };

type Settings = typeof MODEL_SETTINGS;

/** The settings a query may override. */
export type QuerySettingKey = {
  [K in ModelSettingsField]: Settings[K]["perQuery"] extends true ? K : never;
}[ModelSettingsField];

/** The settings the `agent-lattice` command has a flag for. */
export type FlagSettingKey = {
  [K in ModelSettingsField]: Settings[K] extends { flag: string } ? K : never;
}[ModelSettingsField];

/** Every model setting's key, in {@link MODEL_SETTINGS}' order. */
export const MODEL_SETTING_KEYS: readonly ModelSettingsField[] = Object.freeze(
  Object.keys(MODEL_SETTINGS) as ModelSettingsField[],
);

/** The keys a query may override, in {@link MODEL_SETTINGS}' order. */
export const QUERY_SETTING_KEYS: readonly QuerySettingKey[] = Object.freeze(
  MODEL_SETTING_KEYS.filter((key): key is QuerySettingKey => MODEL_SETTINGS[key].perQuery),
);

/** The keys a summary request carries as set (thinking, kept when it fits, is not among them). */
export const SUMMARY_SETTING_KEYS: readonly ModelSettingsField[] = Object.freeze(
  MODEL_SETTING_KEYS.filter((key) => MODEL_SETTINGS[key].summary === "keep"),
);
