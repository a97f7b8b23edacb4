import { describe, expect, it } from "vitest";
import { searchTerms, ToolSearchIndex } from "../../src/shared/tool-search-index";

const tools = [
  {
    name: "github_create_issue",
    description: "Open a new issue in a GitHub repository",
    inputSchema: { type: "object" },
  },
  {
    name: "slack_post_message",
    description: "Post a message to a Slack channel",
    inputSchema: { type: "object" },
  },
  {
    name: "db_query",
    description: "Run SQL",
    inputSchema: {
      type: "object",
      properties: { warehouse: { type: "string", description: "Snowflake warehouse" } },
    },
  },
];

describe("ToolSearchIndex", () => {
  it("splits camelCase and snake_case, drops stop words, strips plural and -ing", () => {
    expect(searchTerms("createIssues for the GitHub_repo posting")).toEqual([
      "create",
      "issue",
      "git",
      "hub",
      "repo",
      "post",
    ]);
  });

  it("ranks by name, description and schema text, leaving out tools that match nothing", () => {
    const index = new ToolSearchIndex(tools);
    expect(index.search("open an issue on github", 3).map((hit) => hit.name)).toEqual([
      "github_create_issue",
    ]);
    expect(index.search("send slack messages", 3)[0]!.name).toBe("slack_post_message");
    expect(index.search("snowflake", 3).map((hit) => hit.name)).toEqual(["db_query"]);
    expect(index.search("kubernetes", 3)).toEqual([]);
    expect(new ToolSearchIndex([]).search("anything", 3)).toEqual([]);
  });
});
