/**
 * Everyday phrases of the default tool-search vocabulary (src/shared/tool-vocabulary-phrases.ts),
 * ranked over the bench catalog.
 */
import { describe, expect, it } from "vitest";
import { toolCatalog } from "../../bench/lib/tool-catalog.mjs";
import { ToolRanker } from "../../src/shared/tool-ranker";

describe("everyday phrases: files", () => {
  const ranker = new ToolRanker(toolCatalog());
  const first = (query: string) => ranker.search(query, 1)[0]?.name;
  const top3 = (query: string) => ranker.search(query, 3).map((hit) => hit.name);

  it("reads a thing made visible, available or accessible to people as shared with them", () => {
    expect(first("make the hiring plan doc visible to the whole company")).toBe("drive_share_file");
    expect(first("make the pitch deck available to the sales team")).toBe("drive_share_file");
  });

  it("keeps who has access within reach of a question", () => {
    expect(top3("who is the hiring plan visible to")).toContain("drive_get_permissions");
  });
});

describe("everyday phrases: a time that comes round again", () => {
  const ranker = new ToolRanker(toolCatalog());
  const first = (query: string) => ranker.search(query, 1)[0]?.name;

  it("reads every Monday, each morning as a schedule: the post is scheduled", () => {
    expect(first("post the sales numbers in #sales every Monday")).toBe("slack_schedule_message");
    expect(first("post the standup prompt in #team each morning")).toBe("slack_schedule_message");
  });
});

describe("everyday phrases: chat", () => {
  const ranker = new ToolRanker(toolCatalog());
  const first = (query: string) => ranker.search(query, 1)[0]?.name;

  it("reads scrolling back, up or through a channel, and what came overnight, as its recent history", () => {
    expect(first("scroll back through #qa and tell me what went on")).toBe("slack_get_channel_history");
    expect(first("what did people say overnight in #ops")).toBe("slack_get_channel_history");
  });
});
