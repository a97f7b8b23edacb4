import { describe, expect, it } from "vitest";
import { ToolRanker } from "../../src/shared/tool-ranker";
import { catalogFirst, tool } from "./ranker-test-kit";

describe("everyday nouns: an issue tracker", () => {
  const ranker = new ToolRanker([
    tool("repo_create_issue", "Open a new issue in a repository with a title, body and labels."),
    tool("logs_search_logs", "Search application logs by service and text."),
    tool("crm_log_call", "Log a phone call activity on a record."),
    tool("time_add_worklog", "Log time spent on a ticket."),
    tool("monitor_search_logs", "Search the logs of a service."),
  ]);
  const first = (query: string) => ranker.search(query, 1)[0]?.name;

  it("holds issues: recording a problem in it files one", () => {
    expect(first("record this problem in the repo's issue tracker")).toBe("repo_create_issue");
    expect(first("log it in the bug tracker")).toBe("repo_create_issue");
  });

  it("leaves tracking alone: to track is still to log", () => {
    expect(first("track the call with Acme on their record")).toBe("crm_log_call");
  });
});

describe("everyday nouns: mail", () => {
  it("reads one's inbox as the mailbox: what is in it is searched for there", () => {
    expect(catalogFirst("search my inbox for the lease")).toBe("gmail_search_emails");
    expect(catalogFirst("look through my inbox for the shipping confirmation")).toBe("gmail_search_emails");
    expect(catalogFirst("anything in my inbox from the airline?")).toBe("gmail_search_emails");
  });
});

describe("everyday nouns: code hosting", () => {
  it("reads open source as whose code it is (it opens nothing), an org as an organization", () => {
    expect(catalogFirst("fork the open-source parser into our org")).toBe("github_fork_repository");
    expect(catalogFirst("fork that open source library into our org")).toBe("github_fork_repository");
  });
});

describe("everyday nouns: a wiki", () => {
  const ranker = new ToolRanker([
    tool("docs_create_page", "Create a page with blocks of content."),
    tool("docs_search_pages", "Search pages and databases by title."),
    tool("docs_archive_page", "Archive a page."),
    tool("help_create_article", "Write a help center knowledge base article."),
  ]);
  const first = (query: string) => ranker.search(query, 1)[0]?.name;

  it("is a team's pages, not a help center's knowledge base", () => {
    expect(first("write up a new wiki page for the launch")).toBe("docs_create_page");
    expect(first("put a new entry in the wiki")).toBe("docs_create_page");
    expect(first("take the old notes out of the wiki")).toBe("docs_archive_page");
  });

  it("leaves the help center its articles", () => {
    expect(first("publish a knowledge base article for the help center")).toBe("help_create_article");
  });
});
