// A seventh held-out query set for client-side tool search (issue 45): 180 requests over the 150
// tools of tool-catalog.mjs, each tool the answer at least once, 12 per service. Written from the
// catalog's names, descriptions and input schemas alone, by someone who had seen neither the ranker
// nor any other query set, before any measurement with it. Each request has one fair answer in the
// catalog: where two tools could both serve it, it was rewritten (often by naming the service).
// They are phrased as a model or a user would mid-task: orders, questions, bare keywords, passive
// voice, long requests with context, a few typos; some name the service, some do not.
// `synonym: true` marks a request that shares no content word with its tool's name or description
// (stop words and the service's own name aside, word forms of one stem counted as the same word):
// the asker's own words for the action and the object. 105 of the 180 are so marked.
// Keep it held out: do not tune the ranker on it, report aggregate figures only.

/** @type {{ query: string, tool: string, synonym?: true }[]} */
export const SEVENTH_QUERIES = [
  // GitHub
  { query: "open a github issue for the flaky login test and label it bug", tool: "github_create_issue" },
  { query: "file a GitHub bug report: app crashes on startup when offline", tool: "github_create_issue", synonym: true },
  { query: "which PRs are still waiting on review in our GitHub org?", tool: "github_list_pull_requests", synonym: true },
  { query: "list open pull reqeusts by alice", tool: "github_list_pull_requests" },
  { query: "GitHub: land PR #482 into main now that CI is green", tool: "github_merge_pull_request", synonym: true },
  { query: "cut a new branch called fix/timeout off develop", tool: "github_create_branch" },
  {
    query: "I'm debugging the deploy script and need to see exactly what scripts/deploy.sh contains on the v2.3.0 tag of the repo before I touch anything",
    tool: "github_get_file_contents",
  },
  { query: "ship version 4.1.0 on GitHub with a changelog", tool: "github_create_release", synonym: true },
  { query: "leave a comment on github issue 311 saying the fix is in tonight's nightly", tool: "github_add_issue_comment" },
  { query: "did the GitHub Actions builds pass for the last few pushes to main?", tool: "github_list_workflow_runs", synonym: true },
  { query: "where in our GitHub org is the function parseInvoiceDate defined?", tool: "github_search_code", synonym: true },
  { query: "fork the upstream lodash repo into my own account", tool: "github_fork_repository" },

  // Slack
  { query: "tell #eng-deploys on Slack that the rollout is finished", tool: "slack_post_message", synonym: true },
  { query: "post in the #general channel: office closed Friday", tool: "slack_post_message" },
  { query: "slack channels list, including private ones", tool: "slack_list_channels" },
  { query: "catch me up on #incident-42 in Slack, I've been away all morning", tool: "slack_get_channel_history", synonym: true },
  { query: "thumbs-up Dana's post in Slack so she knows I saw it", tool: "slack_add_reaction", synonym: true },
  { query: "drop the crash screenshot PNG into the #qa Slack room", tool: "slack_upload_file", synonym: true },
  { query: "spin up a Slack room for the Q3 offsite and pull in Priya and Tom", tool: "slack_create_channel", synonym: true },
  { query: "the topic of #support should be changed to 'on-call: Ana this week'", tool: "slack_set_channel_topic" },
  { query: "who is @marco on Slack — what's his job and where is he based?", tool: "slack_get_user_profile", synonym: true },
  { query: "queue up the standup reminder for #team to go out at 9am tomorrow on Slack", tool: "slack_schedule_message", synonym: true },
  { query: "search slack for messages mentioning 'rate limit' from last week", tool: "slack_search_messages" },
  { query: "who in Slack brought up the Okta outage last Tuesday?", tool: "slack_search_messages", synonym: true },

  // Jira
  { query: "create a Jira bug in project PAY: checkout button unresponsive on Safari", tool: "jira_create_issue" },
  { query: "Jira: raise a defect for the broken CSV export", tool: "jira_create_issue", synonym: true },
  { query: "mark PAY-231 as finished in Jira", tool: "jira_transition_issue", synonym: true },
  { query: "PAY-88 needs to be handed over to Lena in Jira, she owns the billing code now", tool: "jira_assign_issue", synonym: true },
  { query: "jql: project = OPS AND status = Blocked ORDER BY created", tool: "jira_search_issues" },
  { query: "I put 3 hours into PAY-12 yesterday, record that against it in Jira", tool: "jira_add_worklog", synonym: true },
  { query: "what's in the current sprint on the mobile board?", tool: "jira_get_sprint" },
  { query: "new epic 'Payments v2' to hold the refund stories", tool: "jira_create_epic" },
  { query: "in Jira, note that PAY-40 can't start until PAY-39 has shipped", tool: "jira_link_issues", synonym: true },
  { query: "attach the HAR file to OPS-7 in jira", tool: "jira_add_attachment" },
  { query: "which Jira spaces do I have access to?", tool: "jira_list_projects", synonym: true },
  { query: "Jira: everything assigned to me that's still unresolved", tool: "jira_search_issues", synonym: true },

  // Gmail
  { query: "email the Q2 report to finance@acme.com with subject 'Q2 numbers'", tool: "gmail_send_email" },
  { query: "shoot Karen a note via Gmail saying the contract is signed", tool: "gmail_send_email", synonym: true },
  { query: "find everything from the landlord in my Gmail about the deposit", tool: "gmail_search_emails", synonym: true },
  { query: "gmail search from:ups.com has:attachment newer_than:30d", tool: "gmail_search_emails" },
  { query: "open the whole back-and-forth with Acme's lawyer in Gmail, every reply", tool: "gmail_read_email", synonym: true },
  { query: "compose a response to Jen in Gmail and hold it so I can look it over first", tool: "gmail_create_draft", synonym: true },
  { query: "label the three Stripe receipts in my inbox as 'Taxes 2024'", tool: "gmail_add_label" },
  {
    query: "clear the newsletters out of my Gmail so they stop cluttering the main view, but don't trash them",
    tool: "gmail_archive_email",
    synonym: true,
  },
  {
    query: "from now on, anything Jira sends me in Gmail should skip straight to its own 'Jira' folder automatically",
    tool: "gmail_create_filter",
    synonym: true,
  },
  { query: "mark all the unread gmail notifications from GitHub as read", tool: "gmail_mark_as_read" },
  { query: "what labels do i have in gmail", tool: "gmail_list_labels" },
  { query: "pass the vendor quote I got in Gmail along to procurement@acme.com", tool: "gmail_forward_email", synonym: true },

  // Google Calendar
  { query: "book a 30-minute sync with Ravi and Mei on Thursday at 2pm in room 4B", tool: "calendar_create_event", synonym: true },
  { query: "schedule a meeting with the vendor next Tuesday 10am, location HQ", tool: "calendar_create_event" },
  { query: "what's on my agenda next week?", tool: "calendar_list_events", synonym: true },
  { query: "push the 1:1 with Sam to Friday afternoon", tool: "calendar_update_event", synonym: true },
  { query: "cancel the Friday team lunch on my calender", tool: "calendar_delete_event" },
  { query: "the offsite on the 20th isn't happening anymore, take it off everyone's agenda", tool: "calendar_delete_event", synonym: true },
  {
    query: "I'm trying to set up a planning session with Ana and Luis sometime this week; before I send anything, when do we each have an open hour?",
    tool: "calendar_find_free_time",
    synonym: true,
  },
  { query: "RSVP yes to the board dinner on the 12th", tool: "calendar_respond_to_invite", synonym: true },
  { query: "make a separate calendar just for the kids' school stuff", tool: "calendar_create_calendar" },
  { query: "ping me 15 minutes ahead of the dentist appointment", tool: "calendar_set_reminder", synonym: true },
  { query: "which calendars am I subscribed to?", tool: "calendar_list_calendars" },
  { query: "who's invited to the 3pm design review and what's the dial-in?", tool: "calendar_get_event", synonym: true },

  // Google Drive
  { query: "upload contract_v3.docx to the Legal folder in Google Drive", tool: "drive_upload_document" },
  { query: "somewhere in Google Drive there's a deck about the 2023 pricing change — locate it", tool: "drive_search_files", synonym: true },
  { query: "search drive for files named roadmap", tool: "drive_search_files" },
  { query: "let Omar make changes to the budget sheet in Google Drive", tool: "drive_share_file", synonym: true },
  { query: "share the offsite agenda doc with the whole team as commenters", tool: "drive_share_file" },
  { query: "new folder 'Invoices 2025' in my drive", tool: "drive_create_folder" },
  { query: "relocate the employee handbook in Google Drive into HR/Policies", tool: "drive_move_file", synonym: true },
  { query: "get me a PDF of the Q3 budget spreadsheet", tool: "drive_export_pdf" },
  { query: "in Google Drive, dig up earlier versions of the pricing writeup and who edited each", tool: "drive_list_revisions", synonym: true },
  { query: "get rid of the old draft proposal in Google Drive", tool: "drive_delete_file", synonym: true },
  { query: "create a spreadsheet for the hiring pipeline with tabs Applicants and Offers", tool: "drive_create_spreadsheet" },
  { query: "Google Drive: can outsiders see the salary sheet? show me everyone it's open to", tool: "drive_get_permissions", synonym: true },

  // Stripe
  { query: "add a new Stripe customer: Globex Corp, billing@globex.com", tool: "stripe_create_customer" },
  { query: "Stripe: set up a new client record for Wayne Enterprises, statements go to ap@wayne.com", tool: "stripe_create_customer", synonym: true },
  { query: "send Globex a bill for $4,200 of March consulting through Stripe, due in 30 days", tool: "stripe_create_invoice", synonym: true },
  {
    query: "a buyer wrote in that the lamp from order 1183 arrived smashed; give them their $39 back via Stripe",
    tool: "stripe_refund_payment",
    synonym: true,
  },
  { query: "refund $12 of charge ch_3Nx8 — partial, not the whole thing", tool: "stripe_refund_payment" },
  { query: "stripe charges last month", tool: "stripe_list_charges" },
  { query: "put Initech on the $99/month Pro tier in Stripe, billed monthly", tool: "stripe_create_subscription", synonym: true },
  {
    query: "Initech wants to stop paying for Pro once their current term runs out — set that up in Stripe",
    tool: "stripe_cancel_subscription",
    synonym: true,
  },
  { query: "I need a URL people can click to buy a seminar pass for $150 (Stripe)", tool: "stripe_create_payment_link", synonym: true },
  { query: "how much money is sitting in Stripe right now, and how much is still on its way?", tool: "stripe_get_balance", synonym: true },
  { query: "make a 20% off coupon, code LAUNCH20", tool: "stripe_create_coupon" },
  { query: "have any cardholders contested purchases with their bank lately? check Stripe", tool: "stripe_list_disputes", synonym: true },

  // Salesforce
  { query: "add a salesforce lead: Jane Roe, VP Ops at Umbrella, jane@umbrella.io", tool: "salesforce_create_lead" },
  {
    query: "a prospect from the trade show, Kim Lee at Soylent, wants a demo — capture her in Salesforce",
    tool: "salesforce_create_lead",
    synonym: true,
  },
  { query: "the Umbrella deal in Salesforce is now worth 80k and should sign by end of June", tool: "salesforce_update_opportunity", synonym: true },
  { query: "SOQL: SELECT Id, Name FROM Account WHERE Industry = 'Retail'", tool: "salesforce_run_soql_query" },
  { query: "Salesforce: how many opportunities were closed-won this quarter, grouped by owner?", tool: "salesforce_run_soql_query", synonym: true },
  { query: "add Bob Ng as a contact on the existing Acme account in salesforce", tool: "salesforce_create_contact" },
  {
    query: "in Salesforce, note that I rang the Umbrella buyer this morning and we talked pricing for 20 minutes",
    tool: "salesforce_log_call",
    synonym: true,
  },
  { query: "Jane Roe's lead is qualified now, convert her in Salesforce", tool: "salesforce_convert_lead" },
  { query: "pull up everything Salesforce knows about Umbrella Corp: open deals, people, cases", tool: "salesforce_get_account", synonym: true },
  { query: "open a salesforce case: Umbrella says the export API times out", tool: "salesforce_create_case" },
  { query: "which pipeline analytics views has the revenue team built in Salesforce?", tool: "salesforce_list_reports", synonym: true },
  { query: "in Salesforce, Umbrella now belongs to the EMEA North region", tool: "salesforce_assign_territory", synonym: true },

  // Zendesk
  { query: "open a zendesk ticket for the customer who can't log in", tool: "zendesk_create_ticket" },
  { query: "a caller says her parcel never showed up; start a Zendesk case for it", tool: "zendesk_create_ticket", synonym: true },
  { query: "write back to the person on Zendesk #5521 telling them the fix ships Monday", tool: "zendesk_reply_to_ticket", synonym: true },
  { query: "search zendesk tickets from acme.com that are still pending", tool: "zendesk_search_tickets" },
  { query: "find every open Zendesk complaint that mentions 'refund'", tool: "zendesk_search_tickets", synonym: true },
  { query: "Zendesk #880 and #881 are the same problem reported twice by one user, fold them together", tool: "zendesk_merge_tickets", synonym: true },
  { query: "bump the priority of zendesk 7712 to urgent", tool: "zendesk_set_ticket_priority" },
  { query: "what canned responses do our Zendesk agents have available?", tool: "zendesk_list_macros", synonym: true },
  { query: "how happy were people with our Zendesk service last month? the survey scores", tool: "zendesk_get_satisfaction_ratings", synonym: true },
  { query: "publish a how-to in our Zendesk FAQ on resetting two-factor", tool: "zendesk_create_article", synonym: true },
  { query: "block that spammer from opening more requests in Zendesk", tool: "zendesk_suspend_user", synonym: true },
  { query: "tag zendesk ticket 4410 with 'billing' and 'refund'", tool: "zendesk_tag_ticket" },

  // Datadog
  { query: "datadog metrics: p99 latency of checkout-api over the last 6h", tool: "datadog_query_metrics" },
  { query: "how much RAM was web-3 using yesterday afternoon? Datadog", tool: "datadog_query_metrics", synonym: true },
  { query: "in Datadog, warn us whenever disk usage on the db hosts goes over 90%", tool: "datadog_create_monitor", synonym: true },
  { query: "create a datadog monitor that alerts when error rate > 5%", tool: "datadog_create_monitor" },
  { query: "mute the datadog monitor on disk space until noon", tool: "datadog_mute_monitor" },
  { query: "grep Datadog for stack dumps containing NullPointerException from payments-api", tool: "datadog_search_logs", synonym: true },
  { query: "what dashboards do we have in datadog?", tool: "datadog_list_dashboards" },
  { query: "in Datadog, build a board with charts for queue depth and consumer lag", tool: "datadog_create_dashboard", synonym: true },
  { query: "Datadog: follow one slow checkout request hop by hop across every backend it touches", tool: "datadog_get_apm_traces", synonym: true },
  { query: "post a datadog event that v2.8 was deployed to prod", tool: "datadog_post_event" },
  { query: "which machines is the Datadog agent running on, and are they up?", tool: "datadog_list_hosts", synonym: true },
  { query: "in Datadog, commit to 99.9% availability for the login API over 30 days and track it", tool: "datadog_create_slo", synonym: true },

  // PagerDuty
  { query: "PagerDuty: wake up whoever's covering payments, checkout is down", tool: "pagerduty_trigger_incident", synonym: true },
  { query: "trigger a pagerdty incident for the failed nightly backups", tool: "pagerduty_trigger_incident" },
  { query: "I've got it, claim the DB alert in PagerDuty so nobody else gets woken", tool: "pagerduty_acknowledge_incident", synonym: true },
  { query: "resolve pagerduty incident P7Q2, root cause fixed", tool: "pagerduty_resolve_incident" },
  { query: "who's on call for the platform team right now?", tool: "pagerduty_get_on_call" },
  { query: "PagerDuty: which engineer is carrying the beeper this week for the storage team?", tool: "pagerduty_get_on_call", synonym: true },
  { query: "what's currently firing in PagerDuty?", tool: "pagerduty_list_incidents", synonym: true },
  { query: "PagerDuty: jot down on P7Q2 that we rolled back the 14:05 deploy", tool: "pagerduty_add_incident_note", synonym: true },
  {
    query: "my kid's recital is Saturday evening, so Maria agreed to cover my PagerDuty rotation that night in my place",
    tool: "pagerduty_create_override",
    synonym: true,
  },
  { query: "list the pagerduty services and who each escalates to", tool: "pagerduty_list_services" },
  {
    query: "PagerDuty: we're upgrading the cluster 2-4am Sunday, keep things quiet during that",
    tool: "pagerduty_create_maintenance_window",
    synonym: true,
  },
  { query: "escalate P7Q2, the primary on-call isn't answering", tool: "pagerduty_escalate_incident" },

  // Notion
  { query: "create a notion page called 'Q3 OKRs'", tool: "notion_create_page" },
  { query: "start a fresh Notion doc for the retro notes", tool: "notion_create_page", synonym: true },
  {
    query: "in Notion, pull every row from the Reading List table where Status is 'To read', newest first",
    tool: "notion_query_database",
    synonym: true,
  },
  { query: "query the Notion tasks database for items due this week, sorted by priority", tool: "notion_query_database" },
  { query: "tack three next steps onto the bottom of my Notion launch plan", tool: "notion_append_blocks", synonym: true },
  { query: "search notion for the page titled 'Onboarding'", tool: "notion_search_pages" },
  { query: "Notion: flip the Status field on the Acme entry in our deals tracker to Won", tool: "notion_update_page_properties", synonym: true },
  { query: "create a notion database for bugs with columns Title, Severity and Reported on", tool: "notion_create_database" },
  { query: "leave a remark on the Notion roadmap asking who owns the Q4 milestone", tool: "notion_add_comment", synonym: true },
  { query: "what does our Notion onboarding guide actually say?", tool: "notion_get_page", synonym: true },
  { query: "the old 2022 planning page in notion should be archived", tool: "notion_archive_page" },
  { query: "who all has a seat in our Notion?", tool: "notion_list_users", synonym: true },

  // Amazon S3
  { query: "push backup-2024-06-01.tar.gz to s3://ops-archive/db/", tool: "s3_put_object", synonym: true },
  { query: "uplaod report.pdf to the s3 bucket acme-docs", tool: "s3_put_object" },
  { query: "download reports/2024/q2.csv from the finance bucket", tool: "s3_get_object" },
  { query: "fetch last night's dump from S3 onto my laptop", tool: "s3_get_object", synonym: true },
  { query: "what's stored in S3 at logs/2024/06/? just the keys", tool: "s3_list_objects", synonym: true },
  { query: "delete the object tmp/export.zip from the scratch bucket", tool: "s3_delete_object" },
  { query: "make a new s3 bucket in eu-west-1 named acme-media", tool: "s3_create_bucket" },
  { query: "give the auditor a link to ledger.xlsx in S3 that dies after 24 hours", tool: "s3_presign_url", synonym: true },
  { query: "S3: automatically purge whatever lands in logs/ once it's been there 90 days", tool: "s3_set_lifecycle_rule", synonym: true },
  { query: "copy s3://prod-assets/logo.svg into the staging-assets bucket", tool: "s3_copy_object" },
  { query: "who is allowed to touch the S3 store acme-media? show me the rules", tool: "s3_get_bucket_policy", synonym: true },
  { query: "S3: keep every past edit of files in acme-media so overwrites can be undone", tool: "s3_enable_versioning", synonym: true },

  // PostgreSQL
  { query: "run SELECT count(*) FROM orders WHERE created_at > now() - interval '1 day'", tool: "postgres_run_query" },
  { query: "Postgres: how many users signed up yesterday?", tool: "postgres_run_query", synonym: true },
  { query: "list the tables in the billing schema", tool: "postgres_list_tables" },
  { query: "what fields does the orders relation have in Postgres, and what kind is each?", tool: "postgres_describe_table", synonym: true },
  {
    query: "why is this join crawling? have Postgres walk me through the steps it takes, seq scan or not",
    tool: "postgres_explain_query",
    synonym: true,
  },
  { query: "EXPLAIN ANALYZE for the monthly revenue report SQL", tool: "postgres_explain_query" },
  { query: "which statements are slowest according to pg_stat_statements?", tool: "postgres_list_slow_queries" },
  { query: "add an index on orders(customer_id) without locking writes", tool: "postgres_create_index" },
  { query: "vacuum the events table, it's bloated", tool: "postgres_vacuum_table" },
  { query: "which sessions are blocking each other in Postgres right now?", tool: "postgres_list_locks", synonym: true },
  {
    query: "the nightly export job has been chewing CPU for an hour and holding everything up; stop pid 48213 in Postgres",
    tool: "postgres_kill_query",
    synonym: true,
  },
  { query: "which relations eat the most storage in our Postgres?", tool: "postgres_table_sizes", synonym: true },

  // Twilio
  { query: "text +14155550199: your courier is 5 min away", tool: "twilio_send_sms" },
  { query: "have Twilio ring the warehouse manager and read out a notice about the fire drill", tool: "twilio_make_call", synonym: true },
  { query: "Twilio: show the SMS history with +44 20 7946 0018, both directions", tool: "twilio_list_messages", synonym: true },
  { query: "buy a UK phone number on twilio for the London support line", tool: "twilio_buy_phone_number" },
  { query: "send a whatsapp to +5511987654321 confirming the appointment", tool: "twilio_send_whatsapp" },
  { query: "Twilio: kick off 2FA for the user at +1 212 555 0147", tool: "twilio_verify_phone", synonym: true },
  { query: "the user typed 482915 — is that the right verification code?", tool: "twilio_check_verification" },
  { query: "Twilio: the customer entered 204918, does that match the pin we sent them?", tool: "twilio_check_verification", synonym: true },
  { query: "get the recording of this morning's support call", tool: "twilio_get_call_recording" },
  { query: "is +1 646 555 0123 a mobile or a landline, and which operator? Twilio", tool: "twilio_lookup_number", synonym: true },
  { query: "list the last 20 calls on our twilio line", tool: "twilio_list_calls" },
  { query: "Twilio: who dialed our hotline over the weekend?", tool: "twilio_list_calls", synonym: true },
];
