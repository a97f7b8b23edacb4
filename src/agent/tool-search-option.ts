/**
 * `AgentOptions.toolSearch` resolved against the agent's client: where deferred tools are searched.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { ModelClient } from "../model/client";
import { providerSearchesTools } from "../model/tool-search-support";
import type { ToolSearchMode } from "../tools/tool-registry";

/** `AgentOptions.toolSearch`. */
export type ToolSearchOption = "auto" | "provider" | "client" | false;

/**
 * `"provider"` and `"client"` as given; `false` → `"off"`; `"auto"` (the default) → `"provider"` on
 * the Anthropic API, `"client"` elsewhere. The mode matters only once a tool is deferred.
 * @throws InvalidOptionError on another value
 */
export function resolveToolSearch(option: unknown, client: ModelClient): ToolSearchMode {
  if (option === false) return "off";
  if (option === "provider" || option === "client") return option;
  if (option === undefined || option === "auto")
    return providerSearchesTools(client.endpoint) ? "provider" : "client";
  throw new InvalidOptionError(
    `createAgent: \`toolSearch\` must be "auto", "provider", "client" or false, got ${JSON.stringify(option)}.`,
  );
}
