/**
 * Which providers search deferred tools themselves (the profile behind `toolSearch: "auto"`):
 * decided from the endpoint a client reports — the Anthropic API's host. Everywhere else
 * (DeepSeek, Kimi, GLM, MiniMax, proxies, local servers, a client that reports no endpoint) the
 * agent's own `search_tools` does it. Detection backs the profile up: a provider that refuses a
 * request carrying the tool-search fields ({@link mayRefuseToolSearch}) hands the search to the
 * agent for the rest of the conversation.
 * @module
 */
import type { ProviderError } from "../errors";
import type { ModelEndpoint } from "./endpoint";

/** Hosts whose Messages API has tool search (`defer_loading`, `tool_search_tool_*`). */
export const PROVIDER_TOOL_SEARCH_HOSTS: readonly string[] = ["api.anthropic.com"];

/** The beta the Messages API wants with deferred tools. */
export const TOOL_SEARCH_BETA = "advanced-tool-use-2025-11-20";

/** Whether the service at `endpoint` searches deferred tools itself (as declared, else by its host). */
export function providerSearchesTools(endpoint: ModelEndpoint | undefined): boolean {
  if (endpoint?.features?.toolSearch !== undefined) return endpoint.features.toolSearch;
  return (
    endpoint?.address !== undefined && PROVIDER_TOOL_SEARCH_HOSTS.includes(endpoint.address.toLowerCase())
  );
}

/**
 * Whether `error`, the failure of a request that carried the tool-search fields (`defer_loading`,
 * the search tool, the beta), may be the provider refusing them: an invalid request (HTTP 400, or
 * 422 as some proxies answer a field they do not know) that is not a prompt over the context
 * window. The wording is not read — providers word it differently (an unknown field, an unknown
 * tool type, an unexpected beta) — so the caller decides whether the provider had shown it
 * searches tools before.
 */
export function mayRefuseToolSearch(error: ProviderError, promptTooLong: boolean): boolean {
  if (promptTooLong) return false;
  return error.status === 400 || error.status === 422;
}
