import { describe, expect, it } from "vitest";
import { contextMeaning } from "../../src/shared/query-contexts";
import { plainWords, stem } from "../../src/shared/search-words";
import { catalogFirst } from "./ranker-test-kit";

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
    expect(catalogFirst("show me all my mail folders")).toBe("gmail_list_labels");
    expect(catalogFirst("move these emails into the Receipts folder")).toBe("gmail_add_label");
    expect(catalogFirst("move the proposal into the Archive folder")).toBe("drive_move_file");
    expect(catalogFirst("which carrier is this line on")).toBe("twilio_lookup_number");
    expect(catalogFirst("speed up lookups by email on the users table")).toBe("postgres_create_index");
    expect(catalogFirst("say in the launch doc that the date moved to Friday")).toBe("notion_append_blocks");
    expect(catalogFirst("say in #general that the doc is ready")).toBe("slack_post_message");
    expect(catalogFirst("what schedules do I have access to")).toBe("calendar_list_calendars");
  });

  it("reads queries blocked or stuck in a database as held by locks, and leaves blocked tickets alone", () => {
    expect(contextMeaning(["block"], stems("what is blocking queries"))).toEqual([["lock"]]);
    expect(contextMeaning(["block"], stems("which tickets are blocked"))).toBeUndefined();
    expect(catalogFirst("what's blocking queries in the database")).toBe("postgres_list_locks");
    expect(catalogFirst("which queries are stuck")).toBe("postgres_list_locks");
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
    expect(catalogFirst("write in the launch doc that legal signed off")).toBe("notion_append_blocks");
    expect(catalogFirst("write up the retro notes as a new page")).toBe("notion_create_page");
    expect(catalogFirst("we need another line for the Paris office")).toBe("twilio_buy_phone_number");
  });
});

describe("shared outside", () => {
  it("asks who has access when a thing is shared outside, and shares when told to", () => {
    expect(contextMeaning(["shar"], stems("is the doc shared outside the team"))).toContainEqual(["access"]);
    expect(contextMeaning(["shar"], stems("share the deck with external auditors"), true)).toBeUndefined();
    expect(catalogFirst("is the budget doc shared with anyone outside finance?")).toBe(
      "drive_get_permissions",
    );
    expect(catalogFirst("share the deck with the external auditors")).toBe("drive_share_file");
  });
});

describe("the values a query names", () => {
  it("count as the company a word keeps: an address puts a folder among mail", () => {
    expect(catalogFirst("move everything from jo@acme.com into the Clients folder")).toBe("gmail_add_label");
  });
});

describe("clearing what is unread", () => {
  it("reads clearing, resetting or dismissing among unread things as marking them read", () => {
    expect(contextMeaning(["clear"], stems("clear the unread count"))).toEqual([["mark", "read"]]);
    expect(contextMeaning(["clear"], stems("clear the old logs"))).toBeUndefined();
  });

  it("ranks marking as read first, not reading", () => {
    expect(catalogFirst("clear the unread number on my newsletters")).toBe("gmail_mark_as_read");
    expect(catalogFirst("dismiss the unread state of these mails")).toBe("gmail_mark_as_read");
  });
});

describe("mail tagged", () => {
  it("reads tagging among mail words as labelling, unless a ticket, an issue or a case is tagged", () => {
    expect(contextMeaning(["tag"], stems("tag these emails as Travel"))).toEqual([["label"]]);
    expect(contextMeaning(["tag"], stems("tag the ticket about the email bounce"))).toBeUndefined();
  });

  it("ranks labelling mail first, not tagging a ticket", () => {
    expect(catalogFirst("tag those messages as Family")).toBe("gmail_add_label");
    expect(catalogFirst("categorize the newsletters as Hobbies")).toBe("gmail_add_label");
  });
});

describe("posts as things", () => {
  it("reads a post that is not the command, among words that find, show or place it, as a message", () => {
    expect(contextMeaning(["post"], stems("find posts about the outage"))).toEqual([["messag"]]);
    // the command keeps its verb
    expect(contextMeaning(["post"], stems("post the latest numbers"), true)).toBeUndefined();
  });

  it("ranks finding messages first, not posting one", () => {
    expect(catalogFirst("search Slack for posts mentioning the migration")).toBe("slack_search_messages");
    expect(catalogFirst("find posts about the offsite in Slack")).toBe("slack_search_messages");
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
    expect(catalogFirst("find lease.pdf in the Housing folder")).toBe("drive_search_files");
    expect(catalogFirst("delete old-notes.txt in the Misc folder")).toBe("drive_delete_file");
  });
});

describe("a whole conversation", () => {
  it("reads a whole or entire thread, conversation or email as one read in full", () => {
    expect(contextMeaning(["whol"], stems("show the whole conversation"))).toEqual([["full"]]);
    expect(contextMeaning(["whol"], stems("grep the whole org"))).toBeUndefined();
  });

  it("ranks reading the thread first", () => {
    expect(catalogFirst("show me the whole conversation with the landlord")).toBe("gmail_read_email");
  });
});

describe("a table to track things", () => {
  it("is a database of records, and a SQL table keeps its own meaning", () => {
    expect(contextMeaning(["tabl"], stems("set up a table to track vendors"))).toEqual([["databas"]]);
    expect(contextMeaning(["tabl"], stems("track the size of the orders table on disk"))).toBeUndefined();
    expect(contextMeaning(["tabl"], stems("describe the orders table"))).toBeUndefined();
  });

  it("ranks creating a database first", () => {
    expect(catalogFirst("set up a table to track vendors")).toBe("notion_create_database");
    expect(catalogFirst("make a table to keep track of applicants")).toBe("notion_create_database");
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
    expect(catalogFirst("reply on the PR saying it looks good")).toBe("github_add_issue_comment");
    expect(catalogFirst("respond on the spec page that we agree")).toBe("notion_add_comment");
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
    expect(catalogFirst("book a 30-minute call with Jo and Ravi on Thursday at 2")).toBe(
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
    expect(catalogFirst("open an incident for the checkout outage")).toBe("pagerduty_trigger_incident");
    expect(catalogFirst("open incidents from last night")).toBe("pagerduty_list_incidents");
  });
});
