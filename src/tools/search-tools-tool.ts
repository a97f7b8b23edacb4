/**
 * The client-side `search_tools` tool, for providers without tool search: it ranks the deferred
 * tools ({@link ToolRanker}: BM25 on whole stemmed words, synonyms, the service a query names
 * first) and names the ones found in a fixed first line, which the registry reads back
 * from history to offer their definitions on every later request (see {@link foundToolNames}).
 * @module
 */
import { z } from "zod";
import { ToolRanker } from "../shared/tool-ranker";
import type { ToolSearchSynonyms } from "../shared/tool-synonyms";
import { defineTool } from "./define-tool";
import type { Tool } from "./tool";

/** The name of the client-side search tool. */
export const SEARCH_TOOLS_TOOL_NAME = "search_tools";
/** How many tools one search loads at most, unless the model asks for fewer. */
export const DEFAULT_TOOL_SEARCH_LIMIT = 5;
const MAX_TOOL_SEARCH_LIMIT = 10;
const FOUND_LINE = "Loaded tools: ";

const input = z.object({
  query: z
    .string()
    .min(1)
    .describe("Words describing the capability you need (e.g. 'create calendar event')."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_TOOL_SEARCH_LIMIT)
    .optional()
    .describe("At most this many tools (default 5)."),
});

/**
 * The search tool over the deferred tools `deferred()` returns at each call, with the synonyms
 * `synonyms()` returns added to the defaults (read when the tool set changes).
 */
export function createSearchToolsTool(
  deferred: () => readonly Tool[],
  synonyms: () => ToolSearchSynonyms | undefined = () => undefined,
): Tool<z.infer<typeof input>> {
  let indexed: { tools: readonly Tool[]; index: ToolRanker } | undefined;
  return defineTool({
    name: SEARCH_TOOLS_TOOL_NAME,
    description:
      "Searches the tools that are available but not loaded yet, by what they do. The tools found are loaded: you can call them from your next response on. Use it whenever no loaded tool fits the task.",
    inputSchema: input,
    readOnly: true,
    execute: ({ query, limit }) => {
      const tools = deferred();
      if (indexed?.tools !== tools) indexed = { tools, index: new ToolRanker(tools, synonyms()) };
      const hits = indexed.index.search(query, limit ?? DEFAULT_TOOL_SEARCH_LIMIT);
      if (hits.length === 0)
        return `No tool matches ${JSON.stringify(query)}. Try other words (what the tool does, the service it works with).`;
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      const lines = hits.map((hit) => `- ${hit.name}: ${byName.get(hit.name)?.description ?? ""}`.trimEnd());
      return `${FOUND_LINE}${hits.map((hit) => hit.name).join(", ")}\nThese tools are now callable:\n${lines.join("\n")}`;
    },
  });
}

/** The tool names a `search_tools` result text loaded (its first line), or none. */
export function foundToolNames(resultText: string): string[] {
  if (!resultText.startsWith(FOUND_LINE)) return [];
  const line = resultText.slice(FOUND_LINE.length).split("\n", 1)[0] ?? "";
  return line
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
}
