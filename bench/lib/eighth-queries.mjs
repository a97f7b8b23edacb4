// Eighth held-out query set for client-side tool search (issue 45).
//
// 180 requests, 12 for each of the 15 services in the benchmark catalog, and every one of its
// 150 tools is the expected answer at least once. They were written by someone who had read only
// the catalog (tool names, descriptions and input schemas) and the task brief: no ranker code,
// no other query set, no benchmark output. The set was finished before any measurement and has
// never been adjusted to suit a result.
//
// Each entry pairs what a model or a user might type mid-task with the single tool a careful
// reader of the catalog would choose for it. The wording is deliberately mixed: commands,
// questions, bare keywords, passive voice, long asks padded with context, a few typos, and
// requests that name the service or leave it implicit.
//
// `synonym: true` marks a request that shares no content word with its tool's name or
// description (stop words and the service's own brand name aside; inflections of one stem count
// as the same word), so only a match on meaning can find it.
//
// Keep it held out: do not tune the ranker on it, report aggregate figures only.

/** @type {{ query: string, tool: string, synonym?: true }[]} */
export const EIGHTH_QUERIES = [
  // GitHub
  { query: "file a bug on GitHub: the login page crashes on Safari 17", tool: "github_create_issue", synonym: true },
  { query: "open an isue in the repo titled 'Docs typo' and put the documentation label on it", tool: "github_create_issue" },
  { query: "pull requests authored by bob, state closed", tool: "github_list_pull_requests" },
  { query: "which of alice's proposed code changes on GitHub are still waiting for review?", tool: "github_list_pull_requests", synonym: true },
  { query: "#412 is all green now, go ahead and land it onto main on GitHub", tool: "github_merge_pull_request", synonym: true },
  { query: "start a new line of development called feature/login-fix off main on GitHub", tool: "github_create_branch", synonym: true },
  { query: "what does CONTRIBUTING.md say on GitHub at the moment?", tool: "github_get_file_contents", synonym: true },
  { query: "we're ready to ship v3.0.0 on GitHub, along with a changelog for users", tool: "github_create_release", synonym: true },
  { query: "leave a remark on GitHub #88 that the fix landed in 1.4.2", tool: "github_add_issue_comment", synonym: true },
  { query: "did last night's GitHub Actions pipeline go red?", tool: "github_list_workflow_runs", synonym: true },
  { query: "grep the whole GitHub org for every place parseConfig gets called", tool: "github_search_code", synonym: true },
  { query: "I want my own copy of upstream's GitHub project under my user so I can hack on it", tool: "github_fork_repository", synonym: true },

  // Slack
  { query: "drop a note in #releases on Slack that the deploy is done", tool: "slack_post_message", synonym: true },
  { query: "pls post a mesage in the #random channel saying lunch is here", tool: "slack_post_message" },
  { query: "which Slack rooms exist, including the invite-only ones?", tool: "slack_list_channels", synonym: true },
  { query: "catch me up on what people have said lately in #support on Slack", tool: "slack_get_channel_history", synonym: true },
  { query: "read recent messages #incidents", tool: "slack_get_channel_history" },
  { query: "give Dana's Slack announcement about the launch a :tada:", tool: "slack_add_reaction", synonym: true },
  { query: "share the screenshot PNG into #design on Slack so the designers can see the bug", tool: "slack_upload_file", synonym: true },
  { query: "create a new channel #proj-atlas and invite Ana and Luis to it", tool: "slack_create_channel" },
  { query: "update the blurb shown at the top of #oncall in Slack so it says Priya is on duty this week", tool: "slack_set_channel_topic", synonym: true },
  { query: "what is @marco's job position on Slack?", tool: "slack_get_user_profile", synonym: true },
  { query: "have Slack announce in #general at 9am Monday that the office is closed", tool: "slack_schedule_message", synonym: true },
  { query: "someone on Slack mentioned 'rollback' last Tuesday, no idea which room, find it", tool: "slack_search_messages", synonym: true },

  // Jira
  { query: "raise a defect in Jira: the CSV export button does nothing", tool: "jira_create_issue", synonym: true },
  { query: "create a jira tikcet for the flaky login test, type task", tool: "jira_create_issue" },
  { query: "mark PAY-311 as finished in Jira", tool: "jira_transition_issue", synonym: true },
  { query: "move ticket OPS-9 to In Progress", tool: "jira_transition_issue" },
  { query: "hand PAY-311 over to Kenji in Jira, he knows that code best", tool: "jira_assign_issue", synonym: true },
  { query: "which Jira bugs in PAY are flagged as blocked and have nobody owning them?", tool: "jira_search_issues", synonym: true },
  { query: "record 3h of effort against PAY-12 in Jira for today", tool: "jira_add_worklog", synonym: true },
  { query: "what's planned in the current two-week iteration for the Mobile team in Jira?", tool: "jira_get_sprint", synonym: true },
  { query: "create an epic 'Billing v2' that groups the invoicing stories", tool: "jira_create_epic" },
  { query: "PAY-40 can't start until PAY-39 is finished, record that dependency in Jira", tool: "jira_link_issues", synonym: true },
  { query: "stick stacktrace.txt onto PAY-77 in Jira", tool: "jira_add_attachment", synonym: true },
  { query: "which Jira spaces am I allowed into?", tool: "jira_list_projects", synonym: true },

  // Gmail
  { query: "shoot Priya a note on Gmail saying the contract is signed", tool: "gmail_send_email", synonym: true },
  { query: "send an email to ops@corp.com with subject 'Outage report' and attach the PDF", tool: "gmail_send_email" },
  { query: "search my mailbox: from:billing@acme.com has:attachment older_than:30d", tool: "gmail_search_emails" },
  { query: "look through my Gmail for the Delta booking confirmation from March", tool: "gmail_search_emails", synonym: true },
  { query: "open up the whole conversation with the landlord in Gmail, every back-and-forth", tool: "gmail_read_email", synonym: true },
  { query: "compose a response to the landlord in Gmail and keep it for me to look over before it goes out", tool: "gmail_create_draft", synonym: true },
  { query: "tag the three Acme invoices I just got in Gmail with 'Finance'", tool: "gmail_add_label", synonym: true },
  { query: "archive all the newsletters out of my inbox", tool: "gmail_archive_email" },
  { query: "from now on, have Gmail automatically tag anything that arrives from @vendor.com as 'Vendors'", tool: "gmail_create_filter", synonym: true },
  { query: "flag all the Gmail newsletters as seen", tool: "gmail_mark_as_read", synonym: true },
  { query: "what labels do I have in Gmail", tool: "gmail_list_labels" },
  { query: "pass the Delta booking confirmation on to my assistant at sam@corp.com", tool: "gmail_forward_email", synonym: true },

  // Google Calendar
  { query: "book a 30-minute sync with Ana and Raj Thursday at 2pm in room 4B", tool: "calendar_create_event", synonym: true },
  { query: "create a meetng called 'Retro' on friday 4pm with the whole team", tool: "calendar_create_event" },
  { query: "what's on my agenda from Monday through Friday?", tool: "calendar_list_events", synonym: true },
  { query: "push the design review from 3pm to 4pm", tool: "calendar_update_event", synonym: true },
  { query: "change the title of the 10am event to 'Roadmap review' and add Li as an attendee", tool: "calendar_update_event" },
  { query: "cancel tomorrow's 1:1 with Omar on my calendar, he's out sick", tool: "calendar_delete_event" },
  { query: "when could Ana, Raj and I all get together next week for an hour?", tool: "calendar_find_free_time", synonym: true },
  { query: "RSVP no to Friday's offsite", tool: "calendar_respond_to_invite", synonym: true },
  { query: "a separate secondary calendar should be made just for the kids' sports", tool: "calendar_create_calendar" },
  { query: "alert me 15 minutes ahead of the board meeting so I don't miss it", tool: "calendar_set_reminder", synonym: true },
  { query: "list all the calendars I have access to", tool: "calendar_list_calendars" },
  { query: "who's invited to the Q3 planning session and where is it being held?", tool: "calendar_get_event", synonym: true },

  // Google Drive
  { query: "upload the signed contract document to the Legal folder", tool: "drive_upload_document" },
  { query: "I can't remember where I put the Q3 budget spreadsheet in Google, help me locate it", tool: "drive_search_files", synonym: true },
  { query: "search drive files whose content mentions 'Project Orion'", tool: "drive_search_files" },
  { query: "give omar@corp.com write access to the roadmap on Google", tool: "drive_share_file", synonym: true },
  { query: "set up an empty directory 'Invoices 2024' next to the Contracts one in Google", tool: "drive_create_folder", synonym: true },
  { query: "relocate the roadmap into the Archive directory in Google", tool: "drive_move_file", synonym: true },
  { query: "the budget document should be moved to the Finance folder", tool: "drive_move_file" },
  { query: "export the Q3 report doc as a PDF for the board pack", tool: "drive_export_pdf" },
  { query: "who edited the pricing proposal on Google and when? show me its change trail", tool: "drive_list_revisions", synonym: true },
  { query: "bin the old pitch deck on Google, we won't need it again", tool: "drive_delete_file", synonym: true },
  { query: "set up a blank Google grid for the team roster, columns Email, Team and Start date", tool: "drive_create_spreadsheet", synonym: true },
  { query: "who is able to open the salary review on Google?", tool: "drive_get_permissions", synonym: true },

  // Stripe
  { query: "add Globex Ltd as a new payer in Stripe, contact ap@globex.com", tool: "stripe_create_customer", synonym: true },
  { query: "create a Stripe customer with billing address 12 Elm St, Springfield", tool: "stripe_create_customer" },
  { query: "bill Globex $4,200 for March consulting through Stripe", tool: "stripe_create_invoice", synonym: true },
  { query: "give the client their money back for order 1182, but only half of it", tool: "stripe_refund_payment", synonym: true },
  { query: "refund payment pi_3Kx fully", tool: "stripe_refund_payment" },
  { query: "list all charges from last month", tool: "stripe_list_charges" },
  { query: "sign Globex up for the Pro tier, billed monthly, in Stripe", tool: "stripe_create_subscription", synonym: true },
  { query: "cancel Initech's subscription at the end of the period, not immediately", tool: "stripe_cancel_subscription" },
  { query: "generate a Stripe URL a buyer can use to purchase a $49 seat at the seminar", tool: "stripe_create_payment_link", synonym: true },
  { query: "how much money do we have in Stripe right now, including what's still on its way?", tool: "stripe_get_balance", synonym: true },
  { query: "make a 20%-off promo code for Black Friday in Stripe", tool: "stripe_create_coupon", synonym: true },
  { query: "which card purchases have customers contested with their bank?", tool: "stripe_list_disputes", synonym: true },

  // Salesforce
  { query: "Globex's VP of IT, Maria Chen, seems interested in buying; add her as a prospect in Salesforce", tool: "salesforce_create_lead", synonym: true },
  { query: "create a lead for Hooli, contact Gavin, phone 555-0101", tool: "salesforce_create_lead" },
  { query: "the Globex deal is now in negotiation at $120k, signature expected June 30 — reflect that in Salesforce", tool: "salesforce_update_opportunity", synonym: true },
  { query: "run SOQL: SELECT Id FROM Account WHERE Industry = 'Retail'", tool: "salesforce_run_soql_query" },
  { query: "In Salesforce, SELECT Name, Amount FROM Opportunity WHERE StageName = 'Closed Won'", tool: "salesforce_run_soql_query" },
  { query: "create a contact John Ruiz under the Initech account", tool: "salesforce_create_contact" },
  { query: "I just hung up with Initech's CFO; jot down that conversation against their Salesforce entry", tool: "salesforce_log_call", synonym: true },
  { query: "promote the Maria Chen prospect to a real deal in Salesforce", tool: "salesforce_convert_lead", synonym: true },
  { query: "pull everything Salesforce has on Initech: deals, people, open cases", tool: "salesforce_get_account", synonym: true },
  { query: "a customer says their invoices are wrong, raise a support case in Salesforce", tool: "salesforce_create_case" },
  { query: "which sales analytics charts have people built in Salesforce?", tool: "salesforce_list_reports", synonym: true },
  { query: "Initech belongs to the EMEA-North patch now, set that in Salesforce", tool: "salesforce_assign_territory", synonym: true },

  // Zendesk
  { query: "Jane at Hooli can't sign in, raise a Zendesk case for her", tool: "zendesk_create_ticket", synonym: true },
  { query: "reply to the requester on ticket #5521 that a fix ships Friday", tool: "zendesk_reply_to_ticket" },
  { query: "leave a private memo for agents on Zendesk #5521 that the end customer shouldn't see", tool: "zendesk_reply_to_ticket", synonym: true },
  { query: "all the Zendesk conversations from Hooli that are still pending", tool: "zendesk_search_tickets", synonym: true },
  { query: "#5521 and #5530 are the same complaint; combine them in Zendesk", tool: "zendesk_merge_tickets", synonym: true },
  { query: "bump Zendesk #5521 to urgent", tool: "zendesk_set_ticket_priority", synonym: true },
  { query: "what canned responses are available in Zendesk?", tool: "zendesk_list_macros", synonym: true },
  { query: "CSAT ratings for last month", tool: "zendesk_get_satisfaction_ratings" },
  { query: "how happy were people with our agents' answers in Zendesk last quarter, score-wise?", tool: "zendesk_get_satisfaction_ratings", synonym: true },
  { query: "publish a how-to on resetting 2FA in the Zendesk FAQ", tool: "zendesk_create_article", synonym: true },
  { query: "block the abusive requester spam-bot@x.io from Zendesk", tool: "zendesk_suspend_user", synonym: true },
  { query: "ticket #5530 needs to be tagged 'billing' and 'refund'", tool: "zendesk_tag_ticket" },

  // Datadog
  { query: "how busy were the web nodes' processors over the past hour in Datadog?", tool: "datadog_query_metrics", synonym: true },
  { query: "query metric system.cpu.user for host web-3", tool: "datadog_query_metrics" },
  { query: "create a monitor that alerts when the error rate goes above 5%", tool: "datadog_create_monitor" },
  { query: "set up a Datadog alarm for when queue depth stays over 10k for 5 min", tool: "datadog_create_monitor", synonym: true },
  { query: "silence the disk-space alarm in Datadog for two hours while we migrate", tool: "datadog_mute_monitor", synonym: true },
  { query: "grep Datadog for 500s from the payments API in the last 15 minutes", tool: "datadog_search_logs", synonym: true },
  { query: "list our Datadog dashboards", tool: "datadog_list_dashboards" },
  { query: "build a Datadog screen of charts for queue depth and consumer lag", tool: "datadog_create_dashboard", synonym: true },
  { query: "show me per-request span waterfalls for checkout in Datadog", tool: "datadog_get_apm_traces", synonym: true },
  { query: "note on the Datadog timeline that v2.3 just went to production", tool: "datadog_post_event", synonym: true },
  { query: "which machines is the Datadog agent reporting from, and are any down?", tool: "datadog_list_hosts", synonym: true },
  { query: "set a 99.9% availability target for the login API in Datadog", tool: "datadog_create_slo", synonym: true },

  // PagerDuty
  { query: "raise the alarm in PagerDuty: the payments API is down hard", tool: "pagerduty_trigger_incident", synonym: true },
  { query: "trigger an incident for checkout latency and page on-call", tool: "pagerduty_trigger_incident" },
  { query: "I'm on the payments outage, tell PagerDuty I've seen it", tool: "pagerduty_acknowledge_incident", synonym: true },
  { query: "acknowledge incident P9XYZ", tool: "pagerduty_acknowledge_incident" },
  { query: "root cause is fixed, resolve incident P123ABC", tool: "pagerduty_resolve_incident" },
  { query: "who's holding the pager for the database team tonight?", tool: "pagerduty_get_on_call", synonym: true },
  { query: "what's currently blowing up in PagerDuty? show me all active pages", tool: "pagerduty_list_incidents", synonym: true },
  { query: "jot on the PagerDuty outage log that we rolled back at 14:05", tool: "pagerduty_add_incident_note", synonym: true },
  { query: "Sam is covering for me on the pager Saturday, put him in my place in PagerDuty", tool: "pagerduty_create_override", synonym: true },
  { query: "list the PagerDuty services with their escalation policies", tool: "pagerduty_list_services" },
  { query: "we're patching the DB tonight 1-3am, keep PagerDuty quiet during that", tool: "pagerduty_create_maintenance_window", synonym: true },
  { query: "nobody's answered yet — kick this outage up to tier 2 in PagerDuty", tool: "pagerduty_escalate_incident", synonym: true },

  // Notion
  { query: "start a fresh Notion doc for the Q4 offsite agenda with a few headings", tool: "notion_create_page", synonym: true },
  { query: "in the Notion task tracker, which rows have status Overdue? newest first", tool: "notion_query_database", synonym: true },
  { query: "query the Notion Bugs database filtered by Severity = High, sorted by created date", tool: "notion_query_database" },
  { query: "tack three checkbox items onto the bottom of the launch plan in Notion", tool: "notion_append_blocks", synonym: true },
  { query: "search Notion pages titled 'Onboarding'", tool: "notion_search_pages" },
  { query: "in Notion, flip the Owner field of the 'Vendor audit' entry to Priya and set Due to Friday", tool: "notion_update_page_properties", synonym: true },
  { query: "set up a Notion table to track hiring candidates with fields stage, salary, start date", tool: "notion_create_database", synonym: true },
  { query: "leave feedback on the Notion design spec saying section 2 needs numbers", tool: "notion_add_comment", synonym: true },
  { query: "show me what the Notion onboarding guide says", tool: "notion_get_page", synonym: true },
  { query: "archive the old 2022 roadmap page", tool: "notion_archive_page" },
  { query: "tuck away the outdated 2021 planning doc in Notion, but don't delete it", tool: "notion_archive_page", synonym: true },
  { query: "who are all the people in our Notion?", tool: "notion_list_users", synonym: true },

  // Amazon S3
  { query: "push backup-0612.tar.gz to s3://nightly-backups/", tool: "s3_put_object", synonym: true },
  { query: "upload report.csv to the bucket analytics under exports/", tool: "s3_put_object" },
  { query: "fetch s3://reports/2024/q2.csv to my machine", tool: "s3_get_object", synonym: true },
  { query: "what's stored in s3://logs/2024/06/ ?", tool: "s3_list_objects", synonym: true },
  { query: "delete the object tmp/export.csv from bucket scratch", tool: "s3_delete_object" },
  { query: "provision a fresh S3 container in eu-west-1 for the media team", tool: "s3_create_bucket", synonym: true },
  { query: "give a partner a link to grab invoice.pdf from S3 that goes dead after an hour", tool: "s3_presign_url", synonym: true },
  { query: "auto-purge anything past 90 days in the logs S3 bucket", tool: "s3_set_lifecycle_rule", synonym: true },
  { query: "duplicate reports/q2.csv from s3://staging into s3://prod", tool: "s3_copy_object", synonym: true },
  { query: "read the access policy on bucket public-assets", tool: "s3_get_bucket_policy" },
  { query: "who is allowed to fetch from s3://public-assets according to its IAM rules?", tool: "s3_get_bucket_policy", synonym: true },
  { query: "make the assets S3 store keep every past edition of each file from now on", tool: "s3_enable_versioning", synonym: true },

  // PostgreSQL
  { query: "count yesterday's signups straight from the Postgres users table", tool: "postgres_run_query", synonym: true },
  { query: "run a read-only qurey: SELECT email FROM users WHERE plan = 'pro'", tool: "postgres_run_query" },
  { query: "what relations exist in the Postgres 'billing' namespace?", tool: "postgres_list_tables", synonym: true },
  { query: "what fields does the Postgres orders relation have, and what kind of values go in each?", tool: "postgres_describe_table", synonym: true },
  { query: "EXPLAIN ANALYZE this query: SELECT * FROM orders WHERE user_id = 5", tool: "postgres_explain_query" },
  { query: "which SQL has been eating the most time on Postgres lately?", tool: "postgres_list_slow_queries", synonym: true },
  { query: "the orders page takes 8 seconds because every lookup on orders.customer_id scans everything; speed that up in Postgres without blocking writes, we're live", tool: "postgres_create_index", synonym: true },
  { query: "reclaim dead tuples in the events relation and refresh planner stats in Postgres", tool: "postgres_vacuum_table", synonym: true },
  { query: "list the locks that are being waited for", tool: "postgres_list_locks" },
  { query: "which Postgres sessions are stuck blocking one another?", tool: "postgres_list_locks", synonym: true },
  { query: "that out-of-control report from pid 4411 has been going for 40 minutes, stop it in Postgres", tool: "postgres_kill_query", synonym: true },
  { query: "how much storage is each Postgres relation taking up?", tool: "postgres_table_sizes", synonym: true },

  // Twilio
  { query: "send an SMS to +14155550134 saying the order shipped", tool: "twilio_send_sms" },
  { query: "ring +44 20 7946 0958 and have a robot voice read out the outage notice", tool: "twilio_make_call", synonym: true },
  { query: "list the text messages we received today", tool: "twilio_list_messages" },
  { query: "show every SMS that came in or went out on our Twilio lines this week", tool: "twilio_list_messages", synonym: true },
  { query: "acquire a German landline with a Berlin area code in Twilio", tool: "twilio_buy_phone_number", synonym: true },
  { query: "buy a phone number in Canada", tool: "twilio_buy_phone_number" },
  { query: "send a WhatsApp to +5511999990000: 'Delivery arrives at 3pm'", tool: "twilio_send_whatsapp" },
  { query: "kick off 2FA for +1 212 555 0199 so the user gets a login PIN", tool: "twilio_verify_phone", synonym: true },
  { query: "the user typed 482913 — is that the right PIN for +1 212 555 0199?", tool: "twilio_check_verification", synonym: true },
  { query: "grab the audio from Twilio conversation CA12ab so I can listen back", tool: "twilio_get_call_recording", synonym: true },
  { query: "is +1 646 555 0100 a mobile or a landline, and who's the provider?", tool: "twilio_lookup_number", synonym: true },
  { query: "who rang our Twilio lines today?", tool: "twilio_list_calls", synonym: true },
];
