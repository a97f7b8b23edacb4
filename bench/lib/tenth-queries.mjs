/**
 * Tenth held-out query set for tool search.
 *
 * How it was made: written by hand from the tool catalog alone (each tool's name,
 * description and input schema), by someone who had not seen the ranker, its code,
 * its tests or any earlier query set. It was finished before any measurement and has
 * not been changed after seeing a ranking.
 *
 * Shape: 180 queries, 12 for each of the 15 services, and every one of the 150 tools is
 * the expected `tool` of at least one query. The queries read like what a model or its
 * user would actually type: short commands, questions, requests buried in a task, some
 * with names, ids, dates or addresses in them, some with a slip of the keyboard. About a
 * third never say which service they mean; the expected tool is still the only fair
 * answer among the 150.
 *
 * `synonym: true` marks a query that has no content word in common with its expected
 * tool's name or description (stop words and the service's own name are not counted, and
 * different forms of one stem count as the same word). Those queries can only be matched
 * by meaning, not by shared vocabulary.
 *
 * Keep it held out: do not tune on it, and report aggregate figures only.
 */

/** @type {{ query: string, tool: string, synonym?: true }[]} */
export const TENTH_QUERIES = [
  // GitHub
  { query: "file a bug on GitHub: the login button does nothing on Safari 17", tool: "github_create_issue", synonym: true },
  { query: "before tomorrow's release sync I need to know which PRs are still waiting on a review from alice-dev, can you put that together?", tool: "github_list_pull_requests", synonym: true },
  { query: "land PR #482 into main, CI jsut went green", tool: "github_merge_pull_request", synonym: true },
  { query: "cut a new GitHub branch called hotfix/payment-timeout off main", tool: "github_create_branch" },
  { query: "open up go.mod at tag v2.3.0 in acme/web and check which Go version it pins", tool: "github_get_file_contents", synonym: true },
  { query: "ship v3.2.0 on GitHub with a changelog so people can download it", tool: "github_create_release", synonym: true },
  { query: "reply on issue 1290 saying the fix is in the nightly build", tool: "github_add_issue_comment" },
  { query: "did last night's GitHub Actions build on main go green or red?", tool: "github_list_workflow_runs", synonym: true },
  { query: "where do we call parseInvoiceTotal in any of our GitHub projects?", tool: "github_search_code", synonym: true },
  { query: "make my own copy of kubernetes/kubernetes on my GitHub user so I can tinker", tool: "github_fork_repository", synonym: true },
  { query: "open an issue titled 'Dark mode toggle resets on reload' with the ui label", tool: "github_create_issue" },
  { query: "list open pull requests by dependabot on GitHub", tool: "github_list_pull_requests" },

  // Slack
  { query: "tell #eng-frontend in Slack that the staging deploy is done", tool: "slack_post_message", synonym: true },
  { query: "show every Slack room, including the invite-only ones", tool: "slack_list_channels", synonym: true },
  { query: "catch me up on what people said in #incidents on Slack over the last couple of hours", tool: "slack_get_channel_history", synonym: true },
  { query: "thumbs-up Maria's last post in #design", tool: "slack_add_reaction", synonym: true },
  { query: "drop Q3-roadmap.pdf into #product on Slack", tool: "slack_upload_file", synonym: true },
  { query: "spin up a private room #proj-atlas on Slack and add Dana, Lee and Omar", tool: "slack_create_channel", synonym: true },
  { query: "change the #support channel header to 'on call this week: Priya'", tool: "slack_set_channel_topic" },
  { query: "what's Kenji's job role and where is he based? he's in our Slack", tool: "slack_get_user_profile", synonym: true },
  { query: "in Slack, send a note to #general at 9am monday remindng folks about the all-hands", tool: "slack_schedule_message", synonym: true },
  { query: "who mentioned the orion migration in Slack last week?", tool: "slack_search_messages", synonym: true },
  { query: "reply in the thread under Ahmed's question in #help-infra with the runbook link", tool: "slack_post_message" },
  { query: "search slack messages from jordan about the Q4 budget before March 3", tool: "slack_search_messages" },

  // Jira
  { query: "raise a Jira bug: checkout crashes when the cart has 0 items", tool: "jira_create_issue" },
  { query: "PAY-318 is finished, close it out", tool: "jira_transition_issue", synonym: true },
  { query: "hand PAY-77 over to Wei Chen in Jira", tool: "jira_assign_issue", synonym: true },
  { query: "in Jira, find everything QA reported against the mobile app that nobody has picked up yet", tool: "jira_search_issues", synonym: true },
  { query: "record 2h30 against INFRA-902 for today's debugging", tool: "jira_add_worklog", synonym: true },
  { query: "what are we committed to in the current Jira iteration for the web squad?", tool: "jira_get_sprint", synonym: true },
  { query: "in Jira, set up a parent item called 'Single sign-on' that the SSO pieces will hang under", tool: "jira_create_epic", synonym: true },
  { query: "in Jira, mark MOB-12 as blocking MOB-15", tool: "jira_link_issues" },
  { query: "put this screenshot crash.png on BUG-4410", tool: "jira_add_attachment", synonym: true },
  { query: "which Jira spaces do I have access to?", tool: "jira_list_projects", synonym: true },
  { query: "move WEB-2201 to In Review", tool: "jira_transition_issue" },
  { query: "run this JQL: project = OPS AND status = Blocked", tool: "jira_search_issues" },

  // Gmail
  { query: "shoot jane.doe@acme.com a quick note that the contract is signed", tool: "gmail_send_email", synonym: true },
  { query: "dig through Gmail for the reciept Lufthansa sent me sometime in June", tool: "gmail_search_emails", synonym: true },
  { query: "in Gmail, open the whole back-and-forth with the landlord about the deposit", tool: "gmail_read_email", synonym: true },
  { query: "in Gmail, prepare a reply to Tom but don't send it yet, I want to check it first", tool: "gmail_create_draft" },
  { query: "stick a 'Taxes-2024' tag on everything the accountant sent me this year", tool: "gmail_add_label", synonym: true },
  { query: "tidy my Gmail: stash yesterday's newsletters away without deleting them", tool: "gmail_archive_email", synonym: true },
  { query: "whenever billing@vendor.io writes, have Gmail tuck those into a Vendors folder automatically", tool: "gmail_create_filter", synonym: true },
  { query: "clear the unread badge on those five promo emails in Gmail", tool: "gmail_mark_as_read" },
  { query: "what folders or tags do I have set up in Gmail?", tool: "gmail_list_labels", synonym: true },
  { query: "pass the note from Karen with the invoice on to ap@ourcompany.com", tool: "gmail_forward_email", synonym: true },
  { query: "email the board deck to investors@fund.vc with subject 'Q2 update'", tool: "gmail_send_email" },
  { query: "anything in my mailbox from hr@company.com about open enrollment?", tool: "gmail_search_emails" },

  // Google Calendar
  { query: "book a 30-min 1:1 with sam@acme.com Thursday at 3pm in room Birch", tool: "calendar_create_event", synonym: true },
  { query: "what meetings are on my calendar from Monday through Wednesday?", tool: "calendar_list_events", synonym: true },
  { query: "push the design review from 2pm to 4pm tomorrow", tool: "calendar_update_event", synonym: true },
  { query: "call off Friday's offsite planning session on the calendar, it's not happening anymore", tool: "calendar_delete_event", synonym: true },
  { query: "I'm trying to get Priya, Marco and myself in a room for an hour next week to plan the launch; when could all three of us make it?", tool: "calendar_find_free_time", synonym: true },
  { query: "say yes to the calendar invite for the vendor demo on the 14th", tool: "calendar_respond_to_invite" },
  { query: "set up a separate calendar just for the kids' soccer games", tool: "calendar_create_calendar" },
  { query: "ping me 15 minutes ahead of the board meeting", tool: "calendar_set_reminder", synonym: true },
  { query: "which calendars are shared with me?", tool: "calendar_list_calendars" },
  { query: "who's invited to 'Quarterly planning' and what room is it in?", tool: "calendar_get_event", synonym: true },
  { query: "put lunch with the Lisbon team on my calender for Tuesday noon", tool: "calendar_create_event", synonym: true },
  { query: "I can't make Wednesday's retro, let them know I'm declining", tool: "calendar_respond_to_invite" },

  // Google Drive
  { query: "where did I put the FY25 budget tracker in Drive?", tool: "drive_search_files", synonym: true },
  { query: "get contract-final.docx from my laptop into Google Drive under Legal", tool: "drive_upload_document", synonym: true },
  { query: "in Drive, give ana@acme.com edit rights on the onboarding doc", tool: "drive_share_file" },
  { query: "make a directory called 'Invoices 2025' in Drive", tool: "drive_create_folder", synonym: true },
  { query: "relocate the Q1 deck from Drafts to Final in Drive", tool: "drive_move_file", synonym: true },
  { query: "I need the pricing proposal from Drive as a PDF to attach to an email", tool: "drive_export_pdf" },
  { query: "who changed the onboarding guide last, and what did the earlier versions say?", tool: "drive_list_revisions", synonym: true },
  { query: "bin the old draft of the handbook in Drive", tool: "drive_delete_file", synonym: true },
  { query: "start a Google Sheet for tracking hires with columns name, role, start date", tool: "drive_create_spreadsheet" },
  { query: "can anyone outside the company open the salary-bands file?", tool: "drive_get_permissions", synonym: true },
  { query: "search Drive for anything mentioning 'Project Falcon'", tool: "drive_search_files" },
  { query: "let the auditors look at Expense-Report-March in Drive but not touch it", tool: "drive_share_file", synonym: true },

  // Stripe
  { query: "set up Globex Corp in Stripe as a buyer: ap@globex.com, 12 Elm St, Springfield", tool: "stripe_create_customer", synonym: true },
  { query: "bill Initech $4,200 for the March consulting hours", tool: "stripe_create_invoice", synonym: true },
  { query: "give order 8812's money back, the customer sent it back", tool: "stripe_refund_payment", synonym: true },
  { query: "show every card transaction that came through Stripe last week", tool: "stripe_list_charges", synonym: true },
  { query: "put acme-co on the Pro plan at $49/month in Stripe", tool: "stripe_create_subscription" },
  { query: "Hooli is leaving us, stop their monthly billing once this cycle wraps up", tool: "stripe_cancel_subscription", synonym: true },
  { query: "I need a link people can click to pay $25 for the workshop ticket", tool: "stripe_create_payment_link" },
  { query: "how much money is sitting in our Stripe right now, and how much is still on its way?", tool: "stripe_get_balance", synonym: true },
  { query: "make a 20% off promo cdoe in Stripe for Black Friday", tool: "stripe_create_coupon", synonym: true },
  { query: "are any Stripe buyers contesting card transactions with their bank?", tool: "stripe_list_disputes", synonym: true },
  { query: "create an invoice for Umbrella Corp, 10 seats at $30, and finalize it", tool: "stripe_create_invoice" },
  { query: "refund half of the $180 payment ch_3Nx9 in Stripe", tool: "stripe_refund_payment" },

  // Salesforce
  { query: "add a prospect to Salesforce: Dana Ruiz of Northwind, dana@northwind.io, we met at the expo and she wants a demo", tool: "salesforce_create_lead", synonym: true },
  { query: "the Northwind deal moved to negotiation, bump it to $85k", tool: "salesforce_update_opportunity", synonym: true },
  { query: "pull every Salesforce account in Texas with revenue over 10M using SOQL", tool: "salesforce_run_soql_query" },
  { query: "add Priya Nair, Initech's new CFO, to the people we have on file for Initech in Salesforce", tool: "salesforce_create_contact", synonym: true },
  { query: "note that I phoned Bob at Vandelay for 20 minutes about the renewal", tool: "salesforce_log_call" },
  { query: "Dana Ruiz is ready to buy, promote her from prospect to a real customer in Salesforce", tool: "salesforce_convert_lead", synonym: true },
  { query: "give me the full picture on Umbrella Corp in Salesforce, with their deals and people", tool: "salesforce_get_account", synonym: true },
  { query: "a client says their dashboard export is broken, raise this in Salesforce for the care team", tool: "salesforce_create_case", synonym: true },
  { query: "what saved Salesforce reports exist for pipeline?", tool: "salesforce_list_reports" },
  { query: "hand Acme Ltd to the EMEA-North region in Salesforce", tool: "salesforce_assign_territory", synonym: true },
  { query: "update the Globex opportunity: stage Closed Won, close date today", tool: "salesforce_update_opportunity" },
  { query: "jot down that I rang Kramer at Vandelay for 15 minutes about pricing", tool: "salesforce_log_call", synonym: true },

  // Zendesk
  { query: "a shopper wrote in that the export button is greyed out on their dashboard since Tuesday's update; file it in Zendesk so someone picks it up", tool: "zendesk_create_ticket", synonym: true },
  { query: "in Zendesk, answer #58213 and tell them the fix ships Friday", tool: "zendesk_reply_to_ticket", synonym: true },
  { query: "in Zendesk, anything still unresolved from ravi@shopmail.com?", tool: "zendesk_search_tickets", synonym: true },
  { query: "#6001 and #6004 are the same complaint from the same shopper, combine them", tool: "zendesk_merge_tickets", synonym: true },
  { query: "Zendesk ticket 7710 is urgent, bump it up", tool: "zendesk_set_ticket_priority" },
  { query: "what canned repsonses do our agents have?", tool: "zendesk_list_macros", synonym: true },
  { query: "how did people score our support agents in Zendesk last month?", tool: "zendesk_get_satisfaction_ratings", synonym: true },
  { query: "write up a how-to for resetting 2FA in our help center", tool: "zendesk_create_article" },
  { query: "lock troll@mail.ru out of our Zendesk, they keep spamming", tool: "zendesk_suspend_user", synonym: true },
  { query: "in Zendesk, label ticket 5532 with 'refund' and 'vip'", tool: "zendesk_tag_ticket" },
  { query: "publish a DIY guide in Zendesk on changing your shipping address", tool: "zendesk_create_article", synonym: true },
  { query: "add an internal note on support ticket 60215: still waiting on the courier", tool: "zendesk_reply_to_ticket" },

  // Datadog
  { query: "the checkout pods feel sluggish today; how has memroy usage on them trended over the past six hours compared with the same window yesterday?", tool: "datadog_query_metrics", synonym: true },
  { query: "alert us if p99 latency on api-gateway goes above 800ms", tool: "datadog_create_monitor" },
  { query: "in Datadog, hush the disk-space warnings on db-replica-2 for two hours during the migration", tool: "datadog_mute_monitor", synonym: true },
  { query: "grep the checkout-api output for 'socket hang up' since 10:00 in Datadog", tool: "datadog_search_logs", synonym: true },
  { query: "what boards do we have in Datadog for the k8s cluster?", tool: "datadog_list_dashboards", synonym: true },
  { query: "build a Datadog view with graphs of queue depth and worker count", tool: "datadog_create_dashboard" },
  { query: "follow a slow /checkout request hop by hop through our backend to see which call stalls", tool: "datadog_get_apm_traces", synonym: true },
  { query: "let Datadog know we rolled out v5.1 to prod at 14:20 so it shows up on the graphs", tool: "datadog_post_event", synonym: true },
  { query: "which machines are reporting to Datadog, and are any of them down?", tool: "datadog_list_hosts", synonym: true },
  { query: "set a 99.9% availability target in Datadog for the login service over 30 days", tool: "datadog_create_slo" },
  { query: "graph CPU in Datadog for web-01 through web-04 since midnight", tool: "datadog_query_metrics" },
  { query: "warn the team whenever free disk on the db boxes drops under 10%, via Datadog", tool: "datadog_create_monitor", synonym: true },

  // PagerDuty
  { query: "wake up whoever's on duty for payments, checkout is throwing 500s", tool: "pagerduty_trigger_incident", synonym: true },
  { query: "I've got the db outage, tell PagerDuty I'm looking at it so it quits paging others", tool: "pagerduty_acknowledge_incident", synonym: true },
  { query: "the db outage is fixed, close it out in PagerDuty", tool: "pagerduty_resolve_incident", synonym: true },
  { query: "who do I ring for platform-infra tonight if things break?", tool: "pagerduty_get_on_call", synonym: true },
  { query: "anything currently burning in PagerDuty?", tool: "pagerduty_list_incidents", synonym: true },
  { query: "in PagerDuty, jot on the timeline of the checkout outage that we rolled back at 02:10", tool: "pagerduty_add_incident_note" },
  { query: "in PagerDuty: I'm swapping my Saturday on-call with Chen, he covers 8am to 8pm", tool: "pagerduty_create_override" },
  { query: "what teams and systems are set up in PagerDuty, and what's the chain of command for each?", tool: "pagerduty_list_services", synonym: true },
  { query: "in PagerDuty, hold all pages for billing-api tonight 1-3am, we're doing planned upgrades", tool: "pagerduty_create_maintenance_window" },
  { query: "this outage needs more senior eyes, bump it up the chain", tool: "pagerduty_escalate_incident", synonym: true },
  { query: "what fired overnight? show me the last day's alerts in PagerDuty", tool: "pagerduty_list_incidents", synonym: true },
  { query: "who is on call rigth now for the payments schedule?", tool: "pagerduty_get_on_call" },

  // Notion
  { query: "start a new Notion doc for the Q3 offsite agenda with a heading and bullet points", tool: "notion_create_page", synonym: true },
  { query: "in the Notion tasks tracker, show items assigned to me that are overdue, newest first", tool: "notion_query_database", synonym: true },
  { query: "add a checklist with 'book venue' and 'send invites' to the bottom of the offsite page", tool: "notion_append_blocks" },
  { query: "where's the Notion write-up about onboarding?", tool: "notion_search_pages", synonym: true },
  { query: "set Status to Shipped and Owner to Lena on the 'Dark mode' row in our Notion roadmap", tool: "notion_update_page_properties" },
  { query: "make a Notion table for my reading list with title, author, date finished and a rating", tool: "notion_create_database", synonym: true },
  { query: "leave feedbak on the pricing RFC in Notion: the tier labels are confusing", tool: "notion_add_comment", synonym: true },
  { query: "open the 'Incident runbook' page in Notion and give me its contents", tool: "notion_get_page" },
  { query: "we don't need the old 2022 goals doc anymore, put it away in Notion", tool: "notion_archive_page", synonym: true },
  { query: "who's in our Notion and what are their emails?", tool: "notion_list_users", synonym: true },
  { query: "what does the team charter in Notion say about on-call?", tool: "notion_get_page", synonym: true },
  { query: "create a Notion page under Engineering called 'Postmortem 2024-11-03'", tool: "notion_create_page" },

  // Amazon S3
  { query: "push backup-2025-06-01.tar.gz into s3://acme-backups/db/", tool: "s3_put_object", synonym: true },
  { query: "grab reports/2024/q4.csv from the acme-data bucket so I can look at it", tool: "s3_get_object" },
  { query: "what's sitting under logs/2025/03/ in our acme-logs S3 store?", tool: "s3_list_objects", synonym: true },
  { query: "remvoe tmp/export-old.csv from acme-scratch in S3", tool: "s3_delete_object", synonym: true },
  { query: "spin up new S3 storage in eu-west-1 named acme-eu-archive", tool: "s3_create_bucket" },
  { query: "give the client a link to invoices/7781.pdf in S3 that dies after 24 hours", tool: "s3_presign_url", synonym: true },
  { query: "in S3, auto-delete anything in acme-tmp older than 30 days", tool: "s3_set_lifecycle_rule" },
  { query: "duplicate s3://acme-staging/images/logo.png over to acme-prod", tool: "s3_copy_object", synonym: true },
  { query: "show who's allowed in to acme-public on S3 and what they can do", tool: "s3_get_bucket_policy", synonym: true },
  { query: "in S3, make acme-contracts keep older copies whenever something gets overwritten", tool: "s3_enable_versioning", synonym: true },
  { query: "fetch the latest model weights file from s3://ml-artifacts/resnet/latest.pt to my machine", tool: "s3_get_object", synonym: true },
  { query: "upload the nightly dump to the acme-backups bucket", tool: "s3_put_object" },

  // PostgreSQL
  { query: "how many users signed up in March? count them from the users table in Postgres", tool: "postgres_run_query", synonym: true },
  { query: "what's in the billing schema?", tool: "postgres_list_tables" },
  { query: "what does the orders relation look like in Postgres, its fields and what sort of values each holds?", tool: "postgres_describe_table", synonym: true },
  { query: "why is this SELECT so slow? show me how Postgres will execute it", tool: "postgres_explain_query" },
  { query: "what SQL has been hogging Postgres the most lately?", tool: "postgres_list_slow_queries", synonym: true },
  { query: "lookups by email on the accounts relation in Postgres are crawling, speed them up without blocking writes", tool: "postgres_create_index", synonym: true },
  { query: "vacuum the events table", tool: "postgres_vacuum_table" },
  { query: "my ALTER on invoices is stuck, which session is blocking it in Postgres?", tool: "postgres_list_locks", synonym: true },
  { query: "stop pid 48213 in Postgres, it's been going for 3 hours", tool: "postgres_kill_query", synonym: true },
  { query: "which Postgres relations take up the most room?", tool: "postgres_table_sizes", synonym: true },
  { query: "run SELECT count(*) FROM orders WHERE status = 'refunded'", tool: "postgres_run_query" },
  { query: "which relations live in the analytics namespace of our warehouse Postgres?", tool: "postgres_list_tables", synonym: true },

  // Twilio
  { query: "text +1 415 555 0134 that their table is ready", tool: "twilio_send_sms" },
  { query: "use Twilio to have a robot dial +44 20 7946 0018 and read out the appointment reminder", tool: "twilio_make_call", synonym: true },
  { query: "what SMS replies came into our Twilio numbers from customers today?", tool: "twilio_list_messages", synonym: true },
  { query: "get us a Canadian number for the Toronto support line", tool: "twilio_buy_phone_number" },
  { query: "message +55 11 91234-5678 on WhatsApp through Twilio that the order shipped", tool: "twilio_send_whatsapp" },
  { query: "confirm the new signup really owns +1 202 555 0199, fire off a login PIN", tool: "twilio_verify_phone", synonym: true },
  { query: "the user typed 483920, is that the right PIN for +1 202 555 0199?", tool: "twilio_check_verification", synonym: true },
  { query: "can I listen back to the audio of session CA7a91be from yesterday?", tool: "twilio_get_call_recording", synonym: true },
  { query: "run +1 646 555 0172 through Twilio: is it a mobile or a landine, and who's the provider?", tool: "twilio_lookup_number", synonym: true },
  { query: "who dialed us in the last hour?", tool: "twilio_list_calls", synonym: true },
  { query: "check whether 771204 is the code we sent to +33 6 12 34 56 78", tool: "twilio_check_verification" },
  { query: "grab us a Berlin line so German shoppers can reach us locally", tool: "twilio_buy_phone_number", synonym: true },
];
