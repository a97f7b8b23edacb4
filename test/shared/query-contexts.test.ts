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

describe("clearing what is unread", () => {
  it("reads clearing, resetting or dismissing among unread things as marking them read", () => {
    expect(contextMeaning(["clear"], stems("clear the unread count"))).toEqual([["mark", "read"]]);
    expect(contextMeaning(["clear"], stems("clear the old logs"))).toBeUndefined();
  });

  it("ranks marking as read first, not reading", () => {
    const ranker = new ToolRanker(toolCatalog());
    expect(ranker.search("clear the unread number on my newsletters", 1)[0]?.name).toBe("gmail_mark_as_read");
    expect(ranker.search("dismiss the unread state of these mails", 1)[0]?.name).toBe("gmail_mark_as_read");
  });
});

describe("mail tagged", () => {
  it("reads tagging among mail words as labelling, unless a ticket, an issue or a case is tagged", () => {
    expect(contextMeaning(["tag"], stems("tag these emails as Travel"))).toEqual([["label"]]);
    expect(contextMeaning(["tag"], stems("tag the ticket about the email bounce"))).toBeUndefined();
  });

  it("ranks labelling mail first, not tagging a ticket", () => {
    const ranker = new ToolRanker(toolCatalog());
    expect(ranker.search("tag those messages as Family", 1)[0]?.name).toBe("gmail_add_label");
    expect(ranker.search("categorize the newsletters as Hobbies", 1)[0]?.name).toBe("gmail_add_label");
  });
});

describe("posts as things", () => {
  it("reads a post that is not the command, among words that find, show or place it, as a message", () => {
    expect(contextMeaning(["post"], stems("find posts about the outage"))).toEqual([["messag"]]);
    // the command keeps its verb
    expect(contextMeaning(["post"], stems("post the latest numbers"), true)).toBeUndefined();
  });

  it("ranks finding messages first, not posting one", () => {
    const ranker = new ToolRanker(toolCatalog());
    expect(ranker.search("search Slack for posts mentioning the migration", 1)[0]?.name).toBe(
      "slack_search_messages",
    );
    expect(ranker.search("find posts about the offsite in Slack", 1)[0]?.name).toBe("slack_search_messages");
  });
});

describe("the folder a thing is in", () => {
  it("reads a folder where a thing is found, shared or removed as saying where it is: the thing is a file", () => {
    expect(contextMeaning(["fold"], stems("find contract.pdf in the Legal folder"))).toEqual([
      ["fil"],
      ["document"],
    ]);
    // a folder to put, move or upload to is a place
    expect(contextMeaning(["fold"], stems("move the deck to the Sales folder"))).toBeUndefined();
    expect(contextMeaning(["fold"], stems("find the doc and put it in the Sales folder"))).toBeUndefined();
  });

  it("ranks finding or removing the file first, not uploading one", () => {
    const ranker = new ToolRanker(toolCatalog());
    expect(ranker.search("find lease.pdf in the Housing folder", 1)[0]?.name).toBe("drive_search_files");
    expect(ranker.search("delete old-notes.txt in the Misc folder", 1)[0]?.name).toBe("drive_delete_file");
  });
});

describe("a whole conversation", () => {
  it("reads a whole or entire thread, conversation or email as one read in full", () => {
    expect(contextMeaning(["whol"], stems("show the whole conversation"))).toEqual([["full"]]);
    expect(contextMeaning(["whol"], stems("grep the whole org"))).toBeUndefined();
  });

  it("ranks reading the thread first", () => {
    const ranker = new ToolRanker(toolCatalog());
    expect(ranker.search("show me the whole conversation with the landlord", 1)[0]?.name).toBe(
      "gmail_read_email",
    );
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
