// A third query set for client-side tool search (issue 45, second round): 77 queries written by the
// helper of the second round over the 150-tool catalog of bench/lib/tool-catalog.mjs, BEFORE any
// change of that round to the ranker, and committed alone. It is a measurement, never a target: do
// not edit, add or drop queries to move the figures, and do not tune the ranker or its synonyms on
// its misses (the tuned, held-out and fresh sets are there for that). Phrased as a model would
// search: imperatives, questions without an action word, entity shapes (#channel, ABC-123, emails,
// amounts, paths), with and without the service's name. `synonym: true` marks a query whose key word
// is not in the tool's name or description (21 of 77).

/** @type {Array<{ query: string, tool: string, synonym?: true }>} */
export const BLIND_QUERIES = [
  // GitHub
  { query: "open an issue on acme/webapp about the broken signup form", tool: "github_create_issue" },
  { query: "are there any PRs waiting for review from @dana", tool: "github_list_pull_requests" },
  { query: "land PR #311 with a squash", tool: "github_merge_pull_request", synonym: true },
  { query: "branch off main for the hotfix", tool: "github_create_branch" },
  { query: "grab the contents of src/config.yaml at the v1.2 tag", tool: "github_get_file_contents" },
  // Slack
  { query: "let #design know the mockups are ready", tool: "slack_post_message", synonym: true },
  { query: "catch me up on what happened in #support this morning", tool: "slack_get_channel_history", synonym: true },
  { query: "change the topic of #release to 'freeze until Thursday'", tool: "slack_set_channel_topic" },
  { query: "share the screenshot in the #bugs channel", tool: "slack_upload_file", synonym: true },
  { query: "which Slack channels exist", tool: "slack_list_channels" },
  // Jira
  { query: "create a story in the MOBILE project for dark mode", tool: "jira_create_issue" },
  { query: "put ABC-451 in progress", tool: "jira_transition_issue" },
  { query: "hand WEB-88 over to Priya", tool: "jira_assign_issue", synonym: true },
  { query: "I spent 3h on OPS-19 yesterday, log it", tool: "jira_add_worklog" },
  { query: "what's in the current sprint", tool: "jira_get_sprint" },
  { query: "mark BACK-7 as a duplicate of BACK-3", tool: "jira_link_issues" },
  // Gmail
  { query: "email the contract to legal@acme.com", tool: "gmail_send_email" },
  { query: "any emails from my bank this week?", tool: "gmail_search_emails" },
  { query: "open the thread with the subject 'Offsite plans'", tool: "gmail_read_email" },
  { query: "clean up my inbox by archiving the newsletters", tool: "gmail_archive_email" },
  { query: "forward the receipt to expenses@company.com", tool: "gmail_forward_email" },
  { query: "tag these messages as Travel", tool: "gmail_add_label", synonym: true },
  // Google Calendar
  { query: "set up a 30 minute call with Lee and Ana on Thursday", tool: "calendar_create_event" },
  { query: "move my 3pm dentist appointment to 4:30", tool: "calendar_update_event", synonym: true },
  { query: "am I busy on Friday afternoon", tool: "calendar_list_events", synonym: true },
  { query: "accept the invite to the all-hands", tool: "calendar_respond_to_invite" },
  { query: "call off tomorrow's 1:1 with Ben", tool: "calendar_delete_event", synonym: true },
  { query: "find a slot when the whole team can meet next week", tool: "calendar_find_free_time" },
  // Google Drive
  { query: "put the signed PDF in the Contracts folder on Drive", tool: "drive_upload_document", synonym: true },
  { query: "search my Drive for the onboarding deck", tool: "drive_search_files" },
  { query: "make a new folder called Q4 planning", tool: "drive_create_folder" },
  { query: "throw the old draft proposal in the trash", tool: "drive_delete_file" },
  { query: "give finance view-only access to the budget doc", tool: "drive_share_file", synonym: true },
  { query: "who has access to the hiring plan doc?", tool: "drive_get_permissions" },
  // Stripe
  { query: "refund $49.99 to the customer for order 1182", tool: "stripe_refund_payment" },
  { query: "what's our available balance on Stripe", tool: "stripe_get_balance" },
  { query: "create a 15% discount code", tool: "stripe_create_coupon" },
  { query: "sign jane@example.com up for the Pro monthly plan", tool: "stripe_create_subscription", synonym: true },
  { query: "send a customer a link to pay $200", tool: "stripe_create_payment_link" },
  { query: "list payments we took in November", tool: "stripe_list_charges", synonym: true },
  // Salesforce
  { query: "add Globex as a lead, contact is Hank Scorpio", tool: "salesforce_create_lead" },
  { query: "the Initech deal moved to negotiation, update it", tool: "salesforce_update_opportunity" },
  { query: "SOQL: all accounts in Ohio", tool: "salesforce_run_soql_query" },
  { query: "log the phone call I just had with Acme's CFO", tool: "salesforce_log_call" },
  { query: "the lead from Umbrella Corp is qualified, convert it", tool: "salesforce_convert_lead" },
  // Zendesk
  { query: "answer ticket #4521 telling the customer a fix is coming", tool: "zendesk_reply_to_ticket", synonym: true },
  { query: "bump the priority of the checkout ticket to urgent", tool: "zendesk_set_ticket_priority" },
  { query: "find support tickets about refunds that are still open", tool: "zendesk_search_tickets" },
  { query: "publish a help center article on resetting passwords", tool: "zendesk_create_article" },
  { query: "block the abusive end user in Zendesk", tool: "zendesk_suspend_user", synonym: true },
  // Datadog
  { query: "graph memory usage of the web service over the last day", tool: "datadog_query_metrics" },
  { query: "grep the logs of the payments service for timeouts", tool: "datadog_search_logs", synonym: true },
  { query: "mark the deploy of v5.1 on the event stream", tool: "datadog_post_event" },
  { query: "which hosts are reporting to Datadog", tool: "datadog_list_hosts" },
  { query: "show the traces for slow checkout requests", tool: "datadog_get_apm_traces" },
  // PagerDuty
  { query: "wake up whoever is on call, the site is down", tool: "pagerduty_trigger_incident", synonym: true },
  { query: "ack the incident so it stops escalating", tool: "pagerduty_acknowledge_incident", synonym: true },
  { query: "mark the database incident as resolved", tool: "pagerduty_resolve_incident" },
  { query: "silence paging during tonight's database upgrade", tool: "pagerduty_create_maintenance_window" },
  // Notion
  { query: "add a meeting notes page in Notion", tool: "notion_create_page" },
  { query: "look up the Notion page titled Roadmap 2025", tool: "notion_search_pages" },
  { query: "change the status column of this row to Done", tool: "notion_update_page_properties", synonym: true },
  { query: "who is in our Notion workspace", tool: "notion_list_users" },
  // Amazon S3
  { query: "upload backup.tar.gz to the s3 bucket nightly-backups", tool: "s3_put_object" },
  { query: "download s3://assets/logo.png", tool: "s3_get_object" },
  { query: "what files are under the logs/2024/ prefix", tool: "s3_list_objects" },
  { query: "keep old versions of objects in the bucket", tool: "s3_enable_versioning", synonym: true },
  // PostgreSQL
  { query: "what columns does the orders table have", tool: "postgres_describe_table" },
  { query: "which queries are taking the most time in Postgres", tool: "postgres_list_slow_queries" },
  { query: "kill the stuck query with pid 4412", tool: "postgres_kill_query" },
  { query: "how much disk does each table take", tool: "postgres_table_sizes" },
  { query: "select the 10 newest signups from users", tool: "postgres_run_query" },
  // Twilio
  { query: "text +1 415 555 0100 that the order shipped", tool: "twilio_send_sms" },
  { query: "send a verification code to the user's phone", tool: "twilio_verify_phone" },
  { query: "WhatsApp the driver the pickup address", tool: "twilio_send_whatsapp" },
  { query: "who is the carrier for +44 20 7946 0958", tool: "twilio_lookup_number" },
  { query: "get me a new phone number in Canada", tool: "twilio_buy_phone_number", synonym: true },
];
