/**
 * `AgentOptions.toolSearch` resolved against the agent's client: where deferred tools are searched.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { ModelClient } from "../model/client";
import { providerSearchesTools } from "../model/tool-search-support";
import type { ToolSearchSynonyms } from "../shared/tool-synonyms";
import type { ToolSearchMode } from "../tools/tool-registry";

/** `AgentOptions.toolSearch` as an object: where tools are searched, and client-side search's synonyms. */
export interface ToolSearchSettings {
  /** Where deferred tools are searched, as the string form of the option says. @default "auto" */
  mode?: "auto" | "provider" | "client";
  /**
   * Words a model may search with → the words your tools are described with, added to the
   * defaults of client-side `search_tools` (find → search, money back → refund, text → SMS …).
   * A provider's own search does not read them. @default none
   */
  synonyms?: ToolSearchSynonyms;
}

/** `AgentOptions.toolSearch`. */
export type ToolSearchOption = "auto" | "provider" | "client" | false | ToolSearchSettings;

/**
 * `"provider"` and `"client"` as given; `false` → `"off"`; `"auto"` (the default) → `"provider"` on
 * the Anthropic API, `"client"` elsewhere; an object by its `mode`. The mode matters only once a
 * tool is deferred.
 * @throws InvalidOptionError on another value
 */
export function resolveToolSearch(option: unknown, client: ModelClient): ToolSearchMode {
  if (typeof option === "object" && option !== null)
    return resolveToolSearch(settingsOf(option).mode, client);
  if (option === false) return "off";
  if (option === "provider" || option === "client") return option;
  if (option === undefined || option === "auto")
    return providerSearchesTools(client.endpoint) ? "provider" : "client";
  throw new InvalidOptionError(
    `createAgent: \`toolSearch\` must be "auto", "provider", "client" or false, got ${JSON.stringify(option)}.`,
  );
}

/**
 * The synonyms of an object `toolSearch`, checked: an object of string arrays.
 * @throws InvalidOptionError on another shape
 */
export function toolSearchSynonyms(option: unknown): ToolSearchSynonyms | undefined {
  if (typeof option !== "object" || option === null) return undefined;
  return settingsOf(option).synonyms;
}

function settingsOf(option: object): ToolSearchSettings {
  const { mode, synonyms, ...rest } = option as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new InvalidOptionError(
      `createAgent: \`toolSearch\` takes \`mode\` and \`synonyms\`, not ${unknown.map((key) => JSON.stringify(key)).join(", ")}.`,
    );
  if (mode === false)
    throw new InvalidOptionError("createAgent: `toolSearch.mode` cannot be false; pass `toolSearch: false`.");
  if (synonyms !== undefined && !isSynonyms(synonyms))
    throw new InvalidOptionError(
      'createAgent: `toolSearch.synonyms` must map words to arrays of words, e.g. { "money back": ["refund"] }.',
    );
  return { mode: mode as ToolSearchSettings["mode"], synonyms };
}

function isSynonyms(value: unknown): value is ToolSearchSynonyms {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every(
      (words) => Array.isArray(words) && words.every((word) => typeof word === "string"),
    )
  );
}
