/**
 * The words of a query that a message or a new item says (src/shared/message-subject.ts): after
 * `that`, `saying`, `telling` or `let … know` in a command that sends a message, and after a colon of
 * a command that writes. Each case is a class of query over a small catalog of its own.
 */
import { describe, expect, it } from "vitest";
import { readQuery } from "../../src/shared/query-slots";
import { ToolRanker } from "../../src/shared/tool-ranker";
import { longestKey, synonymTable } from "../../src/shared/tool-synonyms";
import { catalogFirst, tool } from "./ranker-test-kit";

const ranker = new ToolRanker([
  tool("chat_post_message", "Post a message to a channel or a thread."),
  tool("chat_upload_file", "Upload a file to a channel."),
  tool("code_add_issue_comment", "Comment on an issue or a pull request."),
  tool("code_merge_pull_request", "Merge a pull request once its checks pass."),
  tool("code_create_issue", "Open a new issue in a repository with a title, body and labels."),
  tool("shop_refund_payment", "Refund a payment, fully or partly."),
  tool("ops_post_event", "Post an event to the event stream, e.g. a deploy."),
  tool("support_reply_to_ticket", "Reply to the requester of a support ticket."),
  tool("support_merge_tickets", "Merge duplicate support tickets."),
]);
const first = (query: string) => ranker.search(query, 1)[0]?.name;

const synonyms = synonymTable();
const reader = { synonyms, longestKey: longestKey(synonyms), indexed: () => false };
const subject = (query: string) =>
  readQuery(query, reader)
    .slots.filter((each) => each.subject)
    .map((each) => each.words.join(" "));

describe("what a message says", () => {
  it("reads the words after `that`, `saying` or `telling` in a message's command as what it says, to the end of the clause", () => {
    expect(subject("tell Sam that the refund went out, then archive the page")).toEqual(["refund", "went"]);
    expect(subject("reply on issue 77 saying the fix landed")).toEqual(["fix", "land"]);
    expect(subject("answer ticket 12 telling them the deploy is done")).toEqual(["deploy", "done"]);
    // A `that` pointing at a thing says nothing; nor does one in a command that sends no message.
    expect(subject("reply to that refund email")).toEqual([]);
    expect(subject("find the issue that mentions refunds")).toEqual([]);
  });

  it("reads a `that` after where a message goes (`in #eng`, `to 555-0100`) as beginning what it says", () => {
    expect(subject("mention in #eng that the build is fixed")).toEqual(["build", "fix"]);
    expect(subject("say to #ops that the cleanup runs tonight")).toEqual(["cleanup", "run", "tonight"]);
    expect(subject("reply to that refund email")).toEqual([]);
    expect(first("mention in #eng that the deploy is done")).toBe("chat_post_message");
  });

  it("reads the words after `let … know` as what is said, unless the asker is to be told", () => {
    expect(subject("let the team know the mockups are ready")).toEqual(["mockup", "ready"]);
    expect(subject("let me know when the build passes")).toEqual([]);
  });

  it("reads the text after a colon of a command that sends or writes as what it says", () => {
    expect(subject("file an issue in acme/web: refunds time out")).toEqual(["refund", "tim"]);
    expect(subject("soql: all refunds this week")).toEqual([]);
  });

  it("ranks the tool that sends or writes, not the ones what is said names", () => {
    expect(first("tell the channel that the deploy is done")).toBe("chat_post_message");
    const replied = ranker.search("reply on issue 77 that the fix was merged", 9).map((hit) => hit.name);
    expect(replied.indexOf("code_add_issue_comment")).toBeLessThan(
      replied.indexOf("code_merge_pull_request"),
    );
    expect(first("answer ticket 9921 telling them the fix will be merged Friday")).toBe(
      "support_reply_to_ticket",
    );
    expect(first("let the channel know the file is uploaded")).toBe("chat_post_message");
    expect(first("new issue: refunds time out")).toBe("code_create_issue");
  });
});

describe("a service named in what a message says is not the service asked for", () => {
  it("posts the news to the channel, rather than using the tools of the service the news is about", () => {
    expect(catalogFirst("tell #ops that GitHub Actions is down")).toBe("slack_post_message");
    expect(catalogFirst("let #finance know the Stripe payout landed")).toBe("slack_post_message");
  });
});

describe("what an on-call question is asked for", () => {
  it("reads the service after `for` as whose rota is asked about, not a thing to act on", () => {
    expect(catalogFirst("who is on call for billing tonight")).toBe("pagerduty_get_on_call");
    expect(catalogFirst("who's on duty for the refunds service")).toBe("pagerduty_get_on_call");
  });
});

describe("whom a message goes to", () => {
  it("reads a person a tool also makes (a customer, a client) as whom the message goes to", () => {
    expect(subject("email the customer about the late parcel")).toContain("custom");
    expect(subject("text our clients that the office is closed")).toContain("client");
    // not as the command's object when the command sends nothing
    expect(subject("add the customer to the newsletter list")).toEqual([]);
  });

  it("ranks sending the message first, not making a customer", () => {
    expect(catalogFirst("email the customer about the late parcel")).toBe("gmail_send_email");
    expect(catalogFirst("email our client regarding next week")).toBe("gmail_send_email");
  });
});

describe("what an email carries", () => {
  it("reads the object of `email … to …` as what the email carries, not a thing to make", () => {
    expect(subject("email the invoice to Dana")).toEqual(["invoic"]);
    expect(subject("mail the signed contract to legal")).toEqual(["sign", "contract"]);
    // not the words of another command, nor of an email command without `to`
    expect(subject("send the invoice to the client")).toEqual([]);
    expect(subject("email the invoice")).toEqual([]);
  });

  it("ranks sending the email first", () => {
    expect(catalogFirst("email the release to the team")).toBe("gmail_send_email");
    expect(catalogFirst("email the invoice to our customer")).toBe("gmail_send_email");
  });
});

describe("what a new item is about", () => {
  it("reads the words after `about` in a command that writes a new thing as its subject", () => {
    expect(subject("open a ticket about the failing build badge")).toEqual(["fail", "build", "badg"]);
    expect(subject("write a page about the refund policy")).toEqual(["refund", "policy"]);
    // not in a command that finds things
    expect(subject("find tickets about the failing build")).toEqual([]);
  });

  it("ranks making the thing first, not what its subject names", () => {
    expect(catalogFirst("open a GitHub ticket about the failing CI badge")).toBe("github_create_issue");
  });
});

describe("what a command says", () => {
  it("reads the words after `say` or `announce`, to where it goes, as what is said", () => {
    expect(subject("say the release is out in #general")).toEqual(["releas"]);
    expect(subject("announce the new pricing in #sales")).toEqual(["new", "pric"]);
    // the place first: what is said comes after `that`
    expect(subject("say in #general that the deploy is done")).toEqual(["deploy", "done"]);
  });

  it("ranks posting the message first, not what it names", () => {
    expect(catalogFirst("say the release went out in #eng")).toBe("slack_post_message");
  });
});

describe("what a question about a message asks about", () => {
  it("reads the words after `about`, in a question about a message, as its subject", () => {
    expect(subject("did Omar email us about the invoice?")).toEqual(["invoic"]);
    // not in a question that asks about no message
    expect(subject("any tickets about the invoice?")).toEqual([]);
  });

  it("ranks the mail tools first, not making what the mail is about", () => {
    expect(catalogFirst("what did the landlord email about the refund")).toMatch(/^gmail_/);
  });
});

describe("the period a command is for", () => {
  it("reads the words after `during` or `throughout` as when, not what is acted on", () => {
    expect(subject("silence paging during tonight's database upgrade")).toEqual([
      "tonight",
      "databas",
      "upgrad",
    ]);
    expect(subject("mute the CPU alert throughout the migration")).toEqual(["migration"]);
  });

  it("keeps a period that is itself a window, and reads nothing without a command before it", () => {
    expect(subject("no alerts during the planned downtime")).toEqual(["plan"]);
    expect(subject("during the upgrade")).toEqual([]);
  });

  it("ranks the tool the command names", () => {
    expect(catalogFirst("silence paging during tonight's database upgrade")).toBe(
      "pagerduty_create_maintenance_window",
    );
  });
});
