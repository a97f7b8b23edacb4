/**
 * Tool search on the Messages API: a body whose tools include deferred ones (`defer_loading: true`)
 * gets the API's BM25 search tool declared — once, after the other tools, where the tools' cache
 * marker lands on it — and the request carries the tool-search beta (`anthropic-beta`).
 * @module
 */
import type { ModelToolDefinition } from "./client";
import { TOOL_SEARCH_BETA } from "./tool-search-support";

/** The search tool the built-in client declares: the Messages API's BM25 variant. */
export const TOOL_SEARCH_TOOL = Object.freeze({
  type: "tool_search_tool_bm25_20251119",
  name: "tool_search_tool_bm25",
});

/** A server tool's declaration (`type` + `name`), as sent among the tools. */
type ServerToolDeclaration = { type: string; name: string };

/**
 * `tools` with the search tool appended when one of them is deferred and no search tool is
 * declared yet; `tools` itself otherwise.
 */
export function withToolSearchTool(
  tools: Array<ModelToolDefinition | ServerToolDeclaration> | undefined,
): Array<ModelToolDefinition | ServerToolDeclaration> | undefined {
  if (!tools?.some((tool) => "defer_loading" in tool && tool.defer_loading === true)) return tools;
  const declared = (tools as Array<{ type?: unknown }>).some(
    (tool) => typeof tool.type === "string" && tool.type.startsWith("tool_search_tool_"),
  );
  return declared ? tools : [...tools, { ...TOOL_SEARCH_TOOL }];
}

/** The betas a body needs: the tool-search beta when a tool is deferred. */
export function betasOf(body: { tools?: readonly object[] }): string[] {
  return body.tools?.some((tool) => (tool as { defer_loading?: unknown }).defer_loading === true)
    ? [TOOL_SEARCH_BETA]
    : [];
}

/** `headers` with `betas` added to `anthropic-beta` (comma-separated, without repeats). */
export function withBetaHeader(
  headers: Readonly<Record<string, string>>,
  betas: readonly string[],
): Readonly<Record<string, string>> {
  if (betas.length === 0) return headers;
  const present = (headers["anthropic-beta"] ?? "")
    .split(",")
    .map((beta) => beta.trim())
    .filter((beta) => beta.length > 0);
  const all = [...new Set([...present, ...betas])];
  return { ...headers, "anthropic-beta": all.join(",") };
}
