import { describe, expect, it } from "vitest";
import { toolCatalog } from "../../bench/lib/tool-catalog.mjs";
import { ToolRanker } from "../../src/shared/tool-ranker";

describe("everyday verbs: opening a thing that exists reads it", () => {
  const ranker = new ToolRanker(toolCatalog());
  const first = (query: string) => ranker.search(query, 1)[0]?.name;

  it("reads `open the …`, `open my …` as reading the thing, not making one", () => {
    expect(first("open the 'Quarterly planning' event")).toBe("calendar_get_event");
    expect(first("open my Notion page on hiring")).toBe("notion_get_page");
  });

  it("still reads `open a …` as making one", () => {
    expect(first("open a ticket for the login bug")).toMatch(/_create_(issue|ticket)$/);
  });
});
