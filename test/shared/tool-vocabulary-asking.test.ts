import { describe, expect, it } from "vitest";
import { ToolRanker } from "../../src/shared/tool-ranker";
import { tool } from "./ranker-test-kit";

const first = (ranker: ToolRanker, query: string) => ranker.search(query, 1)[0]?.name;

describe("how people ask for what a tool does without its words", () => {
  const ranker = new ToolRanker([
    tool("calendar_create_event", "Create a calendar event or meeting with attendees, time and location."),
    tool("calendar_update_event", "Change an event's time, title or attendees."),
    tool("calendar_get_event", "Get one event's details."),
    tool("calendar_list_events", "List the events between two dates."),
    tool("calendar_find_free_time", "Find time slots when all attendees are free."),
    tool("mail_search_emails", "Search the mailbox with query syntax."),
    tool("mail_read_email", "Read one email thread in full."),
    tool("mail_add_label", "Add a label to emails."),
    tool("mail_create_filter", "Create a filter that labels or forwards incoming mail."),
    tool("drive_share_file", "Share a document with people, as viewer, commenter or editor."),
    tool("drive_get_permissions", "List who has access to a document."),
    tool("crm_get_account", "Get an account's details and related records."),
    tool("crm_create_contact", "Create a contact under an account."),
    tool("oncall_trigger_incident", "Trigger an incident and page the on-call responder."),
    tool("oncall_create_maintenance_window", "Create a maintenance window that silences paging."),
    tool("notes_search_pages", "Search pages and databases by title."),
    tool("pay_create_subscription", "Subscribe a customer to a recurring price plan."),
    tool("calendar_respond_to_invite", "Accept, decline or tentatively accept an invitation."),
    tool("repo_create_branch", "Create a branch from another branch or a commit."),
    tool("repo_list_workflow_runs", "List the CI workflow runs of a repository and their conclusions."),
    tool("repo_get_file_contents", "Read a file's contents at a path and ref of a repository."),
    tool("mail_forward_email", "Forward an email to another address."),
    tool("chat_list_channels", "List the public and private channels of the workspace."),
    tool("pay_create_payment_link", "Create a shareable checkout payment link."),
  ]);

  it("reads questions about who is coming as an event's attendees and details", () => {
    expect(first(ranker, "who's coming to the board meeting")).toBe("calendar_get_event");
    expect(first(ranker, "who's invited to Friday's offsite")).toBe("calendar_get_event");
  });

  it("reads the question put with an auxiliary the same: who is invited, has been invited, will be attending", () => {
    expect(first(ranker, "who is invited to Friday's offsite")).toBe("calendar_get_event");
    expect(first(ranker, "who has been invited to the kickoff")).toBe("calendar_get_event");
    expect(first(ranker, "who will be attending the retro")).toBe("calendar_get_event");
  });

  it("reads hearing from someone as mail received, and a thing shared with someone as its access", () => {
    expect(first(ranker, "have we heard back from the landlord")).toBe("mail_search_emails");
    expect(first(ranker, "is the salary doc shared with anyone outside HR?")).toBe("drive_get_permissions");
  });

  it("reads every time from now on as a rule", () => {
    expect(first(ranker, "from now on, anything from the bank goes to Finance")).toBe("mail_create_filter");
  });

  it("reads not paging anyone as silencing paging, and someone got out of bed as a page", () => {
    expect(first(ranker, "planned work tonight, don't page anyone")).toBe("oncall_create_maintenance_window");
    expect(first(ranker, "checkout is down, get someone out of bed")).toBe("oncall_trigger_incident");
  });

  it("reads count me in and count me out as an answer to an invitation", () => {
    expect(first(ranker, "count me in for Friday's offsite")).toBe("calendar_respond_to_invite");
    expect(first(ranker, "count me out of the planning session")).toBe("calendar_respond_to_invite");
  });

  it("reads whether a build or its tests passed as CI runs, and a branch named as where as a ref", () => {
    expect(first(ranker, "did the build pass on main?")).toBe("repo_list_workflow_runs");
    expect(first(ranker, "are the tests still failing on master")).toBe("repo_list_workflow_runs");
    expect(first(ranker, "what's in package.json on the main branch")).toBe("repo_get_file_contents");
    expect(first(ranker, "cut feature/retry off main")).toBe("repo_create_branch");
  });

  it("reads an event's room, call link or start time, asked about, as one event's details", () => {
    expect(first(ranker, "which room is the quarterly review in")).toBe("calendar_get_event");
    expect(first(ranker, "what's the zoom link for Monday's retro")).toBe("calendar_get_event");
    expect(first(ranker, "what time does the all-hands start")).toBe("calendar_get_event");
  });
});

describe("pages asked to stop", () => {
  const ranker = new ToolRanker([
    tool("oncall_acknowledge_incident", "Acknowledge an incident to stop escalation."),
    tool("oncall_create_maintenance_window", "Create a maintenance window that silences paging."),
    tool("oncall_trigger_incident", "Trigger an incident and page the on-call responder."),
    tool("docs_archive_page", "Archive a page."),
    tool("db_kill_query", "Cancel or terminate a running backend query."),
    tool("pay_cancel_subscription", "Cancel a subscription."),
  ]);

  it("by the one paged acknowledge the incident", () => {
    expect(first(ranker, "I'm looking at it, stop the pages")).toBe("oncall_acknowledge_incident");
    expect(first(ranker, "I'm on it, stop paging")).toBe("oncall_acknowledge_incident");
  });

  it("for anyone at all silence paging for a while", () => {
    expect(first(ranker, "stop paging anyone during tonight's database upgrade")).toBe(
      "oncall_create_maintenance_window",
    );
  });
});
