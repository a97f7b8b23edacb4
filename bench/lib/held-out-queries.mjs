// Held-out queries for the tool-search ranking (issue 45): written over the 150-tool catalog of
// bench/lib/tool-catalog.mjs as a model would phrase a search, WITHOUT looking at the 50 tuned
// queries (QUERIES there) and BEFORE any change to the ranker, and committed alone. They are a
// measurement, never a target: do not edit, add or drop queries to move the figures. A query marked
// `synonym` needs a word the tool's name and description do not have (find → search, money back →
// refund, text → SMS, ...). The ranking reported in bench/README.md ("Tool search") is top-1 and
// top-3 on these beside the tuned set.

/** @type {Array<{ query: string, tool: string, synonym?: true }>} */
export const HELD_OUT_QUERIES = [
  // GitHub
  { query: "find where a function is defined across our GitHub repos", tool: "github_search_code", synonym: true },
  { query: "what pull requests are still open on the repo", tool: "github_list_pull_requests" },
  { query: "ship a new version with release notes from the v2.3 tag", tool: "github_create_release" },
  { query: "leave a comment on PR 42", tool: "github_add_issue_comment", synonym: true },
  { query: "did the CI build pass on main", tool: "github_list_workflow_runs" },
  { query: "make my own copy of the upstream repo", tool: "github_fork_repository", synonym: true },
  { query: "show me the README from the repository", tool: "github_get_file_contents" },
  // Slack
  { query: "send a note to the #engineering channel in Slack", tool: "slack_post_message", synonym: true },
  { query: "what did people say in the #general channel today", tool: "slack_get_channel_history", synonym: true },
  { query: "react with a thumbs up to that Slack message", tool: "slack_add_reaction" },
  { query: "queue a Slack announcement to go out on Monday at 9am", tool: "slack_schedule_message", synonym: true },
  { query: "what time zone is Priya in on Slack", tool: "slack_get_user_profile" },
  { query: "start a new Slack channel for the launch", tool: "slack_create_channel", synonym: true },
  { query: "look for the message where someone mentioned the outage in Slack", tool: "slack_search_messages", synonym: true },
  // Jira
  { query: "file a bug in Jira for the login crash", tool: "jira_create_issue", synonym: true },
  { query: "move PROJ-12 to Done", tool: "jira_transition_issue" },
  { query: "give this Jira ticket to Maria", tool: "jira_assign_issue", synonym: true },
  { query: "record 3 hours spent on the ticket", tool: "jira_add_worklog", synonym: true },
  { query: "what's in the current sprint", tool: "jira_get_sprint" },
  { query: "mark JIRA-5 as blocked by JIRA-4", tool: "jira_link_issues" },
  // Gmail
  { query: "email the quarterly report to finance@acme.com", tool: "gmail_send_email" },
  { query: "find the invoice emails from Acme last month", tool: "gmail_search_emails", synonym: true },
  { query: "write an email reply but don't send it yet", tool: "gmail_create_draft" },
  { query: "get rid of these newsletters from my inbox without deleting them", tool: "gmail_archive_email" },
  { query: "set up a rule so mail from recruiters gets labeled automatically", tool: "gmail_create_filter", synonym: true },
  { query: "pass this email along to my accountant", tool: "gmail_forward_email", synonym: true },
  { query: "what labels do I have in Gmail", tool: "gmail_list_labels" },
  // Google Calendar
  { query: "book a meeting with Sam on Thursday at 3", tool: "calendar_create_event", synonym: true },
  { query: "reschedule the standup to 10am", tool: "calendar_update_event", synonym: true },
  { query: "when are Alice and Bob both available next week", tool: "calendar_find_free_time", synonym: true },
  { query: "cancel Friday's team lunch on my calendar", tool: "calendar_delete_event" },
  { query: "decline the invitation to the all-hands", tool: "calendar_respond_to_invite" },
  { query: "what's on my calendar tomorrow", tool: "calendar_list_events" },
  { query: "ping me 15 minutes before the board meeting", tool: "calendar_set_reminder", synonym: true },
  // Google Drive
  { query: "locate the Q3 budget sheet in Drive", tool: "drive_search_files", synonym: true },
  { query: "give Tom edit access to the design doc", tool: "drive_share_file", synonym: true },
  { query: "save the contract as a PDF", tool: "drive_export_pdf" },
  { query: "who can see the roadmap document", tool: "drive_get_permissions", synonym: true },
  { query: "throw away the old draft doc in Drive", tool: "drive_delete_file", synonym: true },
  { query: "see earlier versions of the spec document", tool: "drive_list_revisions", synonym: true },
  { query: "new folder for the 2027 invoices in Drive", tool: "drive_create_folder" },
  // Stripe
  { query: "give the customer their money back for order 1182", tool: "stripe_refund_payment", synonym: true },
  { query: "how much money do we have in Stripe right now", tool: "stripe_get_balance", synonym: true },
  { query: "bill Acme for the consulting hours", tool: "stripe_create_invoice", synonym: true },
  { query: "sign the customer up for the monthly plan", tool: "stripe_create_subscription", synonym: true },
  { query: "stop Bob's subscription at the end of the month", tool: "stripe_cancel_subscription", synonym: true },
  { query: "make a 20% off promo code", tool: "stripe_create_coupon", synonym: true },
  { query: "which payments are customers contesting", tool: "stripe_list_disputes", synonym: true },
  // Salesforce
  { query: "add a new prospect from the trade show to Salesforce", tool: "salesforce_create_lead", synonym: true },
  { query: "move the Acme deal to closed won", tool: "salesforce_update_opportunity", synonym: true },
  { query: "note in the CRM that I phoned the client this morning", tool: "salesforce_log_call", synonym: true },
  { query: "turn this qualified lead into an account", tool: "salesforce_convert_lead" },
  // Zendesk
  { query: "answer the customer's support ticket about shipping", tool: "zendesk_reply_to_ticket", synonym: true },
  { query: "these two tickets are the same complaint, combine them", tool: "zendesk_merge_tickets", synonym: true },
  { query: "make ticket 3302 urgent", tool: "zendesk_set_ticket_priority", synonym: true },
  { query: "how happy are customers with support lately", tool: "zendesk_get_satisfaction_ratings", synonym: true },
  { query: "write a help article on resetting passwords", tool: "zendesk_create_article" },
  // Datadog
  { query: "what's the CPU usage on the web servers over the last hour", tool: "datadog_query_metrics" },
  { query: "alert me when p99 latency goes above 500ms", tool: "datadog_create_monitor" },
  { query: "silence the disk space alert during the migration", tool: "datadog_mute_monitor", synonym: true },
  { query: "grep the error logs of the checkout service", tool: "datadog_search_logs", synonym: true },
  { query: "mark the deploy on the Datadog timeline", tool: "datadog_post_event" },
  // PagerDuty
  { query: "who's on call for the payments team right now", tool: "pagerduty_get_on_call" },
  { query: "page the on-call engineer about the database outage", tool: "pagerduty_trigger_incident" },
  { query: "close out the incident, it's fixed", tool: "pagerduty_resolve_incident", synonym: true },
  { query: "I'm taking over Jane's on-call shift on Saturday", tool: "pagerduty_create_override" },
  { query: "what incidents are open on PagerDuty", tool: "pagerduty_list_incidents" },
  // Notion
  { query: "add a to-do list to the meeting notes page in Notion", tool: "notion_append_blocks" },
  { query: "look up the onboarding page in Notion", tool: "notion_search_pages", synonym: true },
  { query: "change the status of this row in the Notion tasks database", tool: "notion_update_page_properties" },
  { query: "who's in our Notion workspace", tool: "notion_list_users", synonym: true },
  // Amazon S3
  { query: "download the backup file from the S3 bucket", tool: "s3_get_object" },
  { query: "store this CSV in S3", tool: "s3_put_object", synonym: true },
  { query: "give me a temporary link to share the video in S3", tool: "s3_presign_url", synonym: true },
  { query: "automatically delete logs older than 30 days in the S3 bucket", tool: "s3_set_lifecycle_rule" },
  { query: "keep old versions of files in the bucket", tool: "s3_enable_versioning" },
  // PostgreSQL
  { query: "what columns does the orders table have", tool: "postgres_describe_table" },
  { query: "which queries are slowing the database down", tool: "postgres_list_slow_queries" },
  { query: "why is this query slow, show the plan", tool: "postgres_explain_query" },
  { query: "how much disk space are the Postgres tables using", tool: "postgres_table_sizes" },
  { query: "stop the runaway query that's been going for an hour", tool: "postgres_kill_query", synonym: true },
  { query: "speed up lookups on users.email in Postgres", tool: "postgres_create_index", synonym: true },
  // Twilio
  { query: "text the driver that the package is ready", tool: "twilio_send_sms", synonym: true },
  { query: "send a WhatsApp to +44 7700 900123", tool: "twilio_send_whatsapp" },
  { query: "call the customer and play the reminder", tool: "twilio_make_call" },
  { query: "send a login code to the user's phone", tool: "twilio_verify_phone", synonym: true },
  { query: "what carrier is this number on", tool: "twilio_lookup_number" },
  { query: "get a new phone number in Canada", tool: "twilio_buy_phone_number", synonym: true },
];
