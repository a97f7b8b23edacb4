/**
 * What the tool-search tests share: a described tool, and the first tool the bench's 150-tool
 * catalog ranks for a query (its index built once for all of them).
 */
import { toolCatalog } from "../../bench/lib/tool-catalog.mjs";
import { ToolRanker } from "../../src/shared/tool-ranker";

/** A tool of a test's own small catalog: a name and a description, no input fields. */
export const tool = (name: string, description: string) => ({
  name,
  description,
  inputSchema: { type: "object" },
});

let catalogRanker: ToolRanker | undefined;

/** The first tool the bench's catalog ranks for `query`. */
export function catalogFirst(query: string): string | undefined {
  catalogRanker ??= new ToolRanker(toolCatalog());
  return catalogRanker.search(query, 1)[0]?.name;
}
