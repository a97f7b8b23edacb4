/**
 * Which providers search deferred tools themselves (the profile behind `toolSearch: "auto"`):
 * decided from the endpoint a client reports — the Anthropic API's host. Everywhere else
 * (DeepSeek, Kimi, GLM, MiniMax, proxies, local servers, a client that reports no endpoint) the
 * agent's own `search_tools` does it.
 * @module
 */
import type { ModelEndpoint } from "./endpoint";

/** Hosts whose Messages API has tool search (`defer_loading`, `tool_search_tool_*`). */
export const PROVIDER_TOOL_SEARCH_HOSTS: readonly string[] = ["api.anthropic.com"];

/** The beta the Messages API wants with deferred tools. */
export const TOOL_SEARCH_BETA = "advanced-tool-use-2025-11-20";

/** Whether the service at `endpoint` searches deferred tools itself. */
export function providerSearchesTools(endpoint: ModelEndpoint | undefined): boolean {
  return (
    endpoint?.address !== undefined && PROVIDER_TOOL_SEARCH_HOSTS.includes(endpoint.address.toLowerCase())
  );
}
