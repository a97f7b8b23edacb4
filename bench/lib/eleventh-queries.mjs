/**
 * Eleventh held-out query set for tool search.
 *
 * Written from the 150-tool catalog (names, descriptions, input schemas) alone, by someone who
 * never looked at the ranker, its code, its tests or any earlier figure. Every query was written
 * before any measurement and none was changed after a ranking was seen. The queries try to sound
 * like a model or its user mid-task: short and long, questions and commands, ids and names inline,
 * everyday words, now and then a typo, and roughly a third of them naming no service at all. Each
 * was checked against its neighbours in the catalog so that a careful reader would pick exactly one
 * tool: the one given in `tool`.
 *
 * `synonym: true` marks a query that shares no content word with its expected tool's name or
 * description (stop words and the service's own name left aside; forms of one stem counted as one
 * word), so only the meaning links the two.
 *
 * Keep it held out: do not tune on it, report aggregate figures only.
 */

/** @type {{ query: string, tool: string, synonym?: true }[]} */
export const ELEVENTH_QUERIES = [
  // GitHub
  { query: 'file a defect on our github tracker: the login button does nothing on Safari', tool: 'github_create_issue', synonym: true },
  { query: 'which PRs did @mkovacs put up that are still waiting for review?', tool: 'github_list_pull_requests', synonym: true },
  { query: 'squash and merge PR #482 now that CI is green', tool: 'github_merge_pull_request' },
  { query: 'git: cut feature/checkout-v2 off of main so I can start on the refactor', tool: 'github_create_branch', synonym: true },
  { query: 'what does docker-compose.yml look like on the v2.3 tag in GitHub?', tool: 'github_get_file_contents', synonym: true },
  { query: 'publish v3.0.0 with the changelog as the release notes', tool: 'github_create_release' },
  { query: 'reply on GitHub #311 saying the fix landed in 2.4', tool: 'github_add_issue_comment', synonym: true },
  { query: "did last night's builds go green on GitHub Actions?", tool: 'github_list_workflow_runs', synonym: true },
  { query: 'where else in our sources is parseInvoiceDate called? look through every project on github', tool: 'github_search_code', synonym: true },
  { query: 'make our own copy of facebook/react under acme-labs so we can patch it', tool: 'github_fork_repository', synonym: true },
  { query: 'list open pull reqeusts by dependabot', tool: 'github_list_pull_requests' },
  { query: 'CI keeps failing on main, show me the recent pipeline runs and which ones broke', tool: 'github_list_workflow_runs' },

  // Slack
  { query: 'tell #eng-announce in Slack that the deploy freeze starts at 5pm', tool: 'slack_post_message', synonym: true },
  { query: 'what rooms exist in our Slack? I want to see every one of them, including the locked ones', tool: 'slack_list_channels', synonym: true },
  { query: 'catch me up on what folks said in #design-crit since this morning', tool: 'slack_get_channel_history', synonym: true },
  { query: "thumbs-up Dana's post in slack so she knows I saw it", tool: 'slack_add_reaction', synonym: true },
  { query: 'drop q3-roadmap.pdf into #product on Slack', tool: 'slack_upload_file', synonym: true },
  { query: 'create a private channel #proj-atlas and invite Priya and Tom', tool: 'slack_create_channel' },
  { query: "update what #support shows at the top: 'Escalations go to Ravi this week'", tool: 'slack_set_channel_topic', synonym: true },
  { query: 'before I ping @jlee, is it the middle of the night where she lives? check her slack info', tool: 'slack_get_user_profile', synonym: true },
  { query: 'have Slack drop a note in #standup tomorrow at 9:00 reminding everyone about the demo', tool: 'slack_schedule_message', synonym: true },
  { query: "search slack for messages from Omar mentioning 'invoice bug' last week", tool: 'slack_search_messages' },
  { query: 'post in the #release thread that rc2 is out', tool: 'slack_post_message' },
  { query: 'somebody in slack shared a staging password link around march 3rd, find out who', tool: 'slack_search_messages', synonym: true },

  // Jira
  { query: 'raise a defect in jira: checkout page 500s when the cart is empty', tool: 'jira_create_issue', synonym: true },
  { query: 'PAY-412 is finished, flip it to closed', tool: 'jira_transition_issue', synonym: true },
  { query: "give OPS-77 to Marta, she'll own it from here", tool: 'jira_assign_issue', synonym: true },
  { query: "jql: project = WEB AND status = 'In Review' — run that search", tool: 'jira_search_issues' },
  { query: "book 3h against MOB-19 for yesterday's debugging", tool: 'jira_add_worklog', synonym: true },
  { query: "before the standup tomorrow I want to know what we're committed to this iteration for team Platform in Jira, and what's still untouched", tool: 'jira_get_sprint', synonym: true },
  { query: "create an epic 'Billing revamp' in Jira to hold the invoice stories", tool: 'jira_create_epic' },
  { query: "WEB-88 can't start until API-301 ships; record that dependency between them", tool: 'jira_link_issues', synonym: true },
  { query: 'stick the crash screenshot onto BUG-1200 in jira', tool: 'jira_add_attachment', synonym: true },
  { query: 'which jira spaces do I have access to?', tool: 'jira_list_projects', synonym: true },
  { query: 'move PAY-415 to In Progress', tool: 'jira_transition_issue' },
  { query: "find every unasigned high-priority defect in jira's MOBILE space", tool: 'jira_search_issues', synonym: true },

  // Gmail
  { query: "shoot a note to finance@acme.io titled 'Q3 numbers' with the deck", tool: 'gmail_send_email', synonym: true },
  { query: 'in gmail, dig up anything from the landlord about the deposit since January', tool: 'gmail_search_emails', synonym: true },
  { query: 'in Gmail, open the whole back-and-forth with Karen about the venue contract', tool: 'gmail_read_email', synonym: true },
  { query: "draft a reply to the recruiter but don't send it yet", tool: 'gmail_create_draft' },
  { query: "tag these three receipts in Gmail as 'Taxes 2024'", tool: 'gmail_add_label', synonym: true },
  { query: "get last week's newsletters out of my gmail view without deleting them", tool: 'gmail_archive_email', synonym: true },
  { query: "set up a gmail rule: everything from noreply@jenkins.ci gets auto-tagged 'Builds'", tool: 'gmail_create_filter', synonym: true },
  { query: "in Gmail, I've already gone through the Jenkins notifications, make them stop showing as new", tool: 'gmail_mark_as_read', synonym: true },
  { query: 'what labels do I have in gmail?', tool: 'gmail_list_labels' },
  { query: 'forward the AWS invoice mail to accounting@corp.com', tool: 'gmail_forward_email' },
  { query: 'search my mailbox for from:stripe.com has:attachment older_than:30d', tool: 'gmail_search_emails' },
  { query: 'what did the whole exchange with support@figma.com end up saying? I only saw their first reply', tool: 'gmail_read_email', synonym: true },

  // Calendar
  { query: 'book 30 min with dana@acme.io Thursday 2pm in room Orion', tool: 'calendar_create_event', synonym: true },
  { query: "what's on my calendar Monday through Friday?", tool: 'calendar_list_events', synonym: true },
  { query: 'push the 1:1 with Lee back an hour', tool: 'calendar_update_event', synonym: true },
  { query: "scrap Friday's offsite sync from my calendar, it's not happening", tool: 'calendar_delete_event', synonym: true },
  { query: "I'm trying to get the hiring panel together next week: when are Ana, Bo and I all open for an hour, ideally before lunch?", tool: 'calendar_find_free_time', synonym: true },
  { query: 'decline the invite for the budget review on Tuesday', tool: 'calendar_respond_to_invite' },
  { query: "set up a separate calendar just for the kids' soccer games", tool: 'calendar_create_calendar', synonym: true },
  { query: 'ping me 15 minutes ahead of the dentist appointment', tool: 'calendar_set_reminder', synonym: true },
  { query: 'list all my calendars, including shared ones', tool: 'calendar_list_calendars' },
  { query: "what's the dial-in and room for tomorrow's 10am architecture review?", tool: 'calendar_get_event', synonym: true },
  { query: "change the title of Wednesday's standup to 'Daily sync' and add Omar as an attendee", tool: 'calendar_update_event' },
  { query: "tell the organizer I'm a maybe for the offsite planning sesion", tool: 'calendar_respond_to_invite', synonym: true },

  // Drive
  { query: 'put the signed lease scan into my Drive under Housing', tool: 'drive_upload_document', synonym: true },
  { query: "where's the budget sheet from last quarter in Drive?", tool: 'drive_search_files', synonym: true },
  { query: 'let maria@partner.com look at the Q4 plan but not change anything', tool: 'drive_share_file', synonym: true },
  { query: "make a new folder called 'Invoices 2025' in drive", tool: 'drive_create_folder' },
  { query: 'relocate the onboarding deck into the HR/2025 directory on drive', tool: 'drive_move_file', synonym: true },
  { query: 'export the Q3 forecast sheet as PDF so I can email it', tool: 'drive_export_pdf' },
  { query: 'see the older versions of the pricing writeup in drive, someone changed it over the weekend', tool: 'drive_list_revisions', synonym: true },
  { query: 'bin the old draft of the proposal in drive', tool: 'drive_delete_file', synonym: true },
  { query: "new spreadsheet 'Travel expenses' with headers date, vendor, amount", tool: 'drive_create_spreadsheet' },
  { query: 'who can currently open the salary bands file?', tool: 'drive_get_permissions', synonym: true },
  { query: 'share the roadmap on Drive with the design team as commenters', tool: 'drive_share_file' },
  { query: 'cant find the vendor contract pdf anywhere in my drive, look thru it', tool: 'drive_search_files', synonym: true },

  // Stripe
  { query: 'set up Northwind Traders in stripe as a new payer: ap@northwind.com, 12 Dock St, Leeds', tool: 'stripe_create_customer', synonym: true },
  { query: 'in stripe, bill Acme $4,200 for March consulting: create the invoice and finalize it', tool: 'stripe_create_invoice' },
  { query: 'give back $20 on ch_3NxQ2a, the customer was overchraged', tool: 'stripe_refund_payment', synonym: true },
  { query: 'how much did we take in card payments between June 1 and June 30?', tool: 'stripe_list_charges', synonym: true },
  { query: 'put jane@studio.io on the Pro monthly tier in Stripe', tool: 'stripe_create_subscription', synonym: true },
  { query: 'cus_9912 wants out of their Pro renewal once this cycle wraps up', tool: 'stripe_cancel_subscription', synonym: true },
  { query: 'need a url I can paste in the newsletter so readers can buy a $49 masterclass seat', tool: 'stripe_create_payment_link', synonym: true },
  { query: "how much money is sitting in stripe right now, and what's still on the way?", tool: 'stripe_get_balance', synonym: true },
  { query: 'make a 20% off coupon LAUNCH20 for the first 3 months', tool: 'stripe_create_coupon' },
  { query: 'any customers contesting their card payments with their bank this month?', tool: 'stripe_list_disputes', synonym: true },
  { query: 'refund half of the last payment from bob@example.com', tool: 'stripe_refund_payment' },
  { query: 'list stripe charges over $500 from last week', tool: 'stripe_list_charges' },

  // Salesforce
  { query: 'add a prospect in salesforce: Maya Chen, VP Ops at Globex, met her at the trade show', tool: 'salesforce_create_lead', synonym: true },
  { query: 'the Globex deal moved to negotiation and grew to $120k, reflect that in salesforce', tool: 'salesforce_update_opportunity', synonym: true },
  { query: "SELECT Id, Name FROM Account WHERE Industry = 'Retail' — run this SOQL", tool: 'salesforce_run_soql_query' },
  { query: 'in salesforce, add Tom Reyes (tom@initech.com) as a person under the Initech customer record', tool: 'salesforce_create_contact', synonym: true },
  { query: 'note that I rang the buyer at Initech today, 20 min, they want a demo; put it in salesforce', tool: 'salesforce_log_call', synonym: true },
  { query: 'Maya from Globex is ready to buy, turn her prospect entry into a proper deal with company and person records', tool: 'salesforce_convert_lead', synonym: true },
  { query: 'pull up the Initech account with its open opportunities and contacts', tool: 'salesforce_get_account' },
  { query: 'log a complaint in salesforce for Initech: their admin is locked out', tool: 'salesforce_create_case', synonym: true },
  { query: 'what pipeline charts and summaries do we have stored in salesforce?', tool: 'salesforce_list_reports', synonym: true },
  { query: 'put the Initech account in the EMEA-North territory', tool: 'salesforce_assign_territory' },
  { query: 'pull every deal over $50k that closed in Q2 straight from salesforce with a select statement', tool: 'salesforce_run_soql_query', synonym: true },
  { query: 'update the close date on the Umbrella opportunity to Sept 30', tool: 'salesforce_update_opportunity' },

  // Zendesk
  { query: 'a shopper wrote in that her parcel never arrived, log it in zendesk', tool: 'zendesk_create_ticket', synonym: true },
  { query: 'answer the customer on zendesk #48213 that the replacement ships Monday', tool: 'zendesk_reply_to_ticket', synonym: true },
  { query: 'find every pending zendesk conversation from lena@shop.de that mentions a refund', tool: 'zendesk_search_tickets', synonym: true },
  { query: 'in zendesk merge #5501 into #5498, same customer, duplicates', tool: 'zendesk_merge_tickets' },
  { query: 'bump zendesk #48213 to urgent, the client is a big account', tool: 'zendesk_set_ticket_priority', synonym: true },
  { query: 'what canned responses do our agents have in zendesk?', tool: 'zendesk_list_macros', synonym: true },
  { query: "how happy were people with our agents' answers last month according to the zendesk surveys?", tool: 'zendesk_get_satisfaction_ratings', synonym: true },
  { query: 'publish a how-to in our zendesk self-service guide on resetting a password', tool: 'zendesk_create_article', synonym: true },
  { query: 'suspend the end user spam-bot@mailinator.com in zendesk', tool: 'zendesk_suspend_user' },
  { query: "label zendesk #48213 'billing' and 'vip'", tool: 'zendesk_tag_ticket', synonym: true },
  { query: "on zendesk #7781, add an internal note for the other agents: waiting on engineering", tool: 'zendesk_reply_to_ticket' },
  { query: 'block that abusive requster from opening any more requests in zendesk', tool: 'zendesk_suspend_user', synonym: true },

  // Datadog
  { query: 'memory usage on web-01 over the past 6 hours, show me the numbers', tool: 'datadog_query_metrics', synonym: true },
  { query: 'in datadog, warn us whenever disk usage on db-02 goes above 90%', tool: 'datadog_create_monitor', synonym: true },
  { query: 'silence the datadog disk alarm on db-02 for two hours while we migrate', tool: 'datadog_mute_monitor', synonym: true },
  { query: "search logs for service:payments status:error containing 'timeout'", tool: 'datadog_search_logs' },
  { query: "what datadog screens already exist? don't want to build a duplicate", tool: 'datadog_list_dashboards', synonym: true },
  { query: 'for the quarterly ops review on Friday, build a dashboard with graphs of request rate, error rate and p95 for checkout so leadership can see the trend', tool: 'datadog_create_dashboard' },
  { query: 'show the end-to-end request spans for the slow cart checkouts in datadog', tool: 'datadog_get_apm_traces', synonym: true },
  { query: 'drop a marker in datadog: v4.2 shipped to prod at 14:05', tool: 'datadog_post_event', synonym: true },
  { query: 'which machines is the datadog agent reporting from, and are any down?', tool: 'datadog_list_hosts', synonym: true },
  { query: 'set a 99.9% uptime target for the login API over 30 days in datadog', tool: 'datadog_create_slo', synonym: true },
  { query: 'query the cpu metric for host web-03 since midnight', tool: 'datadog_query_metrics' },
  { query: "any 'OutOfMemoryError' lines printed by the billing cron job today? look in datadog", tool: 'datadog_search_logs', synonym: true },

  // PagerDuty
  { query: 'raise the alarm in pagerduty and wake up the duty engineer, checkout is down hard', tool: 'pagerduty_trigger_incident', synonym: true },
  { query: "I've got this one: tell pagerduty I've seen the replica lag alert so it doesn't go up the chain", tool: 'pagerduty_acknowledge_incident', synonym: true },
  { query: "resolve the pagerduty incident for the API outage, it's fixed", tool: 'pagerduty_resolve_incident' },
  { query: "who's holding the pager for payments tonight?", tool: 'pagerduty_get_on_call', synonym: true },
  { query: "what's currently burning in pagerduty, plus anything from the last day?", tool: 'pagerduty_list_incidents', synonym: true },
  { query: 'jot on the pagerduty outage log that we rolled back at 03:12', tool: 'pagerduty_add_incident_note', synonym: true },
  { query: "I'll cover Sam's Saturday rotation in pagerduty, make it official", tool: 'pagerduty_create_override', synonym: true },
  { query: 'list pagerduty services and their escalation policies', tool: 'pagerduty_list_services' },
  { query: "we're patching the db hosts 2-4am Sunday; keep pagerduty quiet during that", tool: 'pagerduty_create_maintenance_window', synonym: true },
  { query: 'this outage is beyond me, bump it up to the tier 2 team in pagerduty', tool: 'pagerduty_escalate_incident', synonym: true },
  { query: "who's on call?", tool: 'pagerduty_get_on_call' },
  { query: 'list open incidnets from the last 24h', tool: 'pagerduty_list_incidents' },

  // Notion
  { query: 'start a fresh notion doc for the Q3 offsite agenda', tool: 'notion_create_page', synonym: true },
  { query: "in the Notion tasks table, show entries where Owner is me and Status isn't Done, newest first", tool: 'notion_query_database', synonym: true },
  { query: 'add three checkbox items to the bottom of my notion weekly plan', tool: 'notion_append_blocks', synonym: true },
  { query: "search notion for a page called 'Hiring rubric'", tool: 'notion_search_pages' },
  { query: "in our notion tracker, change 'Vendor audit' to Blocked and its due date to June 9", tool: 'notion_update_page_properties', synonym: true },
  { query: 'create a notion database for the reading list with typed columns: Title (text), Rating (number)', tool: 'notion_create_database' },
  { query: "leave feedback on the notion launch plan: 'timeline looks tight'", tool: 'notion_add_comment', synonym: true },
  { query: 'what does our notion onboarding guide actually say? pull up the whole thing', tool: 'notion_get_page', synonym: true },
  { query: "tuck away the old 2023 roadmap in notion, we don't need it visible but keep it", tool: 'notion_archive_page', synonym: true },
  { query: 'who are all the people in our notion?', tool: 'notion_list_users', synonym: true },
  { query: "read the contnet of the notion page 'Runbook: payments'", tool: 'notion_get_page' },
  { query: 'query the notion Bugs database, filter severity = high, sort by created', tool: 'notion_query_database' },

  // S3
  { query: 'push backup-0412.tar.gz to s3://acme-backups/db/', tool: 's3_put_object', synonym: true },
  { query: 'pull s3://acme-reports/2024/q1.csv down to my machine', tool: 's3_get_object', synonym: true },
  { query: "what's sitting in s3://acme-logs/2024/06/ right now?", tool: 's3_list_objects', synonym: true },
  { query: 'delete s3://acme-tmp/export-old.csv from the bucket', tool: 's3_delete_object' },
  { query: 'we need somewhere in s3, located in eu-west-1, to keep user avatars; set that up', tool: 's3_create_bucket', synonym: true },
  { query: 'give the auditor a link to s3://acme-reports/audit.zip that dies after 24 hours', tool: 's3_presign_url', synonym: true },
  { query: 'in s3, auto-purge anyting in acme-logs after 90 days', tool: 's3_set_lifecycle_rule', synonym: true },
  { query: 'in S3, copy logo.png from the acme-staging bucket to acme-prod', tool: 's3_copy_object' },
  { query: "who's allowed into acme-private on s3? show me the rules", tool: 's3_get_bucket_policy', synonym: true },
  { query: 'make acme-contracts keep every past revision of each file in s3', tool: 's3_enable_versioning', synonym: true },
  { query: 'list objects under prefix invoices/2025/ in the acme-billing bucket', tool: 's3_list_objects' },
  { query: 'download the object config/prod.yaml from bucket acme-cfg', tool: 's3_get_object' },

  // Postgres
  { query: 'how many signups did we get yesterday? count the rows in postgres users where created_at is yesterday', tool: 'postgres_run_query', synonym: true },
  { query: 'which relations live under the analytics namespace in postgres?', tool: 'postgres_list_tables', synonym: true },
  { query: 'pg: what fields does public.orders have, and of what kind is each?', tool: 'postgres_describe_table', synonym: true },
  { query: 'EXPLAIN ANALYZE this select on orders joined to customers', tool: 'postgres_explain_query' },
  { query: 'what SQL is hogging the most time in our prod postgres lately?', tool: 'postgres_list_slow_queries', synonym: true },
  { query: 'add an index on orders(customer_id) concurrently so the table stays writable', tool: 'postgres_create_index' },
  { query: 'public.events is bloated with dead tuples in postgres, reclaim the space and refresh planner stats', tool: 'postgres_vacuum_table', synonym: true },
  { query: 'why is my ALTER hanging in postgres? find which sessions are contending', tool: 'postgres_list_locks', synonym: true },
  { query: 'the nightly export kicked off pid 48211 and it has been chewing on postgres for an hour, dragging everything else down with it; stop it', tool: 'postgres_kill_query', synonym: true },
  { query: "what's taking up the most space in postgres, per relation?", tool: 'postgres_table_sizes', synonym: true },
  { query: "in postgres, run SELECT email FROM users WHERE plan = 'pro' LIMIT 20", tool: 'postgres_run_query' },
  { query: 'show me the execution plan for this qeury on orders', tool: 'postgres_explain_query' },

  // Twilio
  { query: "SMS +14155550142: 'your table is ready'", tool: 'twilio_send_sms' },
  { query: 'ring +442071838750 and read out the outage notice by voice', tool: 'twilio_make_call', synonym: true },
  { query: 'what SMS went out or came in on our twilio line yesterday?', tool: 'twilio_list_messages', synonym: true },
  { query: 'get us a local Canadian line in twilio for the Toronto office', tool: 'twilio_buy_phone_number', synonym: true },
  { query: 'send a WhatsApp to +34 600 123 456 saying the driver is outside', tool: 'twilio_send_whatsapp' },
  { query: 'fire off an OTP to +16505550123 so they can prove they own it', tool: 'twilio_verify_phone', synonym: true },
  { query: 'the user typed 482913, is that the right OTP for +16505550123?', tool: 'twilio_check_verification', synonym: true },
  { query: 'grab the audio from twilio conversation CA8f2e91 with the supplier', tool: 'twilio_get_call_recording', synonym: true },
  { query: "is +12125550111 a mobile or a landline, and who's the provider?", tool: 'twilio_lookup_number', synonym: true },
  { query: 'list recent calls on our twilio account', tool: 'twilio_list_calls' },
  { query: 'who dialed our support hotline in the last few hours? twilio', tool: 'twilio_list_calls', synonym: true },
  { query: 'via twilio, send a verification code to +447700900123', tool: 'twilio_verify_phone' },
];
