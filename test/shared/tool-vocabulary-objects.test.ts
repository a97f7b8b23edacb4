import { describe, expect, it } from "vitest";
import { ToolRanker } from "../../src/shared/tool-ranker";
import { tool } from "./ranker-test-kit";

const first = (ranker: ToolRanker, query: string) => ranker.search(query, 1)[0]?.name;

describe("the names people give the things tools act on", () => {
  const ranker = new ToolRanker([
    tool("docs_delete_file", "Move a document to the trash."),
    tool("docs_share_file", "Share a document with people, as viewer, commenter or editor."),
    tool("docs_upload_document", "Upload a document to a folder."),
    tool("mail_create_draft", "Save a draft email without sending it."),
    tool("chat_upload_file", "Upload a file to a channel."),
    tool("chat_post_message", "Post a message to a channel or a thread."),
    tool("repo_create_branch", "Create a branch from another branch or a commit."),
    tool("repo_list_pull_requests", "List the pull requests of a repository, filtered by state and author."),
    tool("repo_list_workflow_runs", "List the CI workflow runs of a repository and their conclusions."),
    tool("repo_create_issue", "Open a new issue in a repository."),
    tool("repo_search_code", "Search code across repositories."),
    tool("chat_get_user_profile", "Look up a member's profile: name, title, time zone."),
    tool("phone_list_calls", "List recent phone calls."),
    tool("phone_buy_phone_number", "Buy a phone number in a country."),
    tool("phone_verify_phone", "Send a one-time verification code to a phone number."),
    tool("tickets_set_priority", "Set a support ticket's priority."),
    tool("tickets_search_tickets", "Search support tickets by status, requester and text."),
    tool("db_table_sizes", "Report table and index sizes on disk."),
    tool("db_list_tables", "List the tables of a schema."),
  ]);

  it("reads kinds of document as a document", () => {
    expect(first(ranker, "throw the old draft proposal in the trash")).toBe("docs_delete_file");
    expect(first(ranker, "bin the unsigned contract")).toBe("docs_delete_file");
  });

  it("reads kinds of picture as an image or a file", () => {
    expect(first(ranker, "get the architecture diagram into #design")).toBe("chat_upload_file");
  });

  it("reads sharing a file in a #channel as an upload to the channel, not a file's permissions", () => {
    expect(first(ranker, "share the screenshot png in #design")).toBe("chat_upload_file");
    expect(first(ranker, "share the Q3-metrics.png screenshot in the #design channel")).toBe(
      "chat_upload_file",
    );
    expect(first(ranker, "share the budget sheet with Dana as editor")).toBe("docs_share_file");
  });

  it("reads a repository's trunk as a branch, and its changes up for review as pull requests", () => {
    expect(first(ranker, "cut feature/retry off main")).toBe("repo_create_branch");
    expect(first(ranker, "which changesets by Dana are waiting")).toBe("repo_list_pull_requests");
  });

  it("reads CI's colours as a run's conclusion", () => {
    expect(first(ranker, "is the nightly green yet?")).toBe("repo_list_workflow_runs");
  });

  it("reads code's parts as code", () => {
    expect(first(ranker, "every call site of parseConfig")).toBe("repo_search_code");
  });

  it("reads a person's role as their title", () => {
    expect(first(ranker, "what's Priya's job title")).toBe("chat_get_user_profile");
  });

  it("reads a support line as a phone number, and a login code as a verification code", () => {
    expect(first(ranker, "get us a second support line")).toBe("phone_buy_phone_number");
    expect(first(ranker, "send Sam a login code")).toBe("phone_verify_phone");
  });

  it("reads a priority's short code as a priority", () => {
    expect(first(ranker, "make ticket 4410 a P1")).toBe("tickets_set_priority");
  });

  it("reads room on disk as size", () => {
    expect(first(ranker, "which tables take up the most space")).toBe("db_table_sizes");
  });
});

describe("the asker's own names for things", () => {
  const ranker = new ToolRanker([
    tool("repo_list_pull_requests", "List the pull requests of a repository, filtered by state and author."),
    tool("repo_create_issue", "Open a new issue in a repository with a title, body and labels."),
    tool("db_list_locks", "List the locks held and waited for."),
    tool("db_explain_query", "Show a query's execution plan with EXPLAIN ANALYZE."),
    tool("docs_export_pdf", "Export a document or spreadsheet as PDF."),
    tool("docs_list_revisions", "List the revision history of a document."),
    tool("docs_share_file", "Share a document with people, as viewer, commenter or editor."),
    tool("crm_create_lead", "Create a sales lead with company and contact details."),
    tool("crm_list_reports", "List the saved reports and dashboards."),
    tool("phone_send_sms", "Send an SMS text message to a phone number."),
    tool("phone_verify_phone", "Send a one-time verification code to a phone number."),
  ]);

  it("reads proposed code changes as pull requests and a problem report as an issue", () => {
    expect(first(ranker, "what code changes are waiting for review")).toBe("repo_list_pull_requests");
    expect(first(ranker, "write up a problem report on the repo")).toBe("repo_create_issue");
  });

  it("reads a printable file, the edit history, the planner, a PIN and a potential buyer", () => {
    expect(first(ranker, "make the budget printable")).toBe("docs_export_pdf");
    expect(first(ranker, "show the edit history of the spec")).toBe("docs_list_revisions");
    expect(first(ranker, "show how the planner handles my join")).toBe("db_explain_query");
    expect(first(ranker, "text a login PIN to the user's mobile")).toBe("phone_verify_phone");
    expect(first(ranker, "enter a potential buyer we met at the trade show")).toBe("crm_create_lead");
  });
});

describe("storage places and toll-free lines", () => {
  const ranker = new ToolRanker([
    tool("store_list_objects", "List the objects under a prefix of a bucket."),
    tool("store_create_bucket", "Create a bucket in a region."),
    tool("files_list_documents", "List the documents in a folder."),
    tool("phone_buy_phone_number", "Buy a phone number in a country."),
    tool("calendar_find_free_time", "Find time slots when all attendees are free."),
    tool("crm_create_customer", "Create a customer with email and billing address."),
  ]);

  it("reads storage as a bucket", () => {
    expect(first(ranker, "list what's in the backups storage")).toBe("store_list_objects");
    expect(first(ranker, "set up object storage for the build artifacts")).toBe("store_create_bucket");
  });

  it("reads a toll-free line as a phone number, not free time", () => {
    expect(first(ranker, "we need a toll-free line for customer service")).toBe("phone_buy_phone_number");
    expect(first(ranker, "get a toll free number for the hotline")).toBe("phone_buy_phone_number");
  });
});

describe("an action named by its noun", () => {
  const ranker = new ToolRanker([
    tool("phone_verify_phone", "Send a one-time verification code to a phone number."),
    tool("phone_check_verification", "Check a one-time verification code."),
    tool("shop_cancel_subscription", "Cancel a subscription now or at period end."),
    tool("shop_list_charges", "List the charges of a period."),
    tool("docs_delete_file", "Move a document to the trash."),
    tool("docs_search_files", "Search documents and files by name and content."),
  ]);

  it("stands for its verb: a confirmation is verified, a cancellation cancels, a deletion deletes", () => {
    expect(first(ranker, "did the customer pass the phone confirmation?")).toBe("phone_check_verification");
    expect(first(ranker, "process the cancellation of the Acme plan")).toBe("shop_cancel_subscription");
    expect(first(ranker, "request deletion of the old contract file")).toBe("docs_delete_file");
  });
});

describe("a mobile, and a second factor by its kind", () => {
  const ranker = new ToolRanker([
    tool("phone_verify_phone", "Send a one-time verification code to a phone number."),
    tool("phone_lookup_number", "Look up a phone number's carrier and type."),
    tool("phone_buy_phone_number", "Buy a phone number in a country."),
  ]);

  it("reads two-factor and two-step as a verification code, a mobile as a phone", () => {
    expect(first(ranker, "start two-factor login for this number")).toBe("phone_verify_phone");
    expect(first(ranker, "set up two-step sign in for Ana")).toBe("phone_verify_phone");
    expect(first(ranker, "which carrier is Dana's mobile on?")).toBe("phone_lookup_number");
  });
});
