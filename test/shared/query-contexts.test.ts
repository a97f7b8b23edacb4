import { describe, expect, it } from "vitest";
import { toolCatalog } from "../../bench/lib/tool-catalog.mjs";
import { contextMeaning } from "../../src/shared/query-contexts";
import { plainWords, stem } from "../../src/shared/search-words";
import { ToolRanker } from "../../src/shared/tool-ranker";

const stems = (text: string) => plainWords(text).map(stem);

describe("a word's meaning in the company it keeps", () => {
  it("reads a folder among mail words as a label, and leaves a drive's folder alone", () => {
    expect(contextMeaning(["fold"], stems("move these emails into the folder"))).toEqual([["label"]]);
    expect(contextMeaning(["fold"], stems("move the proposal into the folder"))).toBeUndefined();
  });

  it("takes a command's meaning only where the word is the command", () => {
    expect(contextMeaning(["say in"], stems("say in the launch doc"), true)).toContainEqual(["append"]);
    expect(contextMeaning(["say"], stems("read what the page says"), false)).toBeUndefined();
  });

  it("ranks the tool the word means beside its company", () => {
    const ranker = new ToolRanker(toolCatalog());
    const first = (query: string) => ranker.search(query, 1)[0]?.name;
    expect(first("show me all my mail folders")).toBe("gmail_list_labels");
    expect(first("move these emails into the Receipts folder")).toBe("gmail_add_label");
    expect(first("move the proposal into the Archive folder")).toBe("drive_move_file");
    expect(first("which carrier is this line on")).toBe("twilio_lookup_number");
    expect(first("speed up lookups by email on the users table")).toBe("postgres_create_index");
    expect(first("say in the launch doc that the date moved to Friday")).toBe("notion_append_blocks");
    expect(first("say in #general that the doc is ready")).toBe("slack_post_message");
    expect(first("what schedules do I have access to")).toBe("calendar_list_calendars");
  });

  it("reads queries blocked or stuck in a database as held by locks, and leaves blocked tickets alone", () => {
    const ranker = new ToolRanker(toolCatalog());
    const first = (query: string) => ranker.search(query, 1)[0]?.name;
    expect(contextMeaning(["block"], stems("what is blocking queries"))).toEqual([["lock"]]);
    expect(contextMeaning(["block"], stems("which tickets are blocked"))).toBeUndefined();
    expect(first("what's blocking queries in the database")).toBe("postgres_list_locks");
    expect(first("which queries are stuck")).toBe("postgres_list_locks");
  });
});

describe("a meaning kept by the words that say otherwise", () => {
  it("reads a line for an office or with an area code as a phone number, not a line of a page", () => {
    expect(contextMeaning(["lin"], stems("we need another line for the Paris office"))).toEqual([
      ["phon", "numb"],
    ]);
    expect(contextMeaning(["lin"], stems("add another line to the launch page"))).toBeUndefined();
  });

  it("writes into a doc, but writing up a new page creates it", () => {
    const ranker = new ToolRanker(toolCatalog());
    const first = (query: string) => ranker.search(query, 1)[0]?.name;
    expect(first("write in the launch doc that legal signed off")).toBe("notion_append_blocks");
    expect(first("write up the retro notes as a new page")).toBe("notion_create_page");
    expect(first("we need another line for the Paris office")).toBe("twilio_buy_phone_number");
  });
});

describe("shared outside", () => {
  it("asks who has access when a thing is shared outside, and shares when told to", () => {
    const ranker = new ToolRanker(toolCatalog());
    const first = (query: string) => ranker.search(query, 1)[0]?.name;
    expect(contextMeaning(["shar"], stems("is the doc shared outside the team"))).toContainEqual(["access"]);
    expect(contextMeaning(["shar"], stems("share the deck with external auditors"), true)).toBeUndefined();
    expect(first("is the budget doc shared with anyone outside finance?")).toBe("drive_get_permissions");
    expect(first("share the deck with the external auditors")).toBe("drive_share_file");
  });
});

describe("the values a query names", () => {
  it("count as the company a word keeps: an address puts a folder among mail", () => {
    const ranker = new ToolRanker(toolCatalog());
    const first = (query: string) => ranker.search(query, 1)[0]?.name;
    expect(first("move everything from jo@acme.com into the Clients folder")).toBe("gmail_add_label");
  });
});

describe("a table to track things", () => {
  it("is a database of records, and a SQL table keeps its own meaning", () => {
    expect(contextMeaning(["tabl"], stems("set up a table to track vendors"))).toEqual([["databas"]]);
    expect(contextMeaning(["tabl"], stems("track the size of the orders table on disk"))).toBeUndefined();
    expect(contextMeaning(["tabl"], stems("describe the orders table"))).toBeUndefined();
  });

  it("ranks creating a database first", () => {
    const ranker = new ToolRanker(toolCatalog());
    expect(ranker.search("set up a table to track vendors", 1)[0]?.name).toBe("notion_create_database");
    expect(ranker.search("make a table to keep track of applicants", 1)[0]?.name).toBe(
      "notion_create_database",
    );
  });
});

describe("a reply on an issue or a page", () => {
  it("is a comment on it; a ticket's reply stays a reply", () => {
    expect(contextMeaning(["reply"], stems("reply on the PR saying it looks good"), true)).toContainEqual([
      "comment",
    ]);
    expect(contextMeaning(["reply"], stems("reply on ticket 12 about the issue"), true)).toBeUndefined();
  });

  it("ranks commenting first", () => {
    const ranker = new ToolRanker(toolCatalog());
    expect(ranker.search("reply on the PR saying it looks good", 1)[0]?.name).toBe(
      "github_add_issue_comment",
    );
    expect(ranker.search("respond on the spec page that we agree", 1)[0]?.name).toBe("notion_add_comment");
  });
});

describe("a call booked or of so many minutes", () => {
  it("is a meeting; a phone call, being on call and calling off keep their meaning", () => {
    expect(
      contextMeaning(["call"], stems("book a 30-minute call with Jo for Thursday"), true),
    ).toContainEqual(["meet"]);
    expect(
      contextMeaning(["call"], stems("schedule a call to the number and play the reminder"), true),
    ).toBeUndefined();
    expect(contextMeaning(["on call"], stems("who is on call for the next hour"))).toBeUndefined();
    expect(
      contextMeaning(["call off"], stems("call off the meeting booked for Friday"), true),
    ).toBeUndefined();
  });

  it("ranks creating an event first", () => {
    const ranker = new ToolRanker(toolCatalog());
    expect(ranker.search("book a 30-minute call with Jo and Ravi on Thursday at 2", 1)[0]?.name).toBe(
      "calendar_create_event",
    );
  });
});

describe("an incident opened, raised or declared", () => {
  it("is triggered, as the command; open incidents are listed", () => {
    expect(contextMeaning(["rais"], stems("raise a P1 incident for the login errors"), true)).toContainEqual([
      stem("trigger"),
    ]);
    expect(contextMeaning(["open"], stems("open incidents from last night"), false)).toBeUndefined();
    const ranker = new ToolRanker(toolCatalog());
    expect(ranker.search("open an incident for the checkout outage", 1)[0]?.name).toBe(
      "pagerduty_trigger_incident",
    );
    expect(ranker.search("open incidents from last night", 1)[0]?.name).toBe("pagerduty_list_incidents");
  });
});
