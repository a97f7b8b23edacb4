/**
 * The second vocabulary round of issue 45: where a query's phrase says the action and its first
 * verb does not — a verb whose particle comes later (`put the page away`), a light verb before the
 * phrase that carries the action (`give the team a heads up`). Each case is a class of query over a
 * small catalog of its own, not a bench query.
 */
import { describe, expect, it } from "vitest";
import { readQuery } from "../../src/shared/query-slots";
import { ToolRanker } from "../../src/shared/tool-ranker";
import { longestKey, synonymTable } from "../../src/shared/tool-synonyms";
import { tool } from "./ranker-test-kit";

const ranker = new ToolRanker([
  tool("notes_archive_page", "Archive a page: it is hidden from search but kept."),
  tool("notes_add_comment", "Add a comment to a page."),
  tool("files_put_object", "Put an object into a storage bucket."),
  tool("files_share_file", "Share a file with people, as viewer or editor."),
  tool("calendar_create_event", "Create an event on a calendar."),
  tool("calendar_delete_event", "Delete an event from a calendar."),
  tool("tracker_assign_issue", "Assign an issue to a member of the project."),
  tool("chat_post_message", "Post a message to a channel."),
  tool("chat_search_messages", "Search the messages of a channel."),
  tool("mail_read_message", "Read a message from the inbox."),
  tool("sms_list_messages", "List sent and received text messages."),
  tool("shop_refund_payment", "Refund a payment to the customer."),
]);
const first = (query: string) => ranker.search(query, 1)[0]?.name;

const synonyms = synonymTable();
const reader = { synonyms, longestKey: longestKey(synonyms), indexed: () => false };
const slot = (query: string, word: string) =>
  readQuery(query, reader).slots.find((each) => each.words[0] === word);

describe("ToolRanker: a verb whose particle comes later", () => {
  it("reads the verb with its particle when the two are a phrase, before the verb alone", () => {
    // `put` alone is to upload; `put … away` is to archive. `call` alone is a phone call.
    expect(slot("put the old page away", "put")?.synonyms).toContainEqual(["archiv"]);
    expect(slot("call the planning meeting off", "call")?.synonyms).toContainEqual(["cancel"]);
    expect(slot("give the customer's money back", "giv")?.synonyms).toContainEqual(["refund"]);
  });

  it("ranks by the phrase: put the page away archives it, give the payment back refunds it", () => {
    expect(first("put the launch page away")).toBe("notes_archive_page");
    expect(first("give the buyer's payment back")).toBe("shop_refund_payment");
  });
});

describe("ToolRanker: `let` whose verb comes after its object", () => {
  it("reads let … edit, view, comment as giving access, and let … know as a message", () => {
    expect(slot("let the agency comment on the brief", "let")?.synonyms).toContainEqual(["shar"]);
    expect(slot("let Tom edit the roadmap file", "let")?.synonyms).toContainEqual(["shar"]);
    expect(slot("let the whole team know", "let")?.synonyms).toContainEqual(["post", "messag"]);
  });

  it("ranks by what is let: commenting on a file shares it, knowing is a message", () => {
    expect(first("let the agency comment on the roadmap file")).toBe("files_share_file");
    expect(first("let the channel know the launch page is archived")).toBe("chat_post_message");
  });
});

describe("ToolRanker: a light verb before the words that say the action", () => {
  it("gives the command to the phrase or action noun after a light verb, and drops the verb's own synonyms", () => {
    const slots = readQuery("give the team a heads up", reader).slots;
    expect(slots[0]).toEqual({ words: ["giv"], synonyms: [] });
    // The phrase is read as the command: its changing verbs are kept (`post message`).
    expect(slots.find((each) => each.words[0] === "head up")?.synonyms).toContainEqual(["post", "messag"]);
    expect(slot("give Sam a ping", "ping")?.synonyms).toContainEqual(["send", "messag"]);
  });

  it("ranks by what the phrase says: a heads up or a ping is a message, not a share or an assignment", () => {
    expect(first("give the team a heads up")).toBe("chat_post_message");
    expect(first("give Sam a ping")).toBe("chat_post_message");
    // With nothing after it that says an action, the light verb keeps its meaning.
    expect(first("give Maria edit access to the roadmap file")).toBe("files_share_file");
    expect(first("give the login issue to Sam")).toBe("tracker_assign_issue");
  });
});

describe("ToolRanker: can't is no can", () => {
  it("reads can't make it and won't make it as declining, can make it as accepting", () => {
    const action = (query: string) => readQuery(query, reader).slots[0]?.synonyms;
    expect(action("I can't make it on Friday")).toContainEqual(["declin"]);
    expect(action("I can't make it on Friday")).not.toContainEqual(["accept"]);
    expect(action("I won't make it on Friday")).toContainEqual(["declin"]);
    expect(action("I can make it on Friday")).toContainEqual(["accept"]);
  });
});

describe("ToolRanker: the subject of a message", () => {
  it("reads the words after `about` in a message's command as its subject, to the end of the clause", () => {
    const slots = readQuery("tell Sam about the refund request, then archive the page", reader).slots;
    const subject = slots.filter((each) => each.subject).map((each) => each.words.join(" "));
    expect(subject).toEqual(["refund", "request"]);
    // Without a message to send, `about` names what to look for: no subject.
    expect(readQuery("find pages about the refund", reader).slots.some((each) => each.subject)).toBe(false);
  });

  it("ranks the tool that sends the message, not the one the subject names", () => {
    expect(first("tell the team about the refunded payment")).toBe("chat_post_message");
    expect(first("ping the team about the archived launch page")).toBe("chat_post_message");
    expect(first("refund the payment")).toBe("shop_refund_payment");
  });
});

describe("ToolRanker: a negated phrase", () => {
  it("matches by what it means, not by its words: don't send is a draft, and names no sending", () => {
    expect(readQuery("write the reply but don't send it", reader).slots).toContainEqual({
      words: [],
      synonyms: [["draft"]],
    });
    const drafts = new ToolRanker([
      tool("mail_send_email", "Send an email to recipients."),
      tool("mail_create_draft", "Save a draft email without sending it."),
    ]);
    expect(drafts.search("write the email reply but don't send it yet", 1)[0]?.name).toBe(
      "mail_create_draft",
    );
  });
});
