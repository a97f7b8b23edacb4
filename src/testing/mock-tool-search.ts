/**
 * Tool search on the mock server, close enough to the Messages API for tests over HTTP: requests
 * with deferred tools (`defer_loading: true`) are checked as the API checks them, deferred
 * definitions cost no prompt tokens until a search result references them, and
 * {@link mockToolSearch} answers a search the way the API's BM25 search tool does. With
 * `toolSearch: false` the server acts as a provider without tool search, refusing both fields.
 * @module
 */
import { ToolSearchIndex } from "../shared/tool-search-index";

type WireTool = {
  name?: unknown;
  description?: unknown;
  input_schema?: unknown;
  defer_loading?: unknown;
  type?: unknown;
};

const SEARCH_TOOL_TYPES = /^tool_search_tool_(bm25|regex)_\d{8}$/;

function toolsOf(body: any): WireTool[] {
  return Array.isArray(body?.tools)
    ? (body.tools as WireTool[]).filter((tool) => typeof tool === "object" && tool !== null)
    : [];
}

/** Whether a wire tool is deferred. */
export function isDeferredTool(tool: unknown): boolean {
  return typeof tool === "object" && tool !== null && (tool as WireTool).defer_loading === true;
}

/**
 * Why the API would refuse the request's tool search fields, or `undefined`. Supported: a deferred
 * tool needs a search tool, the search tool cannot be deferred, and not every tool may be. Not
 * supported (`toolSearch: false`): any `defer_loading` field or search tool is refused. Either way,
 * a `tool_choice` that forces a tool the request does not declare is refused (a tool left out for
 * client-side search, say).
 */
export function toolSearchRefusal(body: any, supported: boolean): string | undefined {
  const tools = toolsOf(body);
  const forced = body?.tool_choice?.type === "tool" ? body.tool_choice.name : undefined;
  if (forced !== undefined && !tools.some((tool) => tool.name === forced))
    return `tool_choice.name: the tool ${JSON.stringify(forced)} is not among the request's tools`;
  const searchTools = tools.filter(
    (tool) => typeof tool.type === "string" && SEARCH_TOOL_TYPES.test(tool.type),
  );
  const deferred = tools.filter((tool) => tool.defer_loading !== undefined);
  if (!supported) {
    if (deferred.length > 0)
      return `tools.${tools.indexOf(deferred[0]!)}.defer_loading: Extra inputs are not permitted`;
    if (searchTools.length > 0)
      return `tools.${tools.indexOf(searchTools[0]!)}: Input tag '${String(searchTools[0]!.type)}' found using 'type' does not match any of the expected tags`;
    return undefined;
  }
  if (searchTools.some(isDeferredTool)) return "The tool search tool cannot have defer_loading set.";
  if (tools.some(isDeferredTool) && searchTools.length === 0)
    return "Tools with defer_loading require a tool search tool (tool_search_tool_bm25 or tool_search_tool_regex).";
  if (tools.length > 0 && tools.every(isDeferredTool)) return "At least one tool must not be deferred.";
  return undefined;
}

/**
 * The blocks the API's search tool adds to a response: a `server_tool_use` with `query` and its
 * `tool_search_tool_result` naming the request's deferred tools that rank best for it (BM25 over
 * name, description and input schema; at most `limit`, default 5). Use it in a handler.
 * @example
 * handler: (body) => ({ content: [...mockToolSearch(body, "weather"), { type: "text", text: "Found it." }] })
 */
export function mockToolSearch(
  body: any,
  query: string,
  options: { id?: string; limit?: number } = {},
): [Record<string, unknown>, Record<string, unknown>] {
  const deferred = toolsOf(body)
    .filter(isDeferredTool)
    .map((tool) => ({
      name: String(tool.name),
      description: typeof tool.description === "string" ? tool.description : undefined,
      inputSchema: tool.input_schema,
    }));
  const hits = new ToolSearchIndex(deferred).search(query, options.limit ?? 5);
  const id = options.id ?? `srvtoolu_mock_${Math.abs(hashOf(query)).toString(36)}`;
  const searchTool = toolsOf(body).find(
    (tool) => typeof tool.type === "string" && SEARCH_TOOL_TYPES.test(tool.type),
  );
  return [
    {
      type: "server_tool_use",
      id,
      name: String(searchTool?.name ?? "tool_search_tool_bm25"),
      input: { query },
    },
    {
      type: "tool_search_tool_result",
      tool_use_id: id,
      content: {
        type: "tool_search_tool_search_result",
        tool_references: hits.map((hit) => ({ type: "tool_reference", tool_name: hit.name })),
      },
    },
  ];
}

/**
 * A message block as the prompt holds it: a `tool_search_tool_result` with the definitions of the
 * tools it references expanded (the API loads them there), any other block as it is.
 */
export function expandToolReferences(block: unknown, body: any): unknown {
  const record = block as { type?: unknown; content?: { tool_references?: unknown } } | null;
  if (record?.type !== "tool_search_tool_result") return block;
  const references = record.content?.tool_references;
  if (!Array.isArray(references)) return block;
  const byName = new Map(toolsOf(body).map((tool) => [tool.name, tool]));
  const loaded = references.map((reference) => byName.get((reference as { tool_name?: unknown })?.tool_name));
  return { ...record, loaded_definitions: loaded.filter(Boolean) };
}

function hashOf(text: string): number {
  let hash = 0;
  for (let index = 0; index < text.length; index++) hash = (hash * 31 + text.charCodeAt(index)) | 0;
  return hash;
}
