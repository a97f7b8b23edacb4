// Ninth held-out query set for client-side tool search (issue 45).
//
// 180 queries, 12 for each of the 15 services; every one of the 150 catalog
// tools is the expected answer at least once. They were written by reading
// the tool catalog alone (names, descriptions, input schemas), before any
// measurement, and were never adjusted after seeing a ranking. Each query is
// meant to have exactly one fair answer in the catalog.
//
// `synonym: true` marks a query that has no content word in common with its
// expected tool's name or description (stop words and the service's own name
// not counted; different forms of one stem count as one word), so it can only
// be matched through meaning, not through shared vocabulary.
//
// Keep it held out: do not tune the ranker on it, report aggregate figures only.

/** @type {{ query: string, tool: string, synonym?: true }[]} */
export const NINTH_QUERIES = [
  // GitHub
  { query: "open a new GitHub issue titled 'Flaky test in auth module' with the stack trace as body and the bug label", tool: "github_create_issue" },
  { query: "report a defect in our GitHub tracker, headline 'crash on startup', tag it needs-triage", tool: "github_create_issue", synonym: true },
  { query: "which PRs by octocat are still waiting for review on GitHub?", tool: "github_list_pull_requests", synonym: true },
  { query: "list open pull requets authored by dependabot", tool: "github_list_pull_requests" },
  { query: "land PR #311 onto main, its tests have all gone green", tool: "github_merge_pull_request", synonym: true },
  { query: "cut feature/login off of main on GitHub so I can start coding there", tool: "github_create_branch", synonym: true },
  { query: "show me what's inside src/config.yaml on the develop head in GitHub", tool: "github_get_file_contents", synonym: true },
  { query: "ship version 3.0 on GitHub with a changelog for v3.0.0", tool: "github_create_release", synonym: true },
  { query: "drop a reply under GitHub #90 thanking the contributor for the patch", tool: "github_add_issue_comment", synonym: true },
  { query: "did the GitHub Actions build on main go green or red last night?", tool: "github_list_workflow_runs", synonym: true },
  { query: "grep every GitHub project for where parseConfig gets defined", tool: "github_search_code", synonym: true },
  { query: "make my own GitHub copy of torvalds/linux under my user so I can hack on it", tool: "github_fork_repository", synonym: true },

  // Slack
  { query: "tell the #deploys room in Slack that the rollout finished", tool: "slack_post_message", synonym: true },
  { query: "list all slack channels including private ones", tool: "slack_list_channels" },
  { query: "which Slack rooms exist, including the invite-only ones?", tool: "slack_list_channels", synonym: true },
  { query: "what has been said in #incident-42 on Slack over the last hour?", tool: "slack_get_channel_history", synonym: true },
  { query: "give Bob's Slack post a thumbs-up", tool: "slack_add_reaction", synonym: true },
  { query: "upload the screenshot png file to #design in Slack", tool: "slack_upload_file" },
  { query: "spin up a Slack room called #launch-q3 and pull in Ana, Raj and Mei", tool: "slack_create_channel", synonym: true },
  { query: "update the one-liner shown at the top of #support in Slack to 'Weekend rota: Sam'", tool: "slack_set_channel_topic", synonym: true },
  { query: "what local hour is it for Priya on Slack, and what's her role?", tool: "slack_get_user_profile", synonym: true },
  { query: "have Slack send 'standup in 5' to #eng tomorrow at 9:25", tool: "slack_schedule_message", synonym: true },
  { query: "search slack messages from jane mentioning 'budget' last week", tool: "slack_search_messages" },
  { query: "find where anyone on Slack talked about the Q3 budget, any room", tool: "slack_search_messages", synonym: true },

  // Jira
  { query: "create a Jira bug ticket in the PAY project: checkout button unresponsive on Safari", tool: "jira_create_issue" },
  { query: "mark PAY-311 as finished in Jira, the fix shipped", tool: "jira_transition_issue", synonym: true },
  { query: "hand PAY-200 over to Dmitri in Jira", tool: "jira_assign_issue", synonym: true },
  { query: "JQL: project = PAY AND status = 'In Review' — search Jira with it", tool: "jira_search_issues" },
  { query: "jira items where priority = Highest and the assignee is empty", tool: "jira_search_issues", synonym: true },
  { query: "book 3 hours of effort against PAY-88 in Jira", tool: "jira_add_worklog", synonym: true },
  { query: "what's in the current sprint on the PAY board", tool: "jira_get_sprint" },
  { query: "this two-week iteration for the Payments squad, what's in it? (Jira)", tool: "jira_get_sprint", synonym: true },
  { query: "in Jira, set up a large initiative-level container for all the onboarding features", tool: "jira_create_epic", synonym: true },
  { query: "in Jira, PAY-12 depends on PAY-9 — record that dependency between them", tool: "jira_link_issues", synonym: true },
  { query: "attach the HAR file to ticket PAY-77", tool: "jira_add_attachment" },
  { query: "which Jira spaces do I have visibility into?", tool: "jira_list_projects", synonym: true },

  // Gmail
  { query: "send an email to finance@acme.com with the invoice PDF attached", tool: "gmail_send_email" },
  { query: "gmail: anything from bob@acme.com with 'contract' since March", tool: "gmail_search_emails", synonym: true },
  { query: "search my mailbox: has:attachment from:legal older_than:30d", tool: "gmail_search_emails" },
  { query: "open the whole conversation with the landlord in Gmail so I can see every reply", tool: "gmail_read_email", synonym: true },
  { query: "write a draft reply to Sam but don't send it yet", tool: "gmail_create_draft" },
  { query: "in Gmail, tag these three receipts as 'Taxes 2024'", tool: "gmail_add_label", synonym: true },
  { query: "clear the newsletters out of my Gmail without deleting them", tool: "gmail_archive_email", synonym: true },
  { query: "in Gmail, auto-sort everything from noreply@github.com into 'Notifications' from now on", tool: "gmail_create_filter", synonym: true },
  { query: "mark all unread emails from the CEO as read", tool: "gmail_mark_as_read" },
  { query: "what categories or folders exist in my Gmail?", tool: "gmail_list_labels", synonym: true },
  { query: "pass that Gmail receipt on to accounting@corp.com", tool: "gmail_forward_email", synonym: true },
  { query: "compose a reply to Sam in Gmail but hold it so I can review before it goes out", tool: "gmail_create_draft", synonym: true },

  // Google Calendar
  { query: "create a meeting with Ana and Tom Friday 3pm in room 4B", tool: "calendar_create_event" },
  { query: "book a 30-minute sync with Dana on Thursday at 2, Zoom link in the invite", tool: "calendar_create_event", synonym: true },
  { query: "what's on my agenda from Monday through Wednesday?", tool: "calendar_list_events", synonym: true },
  { query: "push the design review to 4pm and add Lee to it", tool: "calendar_update_event", synonym: true },
  { query: "cancle tomorrow's 1:1 event with Joe", tool: "calendar_delete_event" },
  { query: "the Friday retro isn't happening anymore — take it off everyone's schedule", tool: "calendar_delete_event", synonym: true },
  { query: "when could Ana, Raj and I get together for an hour next week?", tool: "calendar_find_free_time", synonym: true },
  { query: "RSVP yes to the offsite on the 12th", tool: "calendar_respond_to_invite", synonym: true },
  { query: "make an additional planner, separate from my main one, just for the soccer club fixtures", tool: "calendar_create_calendar", synonym: true },
  { query: "ping me 15 minutes ahead of the dentist appointment", tool: "calendar_set_reminder", synonym: true },
  { query: "list all calendars I have access to", tool: "calendar_list_calendars" },
  { query: "what's the dial-in and room for tomorrow's 10am board meeting?", tool: "calendar_get_event", synonym: true },

  // Google Drive
  { query: "upload the Q3 report docx to the Finance folder in Google Drive", tool: "drive_upload_document" },
  { query: "is there anything in Google Drive whose text mentions 'severance'?", tool: "drive_search_files", synonym: true },
  { query: "search google drive for files named 'roadmap'", tool: "drive_search_files" },
  { query: "give maria@acme.com write rights to the budget sheet on Drive", tool: "drive_share_file", synonym: true },
  { query: "share the roadmap document with the design team as commenter", tool: "drive_share_file" },
  { query: "make a directory for the 2025 contracts in Drive", tool: "drive_create_folder", synonym: true },
  { query: "the signed NDA document needs to be moved into the Legal folder", tool: "drive_move_file" },
  { query: "save the Drive pricing deck in Acrobat format", tool: "drive_export_pdf", synonym: true },
  { query: "who changed the onboarding handbook in Drive and when — show me its past versions", tool: "drive_list_revisions", synonym: true },
  { query: "bin the old draft proposal in Google Drive", tool: "drive_delete_file", synonym: true },
  { query: "create a spreadsheet with columns Date, Vendor, Amount", tool: "drive_create_spreadsheet" },
  { query: "who can open the salary sheet on Google Drive?", tool: "drive_get_permissions", synonym: true },

  // Stripe
  { query: "create a Stripe customer for jane@shop.io with billing address in Berlin", tool: "stripe_create_customer" },
  { query: "bill Acme Corp €4,000 for March consulting via Stripe", tool: "stripe_create_invoice", synonym: true },
  { query: "give the customer back $20 of order ch_3K, they were overcharged", tool: "stripe_refund_payment", synonym: true },
  { query: "refund half of payment pi_9XY in Stripe", tool: "stripe_refund_payment" },
  { query: "list all Stripe charges from last month", tool: "stripe_list_charges" },
  { query: "sign cus_123 up for Pro, billed monthly (Stripe)", tool: "stripe_create_subscription", synonym: true },
  { query: "Stripe: stop renewing cus_123's Pro after the current cycle", tool: "stripe_cancel_subscription", synonym: true },
  { query: "give me a Stripe URL buyers can click to purchase a seat at the seminar", tool: "stripe_create_payment_link", synonym: true },
  { query: "how much cash do we have in Stripe right now, including funds not yet settled?", tool: "stripe_get_balance", synonym: true },
  { query: "make a 20% off discount coupon code SPRING20", tool: "stripe_create_coupon" },
  { query: "Stripe: set up a promo code giving 15% off for the Black Friday sale", tool: "stripe_create_coupon", synonym: true },
  { query: "any customers contesting their card payments with the bank in Stripe?", tool: "stripe_list_disputes", synonym: true },

  // Salesforce
  { query: "we met a prospect at the expo — add Globex's Tom Li as a potential buyer in Salesforce", tool: "salesforce_create_lead", synonym: true },
  { query: "move the Globex opportunity to Negotiation stage and set amount to 120k", tool: "salesforce_update_opportunity" },
  { query: "the Globex deal slipped to June and grew to 150k — fix that in Salesforce", tool: "salesforce_update_opportunity", synonym: true },
  { query: "run a SOQL query for all Accounts in the Retail industry", tool: "salesforce_run_soql_query" },
  { query: "add Jane Roe (jane@globex.com) as a person under the Globex customer in Salesforce", tool: "salesforce_create_contact", synonym: true },
  { query: "note in Salesforce that I rang the Globex buyer today for 20 minutes", tool: "salesforce_log_call", synonym: true },
  { query: "convert lead Tom Li to an account and opportunity, he's qualified", tool: "salesforce_convert_lead" },
  { query: "Tom Li is ready to buy — make that prospect a customer with a deal in Salesforce", tool: "salesforce_convert_lead", synonym: true },
  { query: "pull up everything Salesforce has on Globex — its open deals, people, cases", tool: "salesforce_get_account", synonym: true },
  { query: "open a support case in Salesforce for Globex's broken widget", tool: "salesforce_create_case" },
  { query: "what pipeline charts and summaries are available in Salesforce?", tool: "salesforce_list_reports", synonym: true },
  { query: "put Globex into the EMEA-North region in Salesforce", tool: "salesforce_assign_territory", synonym: true },

  // Zendesk
  { query: "open a Zendesk ticket for customer Bea: can't reset password", tool: "zendesk_create_ticket" },
  { query: "tell the customer on Zendesk #5521 that their replacement ships Monday", tool: "zendesk_reply_to_ticket", synonym: true },
  { query: "zendesk tickets where status is pending and requester is bea@x.com", tool: "zendesk_search_tickets" },
  { query: "Zendesk: which unsolved cases has bea@x.com raised that mention 'refund'?", tool: "zendesk_search_tickets", synonym: true },
  { query: "these two Zendesk requests (#88, #91) are the same problem — combine them", tool: "zendesk_merge_tickets", synonym: true },
  { query: "bump Zendesk #4410 to urgent", tool: "zendesk_set_ticket_priority", synonym: true },
  { query: "what canned responses are set up in Zendesk?", tool: "zendesk_list_macros", synonym: true },
  { query: "how happy were people with our Zendesk agents last month — the survey scores", tool: "zendesk_get_satisfaction_ratings", synonym: true },
  { query: "write a help center article on resetting 2FA", tool: "zendesk_create_article" },
  { query: "publish a do-it-yourself FAQ entry in Zendesk explaining how to reset 2FA", tool: "zendesk_create_article", synonym: true },
  { query: "ban spammer@bad.io from filing any more Zendesk requests", tool: "zendesk_suspend_user", synonym: true },
  { query: "put the 'billing' and 'vip' markers on Zendesk #301", tool: "zendesk_tag_ticket", synonym: true },

  // Datadog
  { query: "datadog: query the p99 latency metric for checkout over the last 6h", tool: "datadog_query_metrics" },
  { query: "Datadog: what was memory utilisation on web-01 through the past day, as numbers", tool: "datadog_query_metrics", synonym: true },
  { query: "in Datadog, warn us whenever disk usage on db hosts passes 90%", tool: "datadog_create_monitor", synonym: true },
  { query: "silence the Datadog disk-usage alarm for the next two hours while we migrate", tool: "datadog_mute_monitor", synonym: true },
  { query: "search datadog logs for status:error in service checkout", tool: "datadog_search_logs" },
  { query: "grep Datadog for 'OutOfMemoryError' lines emitted by the api in the past hour", tool: "datadog_search_logs", synonym: true },
  { query: "which Datadog chart pages exist already?", tool: "datadog_list_dashboards", synonym: true },
  { query: "create a Datadog dashboard with graphs of CPU and memory for the api hosts", tool: "datadog_create_dashboard" },
  { query: "show the end-to-end request spans for checkout in Datadog to see where the 2s goes", tool: "datadog_get_apm_traces", synonym: true },
  { query: "drop a marker in Datadog that v4.2 just went out to prod", tool: "datadog_post_event", synonym: true },
  { query: "which machines is the Datadog agent reporting from, and are any down?", tool: "datadog_list_hosts", synonym: true },
  { query: "in Datadog, commit to a 99.9% uptime goal for the payments API over 30 days", tool: "datadog_create_slo", synonym: true },

  // PagerDuty
  { query: "trigger a PagerDuty incident for the payments outage and page on-call", tool: "pagerduty_trigger_incident" },
  { query: "wake up whoever's on duty for payments — checkout is down (PagerDuty)", tool: "pagerduty_trigger_incident", synonym: true },
  { query: "PagerDuty: tell it I'm on the db outage alert so nobody else gets woken up", tool: "pagerduty_acknowledge_incident", synonym: true },
  { query: "the db outage is fixed — close it out in PagerDuty", tool: "pagerduty_resolve_incident", synonym: true },
  { query: "who is on call right now for the platform schedule?", tool: "pagerduty_get_on_call" },
  { query: "what's currently firing in PagerDuty and what fired yesterday?", tool: "pagerduty_list_incidents", synonym: true },
  { query: "add a note to the incident timeline: rolled back to v4.1", tool: "pagerduty_add_incident_note" },
  { query: "jot down in PagerDuty for the db outage that we rolled back to v4.1 at 02:10", tool: "pagerduty_add_incident_note", synonym: true },
  { query: "Priya takes Sam's pager duty this Saturday — set that up in PagerDuty", tool: "pagerduty_create_override", synonym: true },
  { query: "which apps and components are registered in PagerDuty, and what paging chain does each follow?", tool: "pagerduty_list_services", synonym: true },
  { query: "we're upgrading the db 2–4am Sunday, keep PagerDuty quiet for it", tool: "pagerduty_create_maintenance_window", synonym: true },
  { query: "nobody's answering on the db outage — kick it up a tier to the managers in PagerDuty", tool: "pagerduty_escalate_incident", synonym: true },

  // Notion
  { query: "create a Notion page 'Q3 Retro' with headings and a checklist", tool: "notion_create_page" },
  { query: "in Notion, the rows of the Tasks table where Status is Blocked, newest first", tool: "notion_query_database", synonym: true },
  { query: "query the Notion Bugs database filtered by Severity = High, sorted by date", tool: "notion_query_database" },
  { query: "add three bullet points to the bottom of the 'Launch plan' doc in Notion", tool: "notion_append_blocks", synonym: true },
  { query: "search Notion for pages titled 'Onboarding'", tool: "notion_search_pages" },
  { query: "in the Notion tracker, set the Owner field of the 'Website redesign' entry to Ana", tool: "notion_update_page_properties", synonym: true },
  { query: "set up a Notion table for a reading list with Title, Author (text) and Rating (number)", tool: "notion_create_database", synonym: true },
  { query: "leave a comment on the Notion page 'Pricing' asking for sign-off", tool: "notion_add_comment" },
  { query: "ask a question in the margin of the 'Pricing' doc in Notion for Lee to answer", tool: "notion_add_comment", synonym: true },
  { query: "what does the 'Runbook: DB failover' doc in Notion say?", tool: "notion_get_page", synonym: true },
  { query: "retire the outdated 'Old pricing' doc in Notion without destroying it", tool: "notion_archive_page", synonym: true },
  { query: "who are all the people in our Notion?", tool: "notion_list_users", synonym: true },

  // Amazon S3
  { query: "upload backup.tar.gz to the s3 bucket my-backups under daily/", tool: "s3_put_object" },
  { query: "push dist/app.zip into acme-releases on S3", tool: "s3_put_object", synonym: true },
  { query: "fetch reports/2024.csv out of acme-data on S3 to local disk", tool: "s3_get_object", synonym: true },
  { query: "what keys live under logs/2024/ in acme-data (S3)?", tool: "s3_list_objects", synonym: true },
  { query: "tmp/old.zip should be deleted from the staging bucket", tool: "s3_delete_object" },
  { query: "provision a fresh S3 container in eu-west-1 called acme-archive", tool: "s3_create_bucket", synonym: true },
  { query: "give an outside partner a link to reports/q3.pdf in S3 that expires in 24h", tool: "s3_presign_url", synonym: true },
  { query: "in S3, automatically purge anything in logs/ after 90 days", tool: "s3_set_lifecycle_rule", synonym: true },
  { query: "copy s3://a/x.json to bucket b", tool: "s3_copy_object" },
  { query: "duplicate s3://acme-data/a.csv into acme-backup", tool: "s3_copy_object", synonym: true },
  { query: "who is allowed to touch the acme-data S3 store — show its IAM rules", tool: "s3_get_bucket_policy", synonym: true },
  { query: "make S3 keep every prior revision of files in acme-data so overwrites can be undone", tool: "s3_enable_versioning", synonym: true },

  // PostgreSQL
  { query: "I'm putting together the monthly collections summary for finance and it is due at noon, so run SELECT count(*) FROM orders WHERE status = 'overdue' for me", tool: "postgres_run_query" },
  { query: "fetch from Postgres every order row whose status is overdue", tool: "postgres_run_query", synonym: true },
  { query: "what relations exist under public in Postgres?", tool: "postgres_list_tables", synonym: true },
  { query: "what fields does the orders relation have in Postgres, and what kind is each?", tool: "postgres_describe_table", synonym: true },
  { query: "explian analyze this query: SELECT * FROM orders JOIN users ON users.id = orders.user_id", tool: "postgres_explain_query" },
  { query: "which SQL is eating the most time in Postgres overall?", tool: "postgres_list_slow_queries", synonym: true },
  { query: "speed up lookups on orders(customer_id) in Postgres without blocking writes", tool: "postgres_create_index", synonym: true },
  { query: "reclaim dead tuples in the events relation and refresh its planner stats", tool: "postgres_vacuum_table", synonym: true },
  { query: "what's blocking what in Postgres right now — which sessions are stuck?", tool: "postgres_list_locks", synonym: true },
  { query: "terminate the backend running that runaway query, pid 4412", tool: "postgres_kill_query" },
  { query: "stop pid 4412 in Postgres, it's been hogging CPU for an hour", tool: "postgres_kill_query", synonym: true },
  { query: "how many gigabytes is each relation taking up in Postgres?", tool: "postgres_table_sizes", synonym: true },

  // Twilio
  { query: "sned an sms via twilio to +15551234567 saying the table is ready", tool: "twilio_send_sms" },
  { query: "ring +15551234567 and read out 'your appointment is tomorrow' by voice", tool: "twilio_make_call", synonym: true },
  { query: "show every SMS that went out or came in via Twilio this week", tool: "twilio_list_messages", synonym: true },
  { query: "buy a Twilio phone number in Canada", tool: "twilio_buy_phone_number" },
  { query: "get us a new UK support line on Twilio", tool: "twilio_buy_phone_number", synonym: true },
  { query: "send a WhatsApp message to +447700900123 saying the courier is outside", tool: "twilio_send_whatsapp" },
  { query: "text a 6-digit login PIN to +15551234567 to prove they own it", tool: "twilio_verify_phone", synonym: true },
  { query: "the user typed 482913 — is that the right PIN for +15551234567?", tool: "twilio_check_verification", synonym: true },
  { query: "fetch the audio of yesterday's support conversation CA1234 from Twilio", tool: "twilio_get_call_recording", synonym: true },
  { query: "is +15551234567 a mobile or a landline, and which network is it on?", tool: "twilio_lookup_number", synonym: true },
  { query: "show the dial log: inbound and outbound voice activity on Twilio today", tool: "twilio_list_calls", synonym: true },
  { query: "list recent twilio phone calls", tool: "twilio_list_calls" },
];
