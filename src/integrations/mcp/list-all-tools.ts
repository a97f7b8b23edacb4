/**
 * A server's whole tool list: `tools/list` followed page by page, with a guard against servers
 * that paginate forever or repeat a cursor.
 * @module
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";

/** A guard against servers that paginate forever. */
const MAX_TOOL_LIST_PAGES = 1_000;

/** Every tool `client`'s server lists (none when it has no tools capability); each page bounded by `timeoutMs`. */
export async function listAllTools(
  client: Client,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<McpTool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  const tools: McpTool[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_LIST_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor }, {
      signal,
      timeout: timeoutMs,
    });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
    if (seenCursors.has(cursor)) {
      throw new Error(`tools/list returned the cursor ${JSON.stringify(cursor)} twice.`);
    }
    seenCursors.add(cursor);
  }
  throw new Error(`tools/list did not end after ${MAX_TOOL_LIST_PAGES} pages.`);
}
