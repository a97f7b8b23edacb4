/**
 * The third round of issue 45: what a query means beyond its words — values that are not words
 * (quoted text, addresses), negation, reading and changing intent, phrasal verbs, and how phrase
 * synonyms count. Each case is a class of query over a small catalog of its own, not a bench query.
 */
import { describe, expect, it } from "vitest";
import { ToolRanker } from "../../src/shared/tool-ranker";
import { tool } from "./ranker-test-kit";

const ranker = new ToolRanker([
  tool(
    "code_list_pull_requests",
    "List the pull requests of a repository, by state (open, closed) and author.",
  ),
  tool("code_create_pull_request", "Open a pull request from a branch."),
  tool("code_create_issue", "Open an issue in a repository."),
  tool("code_search_code", "Search code across repositories."),
  tool("desk_create_ticket", "Open a support ticket for a customer."),
  tool("desk_search_tickets", "Search support tickets by status and requester."),
  tool("desk_reply_to_ticket", "Reply to a support ticket."),
  tool("mail_send_email", "Send an email to recipients."),
  tool("mail_search_emails", "Search the mailbox."),
  tool("mail_create_filter", "Create a filter that labels or forwards incoming mail."),
  tool("mail_mark_as_read", "Mark emails as read."),
  tool("chat_post_message", "Post a message to a channel."),
  tool("chat_rename_channel", "Rename a channel."),
  tool("chat_set_channel_topic", "Set the topic of a channel."),
  tool("events_post_event", "Post an event to the event stream."),
  tool("sms_send_sms", "Send an SMS text message to a phone number."),
  tool("sms_list_messages", "List sent and received text messages."),
  tool("crm_create_lead", "Create a sales lead with contact details."),
  tool("crm_convert_lead", "Convert a qualified lead into an account."),
  tool("calendar_create_calendar", "Create a new calendar."),
  tool("calendar_set_reminder", "Set a reminder before an event."),
  tool("reports_list_reports", "List the saved reports."),
  tool("billing_list_invoices", "List the invoices."),
]);
const first = (query: string) => ranker.search(query, 3)[0]?.name;

describe("ToolRanker: what a query means beyond its words", () => {
  it("reads things named by their state as a listing (open PRs), not as the verb (open a PR)", () => {
    expect(first("open PRs by @dkim")).toBe("code_list_pull_requests");
    expect(first("open a pull request from my branch")).toBe("code_create_pull_request");
    expect(first("pending support tickets from acme.com")).toBe("desk_search_tickets");
    expect(first("open a support ticket for Acme")).toBe("desk_create_ticket");
  });

  it("gives a reading query the nouns of a changing synonym without its verb (texts → SMS, not send SMS)", () => {
    expect(first("what texts came in overnight")).toBe("sms_list_messages");
    expect(first("text Bob that the package arrived")).toBe("sms_send_sms");
  });

  it("matches a phrasal verb as a phrase: set up a calendar creates one, it sets nothing", () => {
    expect(first("set up a separate calendar for the team")).toBe("calendar_create_calendar");
    expect(first("set a reminder for the review")).toBe("calendar_set_reminder");
  });

  it("reads quoted text as a value: its words do not pick the tool", () => {
    expect(first('change the topic to "invoices due Friday"')).toBe("chat_set_channel_topic");
    expect(
      ranker.search("set the channel topic to 'saved reports and invoices'", 3).map((hit) => hit.name),
    ).not.toContain("reports_list_reports");
  });

  it("takes no service from inside an address: noreply@code.dev names no code_ tool", () => {
    expect(first("create a filter for noreply@code.dev")).toBe("mail_create_filter");
    // Named outside a value, the service counts.
    expect(first("create a filter in code")).toBe("code_create_issue");
  });

  it("leaves out a negated word (not qualified) and reads un- words by their base (unread)", () => {
    expect(first("a new lead from the webinar, not qualified yet")).toBe("crm_create_lead");
    expect(first("a qualified lead into an account")).toBe("crm_convert_lead");
    expect(first("clear the unread status of these emails")).toBe("mail_mark_as_read");
  });

  it("counts a phrase synonym matched in part in proportion: half of `post message` is half a match", () => {
    const posts = new ToolRanker(
      [tool("chat_post_message", "Post a message."), tool("events_post_event", "Post an event.")],
      { tell: ["post message"] },
    );
    const score = (query: string) =>
      posts.search(query, 2).find((hit) => hit.name === "events_post_event")!.score;
    // A synonym counts 0.8 of the query's own word; one word of two, half of that.
    expect(score("tell")).toBeCloseTo(0.5 * 0.8 * score("post"), 6);
  });

  it("reads a verb's synonym as a command only where a command's verb stands, first", () => {
    // "mail" first sends mail; after another verb it is the mail to filter.
    expect(first("mail the report to the team")).toBe("mail_send_email");
    // After "list", "texts" are messages, not a command to send: no tool that only sends comes up.
    expect(ranker.search("list the texts from Bob", 3).map((hit) => hit.name)).not.toContain(
      "mail_send_email",
    );
  });

  it("counts a word the query says twice once (SMS texts: text → sms)", () => {
    const hits = ranker.search("what SMS texts came in", 2).map((hit) => hit.name);
    expect(hits[0]).toBe("sms_list_messages");
  });
});
