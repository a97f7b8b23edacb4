import { describe, expect, it } from "vitest";
import { toolCatalog } from "../../bench/lib/tool-catalog.mjs";
import { ToolRanker } from "../../src/shared/tool-ranker";
import { phraseKey, synonymTable } from "../../src/shared/tool-synonyms";
import { oneWayVocabulary } from "../../src/shared/tool-vocabulary";
import { catalogFirst, tool } from "./ranker-test-kit";

const ONE_WAY = oneWayVocabulary();

const tools = [
  tool("mail_archive_email", "Archive emails, removing them from the inbox."),
  tool("mail_send_email", "Send an email to recipients."),
  tool("calendar_find_free_time", "Find time slots when all attendees are free."),
  tool("calendar_list_events", "List the events between two dates."),
  tool("docs_list_revisions", "List the revision history of a document."),
  tool("docs_delete_file", "Move a document to the trash."),
  tool("monitoring_mute_monitor", "Mute a monitor's alerts for a while."),
  tool("monitoring_search_logs", "Search application logs by service, status and text."),
  tool("storage_presign_url", "Create a time-limited presigned download URL for an object."),
  tool("tickets_set_priority", "Set a support ticket's priority."),
];
const first = (ranker: ToolRanker, query: string) => ranker.search(query, 1)[0]?.name;

describe("the default tool vocabulary", () => {
  it("compiles every one-way key to words, with at least one alternative", () => {
    const table = synonymTable();
    for (const [key, values] of Object.entries(ONE_WAY)) {
      expect(phraseKey(key), key).not.toBe("");
      expect(values.length, key).toBeGreaterThan(0);
      expect(table.get(phraseKey(key))?.length ?? 0, key).toBeGreaterThan(0);
    }
  });

  it("reads everyday words as the words tools are described with", () => {
    const ranker = new ToolRanker(tools);
    expect(first(ranker, "tidy up my inbox")).toBe("mail_archive_email");
    expect(first(ranker, "who's around on Tuesday afternoon")).toBe("calendar_find_free_time");
    expect(first(ranker, "bring back last week's copy of the pricing doc")).toBe("docs_list_revisions");
    expect(first(ranker, "hush that noisy disk alert until morning")).toBe("monitoring_mute_monitor");
    expect(first(ranker, "what did checkout-api write to stderr")).toBe("monitoring_search_logs");
    expect(first(ranker, "an expiring link for report.pdf")).toBe("storage_presign_url");
  });

  it("reads everyday words for the things tools act on, and for leaving an invite (a third pass)", () => {
    const ranker = new ToolRanker([
      ...tools,
      tool("notes_archive_page", "Archive a page."),
      tool("notes_append_blocks", "Append paragraphs, lists or to-dos to a page."),
      tool("notes_add_comment", "Comment on a page."),
      tool("chat_set_channel_topic", "Set the topic of a channel."),
      tool("chat_create_channel", "Create a new channel and invite members."),
      tool("storage_enable_versioning", "Turn on versioning for a bucket."),
      tool("storage_copy_object", "Copy an object between buckets."),
      tool("calendar_respond_to_invite", "Accept, decline or tentatively accept an invitation."),
    ]);
    expect(first(ranker, "three more lines at the bottom of the page")).toBe("notes_append_blocks");
    expect(first(ranker, "a new header for the design channel")).toBe("chat_set_channel_topic");
    expect(first(ranker, "keep old copies of everything in the bucket")).toBe("storage_enable_versioning");
    expect(first(ranker, "I'll sit out Friday's planning invite")).toBe("calendar_respond_to_invite");
  });

  it("reads bill as invoicing (no charges to list), and everyday verbs for the catalog's actions", () => {
    const ranker = new ToolRanker([
      ...tools,
      tool("billing_list_charges", "List the charges of a period."),
      tool("billing_create_invoice", "Create and finalize an invoice for a customer."),
      tool("ci_list_workflow_runs", "List the CI workflow runs of a repository."),
      tool("ci_create_release", "Publish a release from a tag."),
    ]);
    expect(first(ranker, "bill Acme for the March hours")).toBe("billing_create_invoice");
    expect(first(ranker, "rerun the nightly job")).toBe("ci_list_workflow_runs");
    expect(first(ranker, "prune the stale pitch deck")).toBe("docs_delete_file");
  });

  it("reads abbreviations, irregular past tenses and British spellings", () => {
    const ranker = new ToolRanker(tools);
    expect(first(ranker, "threw out the old pitch deck")).toBe("docs_delete_file");
    expect(first(ranker, "prioritise ticket 55")).toBe("tickets_set_priority");
    expect(first(ranker, "nuke the outdated deck")).toBe("docs_delete_file");
  });
});

describe("the default tool vocabulary: a fourth pass over the catalog's verbs", () => {
  const ranker = new ToolRanker([
    ...tools,
    tool("repo_merge_pull_request", "Merge a pull request once its checks pass."),
    tool("repo_list_pull_requests", "List the pull requests of a repository."),
    tool("repo_list_workflow_runs", "List the CI workflow runs of a repository and their conclusions."),
    tool("pay_list_charges", "List the charges of a period."),
    tool("pay_list_disputes", "List chargebacks and disputes to answer."),
    tool("pay_get_balance", "Get the account's available and pending balance."),
    tool("pay_cancel_subscription", "Cancel a subscription now or at period end."),
    tool("store_put_object", "Upload an object to a bucket."),
    tool("store_delete_object", "Delete an object from a bucket."),
    tool("dash_create_dashboard", "Create a dashboard of graphs."),
    tool("dash_query_metrics", "Query time series metrics such as CPU or latency."),
    tool("phone_get_call_recording", "Get the recording of a call."),
    tool("phone_make_call", "Place an outbound phone call that plays a message."),
    tool("phone_check_verification", "Check a one-time verification code."),
    tool("books_send_invoice", "Email an invoice to the customer, or resend a reminder for an overdue one."),
    tool("repo_create_branch", "Create a branch from another branch or a commit."),
  ]);

  it("reads code hosting's jargon and the verbs of earning", () => {
    expect(first(ranker, "land PR 412")).toBe("repo_merge_pull_request");
    expect(first(ranker, "how much did we take in last month")).toBe("pay_list_charges");
    expect(first(ranker, "what have customers fought this month")).toBe("pay_list_disputes");
  });

  it("reads pushing a file to a place as an upload, building a thing as creating it, printing as logs", () => {
    expect(first(ranker, "push backup.tar.gz to the archive bucket")).toBe("store_put_object");
    expect(first(ranker, "build a dashboard of queue depth")).toBe("dash_create_dashboard");
    expect(first(ranker, "what did checkout-api print around noon")).toBe("monitoring_search_logs");
  });

  it("reads playing a call back as its recording, a valid code as checking it, chasing as a reminder", () => {
    expect(first(ranker, "play back yesterday's call with Acme")).toBe("phone_get_call_recording");
    expect(first(ranker, "is 123456 a valid code")).toBe("phone_check_verification");
    expect(first(ranker, "chase Acme for the overdue invoice")).toBe("books_send_invoice");
  });

  it("reads no changing verb into a question: did the build pass asks for runs, not to create one", () => {
    expect(first(ranker, "did the build of the release branch pass?")).toBe("repo_list_workflow_runs");
  });
});

describe("the default tool vocabulary: scheduling a meeting makes an event; my schedule is my events", () => {
  const ranker = new ToolRanker(toolCatalog());
  const top = (query: string) => ranker.search(query, 1)[0]?.name;

  it("reads scheduling a meeting as creating a calendar event, and scheduling a message still as scheduling it", () => {
    expect(top("schedule a meeting with Ana on Friday")).toBe("calendar_create_event");
    expect(top("schedule a sync with the design team")).toBe("calendar_create_event");
    expect(top("schedule a message to #general for Monday")).toBe("slack_schedule_message");
  });

  it("reads my schedule, my day, my week as the events on my calendar", () => {
    expect(top("my schedule for tomorrow")).toBe("calendar_list_events");
  });
});

describe("the default tool vocabulary: a verb of saying, first, posts a message", () => {
  const ranker = new ToolRanker(toolCatalog());
  const top = (query: string) => ranker.search(query, 1)[0]?.name;

  it("reads mention as posting where it commands, and as messages where it names them", () => {
    expect(top("mention in #eng that the build is fixed")).toBe("slack_post_message");
    expect(top("find where someone mentioned the outage in Slack")).toBe("slack_search_messages");
  });
});

describe("looking through things", () => {
  it("reads look / search / scan through as a search, not a look-up", () => {
    const ranker = new ToolRanker([
      tool("mail_search_emails", "Search the mailbox with a query."),
      tool("phone_lookup_number", "Look up a phone number's carrier and type."),
      tool("chat_get_user_profile", "Look up a member's profile: name, title, time zone."),
    ]);
    const first = (query: string) => ranker.search(query, 1)[0]?.name;
    expect(first("look through my mail for the flight confirmation")).toBe("mail_search_emails");
    expect(first("scan through the emails for the contract")).toBe("mail_search_emails");
    const table = synonymTable();
    for (const phrase of ["look through", "search through", "scan through"])
      expect(table.get(phraseKey(phrase))).toContainEqual(["search"]);
  });
});

describe("problems logged", () => {
  it("reads a problem as an issue, and logging one as filing it, not time or a call logged", () => {
    const ranker = new ToolRanker([
      tool("repo_create_issue", "Open a new issue in a repository with a title, body and labels."),
      tool("repo_add_issue_comment", "Comment on an issue or a pull request."),
      tool("tracker_add_worklog", "Log time spent on a ticket."),
      tool("crm_log_call", "Log a phone call activity on a record."),
    ]);
    const first = (query: string) => ranker.search(query, 1)[0]?.name;
    expect(first("log a problem: the export button does nothing")).toBe("repo_create_issue");
    expect(first("log a bug about the broken login")).toBe("repo_create_issue");
    expect(first("log 2 hours on the ticket")).toBe("tracker_add_worklog");
  });
});

describe("what mail clients call an invitation", () => {
  it("reads a meeting request or a calendar invite as an invitation, not a pull request", () => {
    expect(catalogFirst("decline the meeting request from sales")).toBe("calendar_respond_to_invite");
    expect(phraseKey("meeting request")).toBe("meet request");
    expect(synonymTable().get("meet request")).toContainEqual(["invitation"]);
  });
});

describe("two that are the same one", () => {
  it("reads the same problem or complaint as a duplicate", () => {
    expect(catalogFirst("#310 and #311 are the same problem, combine them")).toBe("zendesk_merge_tickets");
    expect(synonymTable().get(phraseKey("same complaint"))).toContainEqual(["duplicat"]);
  });
});

describe("a calendar besides one's own", () => {
  it("reads a separate, another or extra calendar as a secondary calendar to create, not an event", () => {
    const ranker = new ToolRanker(toolCatalog());
    const first = (query: string) => ranker.search(query, 1)[0]?.name;
    expect(first("I want a second calendar for side projects")).toBe("calendar_create_calendar");
    const scores = ranker.search("set up a separate calendar for the support rota", 2);
    expect(scores[0]?.name).toBe("calendar_create_calendar");
    expect(scores[0]!.score).toBeGreaterThan(1.5 * scores[1]!.score);
  });
});

describe("a sheet", () => {
  it("is a spreadsheet and a document: finding or guarding one is about a document, making one a spreadsheet", () => {
    expect(catalogFirst("locate the headcount sheet in Drive")).toBe("drive_search_files");
    expect(catalogFirst("who can see the bonus sheet in Drive")).toBe("drive_get_permissions");
    expect(catalogFirst("make a new sheet for travel costs")).toBe("drive_create_spreadsheet");
  });
});

describe("incidents sent up and people woken", () => {
  const ranker = new ToolRanker([
    tool("oncall_escalate_incident", "Escalate an incident to the next level."),
    tool("oncall_trigger_incident", "Trigger an incident and page the on-call responder."),
    tool("oncall_get_on_call", "Find who is on call now for a schedule."),
    tool("oncall_resolve_incident", "Resolve an incident."),
    tool("mail_send_email", "Send an email to recipients."),
    tool("docs_get_page", "Read a page's content."),
  ]);
  const first = (query: string) => ranker.search(query, 1)[0]?.name;

  it("escalates an incident sent up or given to someone more senior", () => {
    expect(first("nobody answered, send the incident up to the manager")).toBe("oncall_escalate_incident");
    expect(first("get someone more senior on this incident")).toBe("oncall_escalate_incident");
  });

  it("reads who gets woken up as who is on call", () => {
    expect(first("which engineer gets woken up tonight")).toBe("oncall_get_on_call");
  });
});
