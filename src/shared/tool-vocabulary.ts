/**
 * The default vocabulary of client-side tool search: classes of words from the common vocabularies
 * of APIs — the CRUD verbs, messaging, scheduling, time tracking, issue workflows, payments, sales,
 * support, monitoring, access — with the everyday words a model uses for each (give → assign, push
 * back → reschedule, money back → refund). Compiled by tool-synonyms.ts; `toolSearch: { synonyms }`
 * adds to it. Kept to words that mean the same across services, never the words of one catalog.
 * @module
 */

/** Words that stand for each other, each matching the others. Two-word members are listed in {@link TWO_WORD}. */
export const GROUPS: readonly string[] = [
  // reading and finding
  "search find locate lookup look for look up grep seek",
  "get read fetch retrieve view show display",
  // changing and removing
  "update change edit modify alter adjust",
  "delete remove trash erase discard throw away purge wipe destroy",
  "cancel stop abort terminate kill halt",
  // messages and answers
  "send post deliver",
  "reply respond answer",
  "remind reminder notify notification",
  "mute silence snooze",
  "react reaction emoji",
  // work items
  "merge combine deduplicate dedupe",
  "assign reassign delegate",
  "label tag",
  "rule filter",
  // scheduling
  "free available availability",
  "meeting event appointment",
  // things
  "document doc",
  "customer client",
  "version revision",
  "dispute chargeback contest",
  "subscribe subscription",
  "payment charge transaction",
  "discount coupon promo voucher",
  "satisfaction rating feedback",
  "call phone dial ring",
  "upload store",
  "link url",
  "member user people person teammate colleague",
];

/** The two-word members of {@link GROUPS}. */
export const TWO_WORD: ReadonlySet<string> = new Set(["look for", "look up", "throw away"]);

/** A word or phrase a model uses (key), the tool words it stands for (values, the best one counts). */
export const ONE_WAY: Readonly<Record<string, readonly string[]>> = {
  // creating: the verbs of "make a new one"
  make: ["create"],
  add: ["create"],
  new: ["create"],
  open: ["create"],
  raise: ["create"],
  "set up": ["create"],
  "spin up": ["create"],
  start: ["create"],
  generate: ["create"],
  register: ["create"],
  book: ["create", "reserve"],
  // kinds of meeting: what a calendar's events are called
  standup: ["meeting", "event"],
  retro: ["meeting", "event"],
  interview: ["meeting", "event"],
  offsite: ["meeting", "event"],
  sync: ["meeting", "event"],
  // reading: the verbs of "let me see it"
  see: ["view", "list", "get"],
  "pull up": ["get", "read"],
  check: ["get", "status"],
  // removing and finishing
  "get rid of": ["delete", "remove"],
  "clean up": ["delete", "archive"],
  drop: ["delete", "remove"],
  close: ["resolve", "done"],
  fix: ["resolve"],
  complete: ["done", "resolve"],
  finish: ["done", "resolve"],
  end: ["cancel", "stop"],
  "call off": ["cancel"],
  discontinue: ["cancel"],
  unsubscribe: ["cancel subscription"],
  // rescheduling: moving a thing in time
  reschedule: ["update time", "schedule", "change"],
  postpone: ["update time", "schedule", "change"],
  delay: ["update time", "schedule", "change"],
  push: ["update time", "change"],
  "push back": ["update time", "change"],
  "move up": ["update time", "change"],
  shift: ["update time", "change"],
  later: ["schedule"],
  queue: ["schedule"],
  // messaging: saying something to someone
  tell: ["send message", "post message"],
  inform: ["send message", "notify"],
  announce: ["post message", "send message"],
  broadcast: ["post message", "send message"],
  ping: ["remind", "notify", "message"],
  text: ["send sms"],
  email: ["send email"],
  "pass along": ["forward"],
  "pass on": ["forward"],
  say: ["message"],
  said: ["message", "history"],
  wrote: ["message"],
  mention: ["message"],
  discuss: ["message"],
  chat: ["message", "channel"],
  "thumbs up": ["reaction"],
  upvote: ["reaction"],
  // composing without sending
  "don send": ["draft"],
  "not send": ["draft"],
  "without send": ["draft"],
  // handing work over, and its state
  give: ["assign", "share"],
  hand: ["assign"],
  "hand over": ["assign"],
  "hand off": ["assign"],
  owner: ["assign"],
  bug: ["issue", "ticket"],
  defect: ["issue", "ticket"],
  story: ["issue", "ticket"],
  task: ["issue", "ticket"],
  status: ["transition", "stage"],
  progress: ["transition", "status"],
  // tracking time
  record: ["log"],
  track: ["log"],
  hours: ["time"],
  timesheet: ["worklog", "time"],
  note: ["log", "comment"],
  phoned: ["call"],
  rang: ["call"],
  // access
  grant: ["share", "access"],
  "can see": ["access", "permission"],
  "can edit": ["access", "share"],
  "can view": ["access", "share"],
  viewer: ["share", "access"],
  editor: ["share", "access"],
  collaborator: ["share", "access"],
  invite: ["share", "invitation"],
  // money
  "money back": ["refund"],
  reimburse: ["refund"],
  bill: ["invoice", "charge"],
  money: ["balance", "payment"],
  funds: ["balance"],
  cash: ["balance"],
  revenue: ["charge", "payment"],
  monthly: ["subscription", "recurring"],
  weekly: ["subscription", "recurring"],
  yearly: ["subscription", "recurring"],
  annual: ["subscription", "recurring"],
  recurring: ["subscription"],
  // sales and support
  prospect: ["lead"],
  deal: ["opportunity"],
  pipeline: ["opportunity"],
  company: ["account"],
  complaint: ["ticket"],
  urgent: ["priority"],
  happy: ["satisfaction"],
  unhappy: ["satisfaction"],
  csat: ["satisfaction"],
  nps: ["satisfaction"],
  // monitoring and operations
  alarm: ["monitor", "alert"],
  above: ["threshold"],
  below: ["threshold"],
  exceed: ["threshold"],
  usage: ["metric"],
  utilization: ["metric"],
  graph: ["metric", "dashboard"],
  chart: ["metric", "dashboard"],
  outage: ["incident"],
  automatically: ["rule", "filter", "policy"],
  automatic: ["rule", "filter", "policy"],
  // sizes and amounts
  big: ["size"],
  large: ["size"],
  disk: ["size"],
  // everyday words and abbreviations for tool words
  copy: ["fork"],
  temporary: ["time limited", "expire"],
  sheet: ["spreadsheet"],
  repo: ["repository"],
  pr: ["pull request"],
  db: ["database"],
  msg: ["message"],
  dm: ["direct message"],
  postgresql: ["postgres"],
  pg: ["postgres"],
};
