import { describe, expect, it } from "vitest";
import { readQuery } from "../../src/shared/query-slots";
import {
  causativeLength,
  isDoneInQuestion,
  isPassiveGet,
  isStateParticiple,
  verbMeaning,
} from "../../src/shared/query-verb-nouns";
import { plainWords, stem } from "../../src/shared/search-words";
import { ToolRanker } from "../../src/shared/tool-ranker";
import { longestKey, synonymTable } from "../../src/shared/tool-synonyms";
import { catalogFirst } from "./ranker-test-kit";

const meaningAt = (query: string, word: string, question = false) => {
  const words = plainWords(query);
  return verbMeaning(words, words.map(stem), words.indexOf(word), question);
};

describe("a noun where a verb stands", () => {
  it("means its verb first before whom it reaches, or after a subject or `to`", () => {
    expect(meaningAt("page someone, the site is down", "page")).toContainEqual(["alert"]);
    expect(meaningAt("we need to page the on-call", "page")).toBeDefined();
    expect(meaningAt("who do I page for the database", "page", true)).toEqual([["on call"]]);
    expect(meaningAt("page about onboarding in Notion", "page")).toBeUndefined();
    expect(meaningAt("archive the page", "page")).toBeUndefined();
  });

  it("ranks alerting and who is on call for `page`, not the tools that make pages", () => {
    expect(catalogFirst("page someone, the site is down")).toBe("pagerduty_trigger_incident");
    expect(catalogFirst("who do I page for the database")).toBe("pagerduty_get_on_call");
    expect(catalogFirst("page about onboarding in Notion")).toBe("notion_create_page");
  });

  it("means its verb first in a query that names a team, whose name the shapes took out", () => {
    expect(catalogFirst("page the storage team")).toBe("pagerduty_trigger_incident");
    expect(catalogFirst("page the billing squad, checkout is erroring")).toBe("pagerduty_trigger_incident");
    expect(catalogFirst("page with the design team's launch notes in Notion")).toMatch(/^notion_/);
  });
});

describe("a passive `get`", () => {
  const synonyms = synonymTable();
  const reader = { synonyms, longestKey: longestKey(synonyms), indexed: () => false };
  const own = (query: string) => readQuery(query, reader).slots.flatMap((slot) => slot.words);
  const alternatives = (query: string) => readQuery(query, reader).slots.flatMap((slot) => slot.synonyms);

  it("is `get` before a participle, fetching nothing", () => {
    const at = (query: string) => isPassiveGet(plainWords(query), plainWords(query).indexOf("got"));
    expect(at("which tickets got assigned to me")).toBe(true);
    expect(at("the invoice got paid")).toBe(true);
    expect(at("I got the logs")).toBe(false);
  });

  it("is read as no word: neither a fetch nor mail received, and the participle is the verb", () => {
    expect(own("which tickets got assigned to me today")).not.toContain("got");
    expect(alternatives("which tickets got assigned to me today")).not.toContainEqual(["receiv"]);
    expect(own("did the SMS get delivered")).not.toContain("get");
    // "who gets paged" asks who is on call.
    expect(alternatives("who gets paged for the api?")).toContainEqual(["on call"]);
    // A `get` that fetches stays.
    expect(own("get the latest invoice")).toContain("get");
  });
});

describe("a participle after `be`", () => {
  const at = (query: string, word: string) =>
    isStateParticiple(plainWords(query), plainWords(query).indexOf(word));
  const tool = (name: string, description: string) => ({
    name,
    description,
    inputSchema: { type: "object" },
  });
  const ranker = new ToolRanker([
    tool("files_share_file", "Share a file with people, as viewer or editor."),
    tool("files_get_permissions", "List who has access to a file."),
    tool("code_merge_pull_request", "Merge a pull request."),
    tool("code_list_pull_requests", "List the pull requests of a repository."),
  ]);
  const first = (query: string) => ranker.search(query, 1)[0]?.name;

  it("is a state: after be, or after still or not in a question that begins with be", () => {
    expect(at("which tickets are assigned to Kevin?", "assigned")).toBe(true);
    expect(at("PRs that haven't been merged", "merged")).toBe(true);
    expect(at("is the doc still shared with Ana?", "shared")).toBe(true);
    expect(at("share the doc with Ana", "share")).toBe(false);
    expect(at("the doc Ana shared", "shared")).toBe(false);
  });

  it("counts little for the tool whose action it names, in a question or a listing", () => {
    expect(first("is the roadmap file still shared with the agency?")).toBe("files_get_permissions");
    expect(first("which pull requests have not been merged yet?")).toBe("code_list_pull_requests");
    // In a command the state is to be brought about.
    expect(first("make sure the roadmap file is shared with the agency")).toBe("files_share_file");
  });
});

describe("a causative `have`", () => {
  it("takes `have`, a determiner and the one made to act before a base verb", () => {
    expect(causativeLength(plainWords("have the bot say hi in #general"))).toBe(3);
    expect(causativeLength(plainWords("have Sam review the PR"))).toBe(2);
  });

  it("not a question's `have`: a pronoun, a quantifier or a participle after it asks", () => {
    expect(causativeLength(plainWords("have you sent the invoice?"))).toBe(0);
    expect(causativeLength(plainWords("have the tests passed on main?"))).toBe(0);
    expect(causativeLength(plainWords("have the builds gone green"))).toBe(0);
    expect(causativeLength(plainWords("have any PRs merged today"))).toBe(0);
  });

  it("reads the verb after the one made to act as the command: nothing is asked", () => {
    expect(catalogFirst("have the bot say good morning in #general")).toBe("slack_post_message");
  });
});

describe("a participle right after things", () => {
  const at = (query: string, word: string) =>
    isStateParticiple(plainWords(query), plainWords(query).indexOf(word));

  it("names their state, before to, by, with, a time", () => {
    expect(at("find the tickets assigned to Priya", "assigned")).toBe(true);
    expect(at("search docs shared with me this week", "shared")).toBe(true);
    // not a command's participle, nor one after a single thing
    expect(at("get the invoice paid by Friday", "paid")).toBe(false);
  });

  it("ranks finding those things first, not assigning them", () => {
    expect(catalogFirst("find the open tickets assigned to Priya in Jira")).toBe("jira_search_issues");
  });
});

describe("a verb a question asks about as done", () => {
  const done = (query: string, word: string) =>
    isDoneInQuestion(plainWords(query), plainWords(query).indexOf(word));

  it("after did, do or has and a subject of one word", () => {
    expect(done("which SMS did we send to Maria", "send")).toBe(true);
    expect(done("what did Sam post in #general", "post")).toBe(true);
    expect(done("what emails did I send to Bob", "send")).toBe(true);
    expect(done("send the SMS to Maria", "send")).toBe(false);
    expect(done("which tickets are closed", "closed")).toBe(false);
  });

  it("is a state: the things done are read, not done again", () => {
    expect(catalogFirst("what did Sam post in #general yesterday")).toBe("slack_get_channel_history");
  });
});
