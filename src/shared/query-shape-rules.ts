/**
 * The entity shapes of a tool-search query (read by query-shapes.ts): each a pattern on the text as
 * written and the words tools use for what takes such a value — a `#channel`, an `ABC-123` issue
 * key, an address, an amount, a date, a duration, a quoted value —, most specific first.
 * @module
 */

/** One kind of shape: the pattern that finds it and the words tools use for what takes its value. */
export interface ShapeRule {
  kind: string;
  pattern: RegExp;
  means: readonly string[];
  /** What it stands for in a question, when that differs: "what's on tomorrow" asks for a date, not to schedule. */
  asked?: readonly string[];
  /** {@link CLEAR} or {@link HINT}. @default CLEAR */
  weight?: number;
  /**
   * Whether the text it matched is a value, not words to search with: `#incidents` is a channel,
   * not the incidents of a tool; `billing@acme.com` no billing. @default true for a CLEAR shape
   */
  consumes?: boolean;
}

/** The weight of a shape that says plainly what it is: `#eng`, `PROJ-7`, `ann@example.com`, `$40`. */
export const CLEAR = 0.7;

/** The weight of a shape that only hints: a date, a duration, a percentage, a question's first word. */
const HINT = 0.4;

const WEEKDAY = "(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?";
/**
 * Where a pasted statement ends: at the end of the query, or before a last `in`, `on`, `against`,
 * `using` or `via` and a word or two (and an article) that say where to run it, not SQL.
 */
const SQL_END =
  "(?=\\s+(?:in|on|against|using|via)\\s+(?:the\\s+|our\\s+|my\\s+)?[A-Za-z][\\w-]*(?:\\s+[A-Za-z][\\w-]*)?\\s*[?.!]?\\s*$|\\s*$)";
/** A count in words, as a duration says it: "two hours", "a couple of days", "forty-five minutes". */
const COUNT_WORD =
  "(?:an?|a\\s+(?:couple|few)\\s+of|a\\s+few|several|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|" +
  "fifteen|twenty|thirty|forty(?:[\\s-]five)?|fifty|sixty|ninety)";
/** A span of time: "2h", "90 minutes", "two and a half hours", "half an hour" (not "last two days"). */
const DURATION =
  `(?<!\\b(?:last|past)\\s)\\b(?:\\d+(?:\\.\\d+)?\\s?(?:h|hrs?|m|mins?|d)|half\\s+an?\\s+hour|(?:\\d+(?:\\.\\d+)?|${COUNT_WORD})` +
  `(?:\\s+and\\s+a\\s+half)?\\s(?:hours?|hrs?|minutes?|mins?|days?|weeks?))\\b`;
/** An age: a span of time, or so many months or years ("a week", "90 days", "six months"). */
const AGE = `(?:${DURATION}|(?:\\d+|${COUNT_WORD})\\s+(?:months?|years?)\\b)`;
const MONTH =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";

/**
 * The shapes, most specific first. `means` lists alternatives: words tools use for what takes such
 * a value (a phrase of several words is one alternative, matched as a whole).
 */
export const SHAPE_RULES: readonly ShapeRule[] = [
  // "…to 'On call this week'", “Q3 plans”: quoted text is a value to write or look for, not words
  // that say which tool is meant
  {
    kind: "quoted",
    pattern: /(?:^|[\s(:=])(?:'[^'\n]+'|"[^"\n]+"|‘[^’\n]+’|“[^”\n]+”)(?=$|[\s,.;:!?)])/,
    means: [],
  },
  // "share the screenshot in #design", "drop the deck into #sales", "send the spreadsheet to
  // #finance": a thing shared, or a file sent, in a chat channel is uploaded or posted there, not a
  // file's permissions changed or a message sent; the verb alone is taken out
  {
    kind: "in-channel",
    pattern:
      /\b(?:share|drop|put|throw|stick|pop|(?:send|post)(?=\s+(?:\S+\s+){0,3}(?:spreadsheet|sheet|pdf|file|doc|document|deck|slides|screenshot|image|photo|picture|csv|recording|video|attachment)s?\b))\b(?=[^#]*\b(?:in|into|to|on|with)\s+(?:the\s+)?#[a-z])/i,
    means: ["upload to channel", "post to channel"],
  },
  // "add Carla to the standup", "invite Sam and Lee to Friday's review": people added to a meeting
  // change its attendees, they make no meeting: the whole phrase says so, and is taken out
  {
    kind: "to-meeting",
    pattern:
      /\b(?:add|invite|include|bring)\s+(?!(?:a|an|the|new|another)\b)\S+(?:\s+(?:and|&)\s+\S+)?\s+(?:to|in|into|on)\s+(?:the|my|our|this|that|\S+'s)\s+(?:\S+\s+){0,2}(?:meeting|event|call|sync|standup|review|lunch|session|appointment|kickoff|retro|demo|invite)s?\b/i,
    means: ["change event attendees"],
  },
  // "the payments team", "for the database squad": a team's name is a value, not a thing to act on
  {
    kind: "team",
    pattern:
      /(?<!['’])\b(?!(?:the|an?|my|our|your|their|his|her|its|this|that|these|those|whole|entire|same|other|new|which|what|whose|on|for|to|of|in|with|and)\b)[a-z][\w&-]*\s+(?:team|squad|crew)s?\b/i,
    means: [],
  },
  // "the releases channel", "in the incidents channel": a channel's name is a value, not releases or
  // incidents to act on; the kinds of channel (private, shared…) and the chat service's own name stay
  {
    kind: "channel-name",
    pattern:
      /(?<=\b(?:the|in|into|to|on|our|my)\s+)(?!(?:the|an?|my|our|your|their|this|that|these|those|which|what|new|private|public|shared|archived|slack|teams|discord|chat|team)\b)[a-z][\w&-]*(?=\s+(?:channel|room)\b)/i,
    means: [],
  },
  // "a folder called Invoices 2025", "a page titled Meeting Notes", "a bucket named acme-logs": what
  // a thing is called is a value (its title), not words that say which tool is meant; not the verb
  // of a caller ("who called Acme", "the customer called Dana")
  {
    kind: "named",
    pattern:
      /(?<!\b(?:who|whoever|I|we|you|they|he|she|someone|anyone|customer|client|caller|they've|we've|I've|has|have|had)\s+)\b(?:called|named|titled|entitled)\s+(?:[A-Z0-9][\w&.'’-]*(?:\s+[A-Z0-9][\w&.'’-]*)*|[a-z0-9][\w.-]*[-_.0-9][\w.-]*)/,
    means: [],
  },
  // `#general`, `#eng-alerts` (a chat channel), not `#42` (a number)
  { kind: "channel", pattern: /(?:^|[\s(])#[a-z][\w-]*/i, means: ["channel"] },
  // `#42`, `PR #311`: an issue, pull request or ticket number
  { kind: "number-ref", pattern: /(?:^|[\s(])#\d+\b/, means: ["issue", "ticket", "pull request"] },
  // `ABC-123`, `PROJ-7`: an issue tracker's key
  { kind: "issue-key", pattern: /\b[A-Z][A-Z0-9]{1,9}-\d+\b/, means: ["issue", "ticket"] },
  // an address to write to, or, in a question ("did ann@x.com write back?"), whose mail to look for
  {
    kind: "email",
    pattern: /\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b/,
    means: ["email", "address", "recipient"],
    asked: ["email"],
  },
  { kind: "mention", pattern: /(?:^|\s)@[a-z][\w.-]*\b(?!\.[a-z])/i, means: ["user", "member", "author"] },
  // `SELECT … FROM …`: a statement to run, its tables and columns values, not words to search with
  {
    kind: "sql",
    // SQL's keywords in capitals, or a lower-case `select … from <table>` whose table ends the
    // query or starts a clause — not English: "select a template from the gallery"; the statement
    // ends before a last "in Salesforce", "on the prod database": where to run it, said in words
    pattern: new RegExp(
      `\\bSELECT\\b[^.?!]*?\\bFROM\\b.*?${SQL_END}|\\b[Ss]elect\\b[^.?!]*?\\b(?:from|FROM)\\s+[A-Za-z_][\\w.]*(?:${SQL_END}|\\s*;|\\s*(?:where|order|group|limit|join|WHERE|ORDER|GROUP|LIMIT|JOIN)\\b.*?${SQL_END})`,
    ),
    means: ["sql", "select", "query"],
  },
  // `service:billing`, `from:ann is:unread`: a search syntax's field filters, for a tool that searches
  {
    kind: "field-filter",
    pattern: /(?<=(?:^|\s)[a-z_]+):(?!\/\/)[\w"'*.@<>=-]+/i,
    means: ["search", "query", "filter"],
  },
  // a web address; an `s3://` or `gs://` one names a stored object (read as a path below)
  { kind: "url", pattern: /\b(?:https?|ftp):\/\/\S+/i, means: ["url", "link"] },
  // `from stripe.com`: a web domain is a sender's or a site's, a value: it names no service
  {
    kind: "domain",
    pattern:
      /\b[a-z0-9][\w-]*(?:\.[\w-]+)*\.(?:com|org|net|io|dev|co|ai|app|edu|gov)(?:\.[a-z]{2})?\b(?!\.\w)/i,
    means: [],
  },
  {
    kind: "path",
    pattern:
      /(?:\b[\w-]+\/[\w./-]*[\w-]|\b[\w-]+(?:\.[\w-]+)*\.(?:pdf|png|jpe?g|gif|csv|tsv|txt|md|json|ya?ml|xml|gz|zip|tar|docx?|xlsx?|pptx?|log|sql|html?|js|ts|py|go|rs|java|sh)\b)/i,
    means: ["file", "document", "object", "path"],
  },
  // "did the build pass on main?", "package.json on the release-2.0 branch", "at tag v2.0": a branch,
  // tag or commit named as where a thing is, or which runs, is a ref (a value), not one to create
  {
    kind: "on-branch",
    pattern:
      /\b(?:on|at|in|of|against)\s+(?:the\s+)?(?:(?:main|master|trunk|develop)\b(?:\s+branch\b)?|[\w./-]+\s+branch\b|(?:tag|commit)\s+[\w./-]*\d[\w./-]*)/i,
    means: ["ref"],
    weight: HINT,
    consumes: true,
  },
  {
    kind: "phone",
    pattern: /(?:^|\s)\+?\d{1,3}[\s.-]?\(?\d{2,4}\)?[\s.-]?\d{3,4}[\s.-]?\d{3,4}\b/,
    means: ["phone"],
  },
  {
    kind: "discount",
    pattern:
      /\d\s?(?:%|percent)\s+off(?:\s+(?:code|coupon|voucher))?\b|\b(?:promo|discount|coupon)\s+code\b/i,
    means: ["discount", "coupon"],
  },
  {
    kind: "money",
    pattern: /[$€£¥]\s?\d|\b\d+(?:[.,]\d+)?\s?(?:usd|eur|gbp|dollars?|euros?|bucks)\b/i,
    means: ["payment", "amount", "price", "charge"],
  },
  {
    kind: "percent",
    pattern: /\d\s?(?:%|percent)(?!\s+off)/i,
    means: ["threshold", "percent", "rate"],
    weight: HINT,
  },
  { kind: "version", pattern: /\bv\d+(?:\.\d+)+\b/i, means: ["release", "version", "tag"] },
  {
    kind: "age",
    pattern: new RegExp(
      `\\b(?:older|newer)\\s+than\\s+(?:${AGE}|\\d+)|${AGE}\\s+old\\b|\\bafter\\s+\\d+\\s+(?:days?|weeks?|months?|years?)\\b`,
      "i",
    ),
    // what ages things out, not the words a query says it with ("expire objects after 30 days" still
    // reads it); its span of time taken out, so that it reads as no time spent
    means: ["lifecycle", "retention", "expire old"],
    consumes: true,
  },
  // 🎉, :tada:, 👍: an emoji to react with
  {
    kind: "emoji",
    pattern: /\p{Extended_Pictographic}|(?:^|\s):[a-z0-9_+-]+:(?:\s|$)/u,
    means: ["reaction", "emoji"],
  },
  // p95, p99: a latency percentile
  // "rows where Status is Open", "orders where total > 500", "candidates whose stage is Onsite",
  // "newest first", "sorted by date": records picked by a condition on their fields, or sorted, are
  // queried, filtered or searched for (a clear sign, not a hint: the records themselves are asked for)
  {
    kind: "where",
    pattern:
      /\S\s+(?:where|whose)\s+(?:the\s+|its\s+|their\s+)?[\w.]+\s*(?:(?:is|are|was|equals|contains|includes|matches)\b|[=<>]|!=)|\b(?:newest|oldest|latest|earliest)\s+first\b|\bsort(?:ed)?\s+by\b|\border\s+by\b/i,
    means: ["filter", "query", "select", "search", "sort"],
    weight: CLEAR,
    consumes: false,
  },
  // "move my 3pm to 4:30", "move the review to Friday": moving a thing to a time reschedules it
  {
    kind: "to-time",
    pattern: new RegExp(
      `\\bmov(?:e|ed|ing)\\b.*\\bto\\s+(?:tomorrow|next\\s+(?:week|${WEEKDAY})|${WEEKDAY}|\\d{1,2}(?::\\d{2})?\\s?(?:am|pm)|\\d{1,2}:\\d{2})\\b`,
      "i",
    ),
    means: ["update time", "reschedule"],
    consumes: false,
  },
  // `orders.customer_id`: a table's column
  {
    kind: "column",
    pattern: /\b[a-z][a-z0-9]*\.[a-z][a-z0-9]*_[a-z0-9_]+\b/i,
    means: ["column", "table", "field"],
  },
  // "30 minutes with Ana next Tuesday": a length of time on a day ahead is a meeting's
  {
    kind: "timed-meeting",
    pattern: new RegExp(
      `\\b\\d+\\s?(?:-\\s?)?(?:minutes?|mins?|hours?|hrs?|h)\\b.*\\b(?:tomorrow|next\\s+(?:week|${WEEKDAY})|on\\s+${WEEKDAY})\\b`,
      "i",
    ),
    means: ["meeting", "event", "appointment"],
    consumes: false,
  },
  // "my 3pm", "tomorrow's 1:1", "a one-on-one": a meeting named by its time or kind
  {
    kind: "meeting",
    pattern:
      /\b(?:my|the|our|your|'s)\s+\d{1,2}(?::\d{2})?\s?(?:am|pm)\b|(?:^|\s|'s\s)1:1s?\b|\bone[- ]on[- ]ones?\b/i,
    means: ["meeting", "event", "appointment"],
    consumes: false,
  },
  // "who changed the doc", "who deleted it", "when was it edited": the history of what was done
  {
    kind: "who-did",
    pattern:
      /^\s*(?:who|when)\s+(?:(?:was|were|has|had)\s+)?(?:\w+\s+)?(?:changed|edited|modified|updated|deleted|removed|moved|wrote|touched|renamed)\b/i,
    means: ["history", "revision", "audit", "activity"],
    weight: HINT,
  },
  // "anything from the landlord about the deposit", "mails about the renewal from Acme": things
  // picked by who sent them and what they are about are searched for
  {
    kind: "from-about",
    pattern: /\bfrom\s+\S+.*\babout\s+\S|\babout\s+\S+.*\bfrom\s+\S/i,
    means: ["search", "filter", "query"],
    weight: HINT,
  },
  // "is there a page about the offsite?", "any mails from the bank this week?": a question whether
  // such a thing exists is a search for it
  {
    kind: "exists",
    pattern: /^\s*(?:(?:is|are)\s+there\s+(?:a|an|any|anything|something|some)|any|anything)\s+\S/i,
    means: ["search", "find"],
    weight: HINT,
  },
  { kind: "percentile", pattern: /\bp(?:50|75|90|95|99|999)\b/i, means: ["metric", "latency"] },
  // "if latency crosses 500ms", "when disk goes above 90%": a condition on a measure's number is a
  // threshold, which a monitor alerts on (plainly: a number to cross is no mail rule's)
  {
    kind: "threshold",
    pattern:
      /\b(?:if|when(?:ever)?|once)\b.*\b(?:above|below|over|under|exceeds?|drops?|spikes?|reaches|hits|goes|cross(?:es)?|passes|tops|falls|climbs|rises|jumps|dips)\s+(?:\w+\s+)?[$€£]?\d/i,
    means: ["alert", "monitor", "threshold"],
    consumes: false,
  },
  // "if the error rate goes above 5 %": a condition, which an alert, a rule or a filter watches for
  {
    kind: "condition",
    pattern:
      /\b(?:if|when(?:ever)?|once)\b.*\b(?:above|below|over|under|exceeds?|drops?|spikes?|reaches|hits|goes|cross(?:es)?|passes|tops|falls|climbs|rises|jumps|dips)\b/i,
    means: ["alert", "monitor", "threshold", "rule", "filter"],
    weight: HINT,
  },
  // "an hour before the flight", "two days ahead of the launch": a time ahead of a thing is when to
  // be reminded of it, not time spent
  {
    kind: "ahead",
    pattern: new RegExp(`${DURATION}\\s+(?:before|ahead\\s+of|prior\\s+to)\\b`, "i"),
    means: ["reminder", "notification"],
  },
  {
    kind: "duration",
    pattern: new RegExp(`${DURATION}(?!\\s+ago)`, "i"),
    means: ["time spent", "duration", "time"],
    weight: HINT,
  },
  {
    kind: "future",
    pattern: new RegExp(
      `\\b(?:tomorrow|tonight|next\\s+(?:week|month|year|${WEEKDAY})|later\\s+today|(?:on|by|until|for|to)\\s+${WEEKDAY}|` +
        `(?:at|by)\\s+(?:[01]?\\d|2[0-3])(?::\\d{2})?(?!\\s?%)\\s?(?:am|pm)?|to\\s+(?:[01]?\\d|2[0-3]):\\d{2}|\\d{1,2}(?::\\d{2})?\\s?(?:am|pm)|(?:on|by)\\s+${MONTH}\\s+\\d{1,2})\\b`,
      "i",
    ),
    means: ["schedule", "later", "date"],
    asked: ["date"],
    weight: HINT,
  },
  {
    kind: "past",
    pattern: new RegExp(
      `\\b(?:yesterday|today|this\\s+(?:morning|afternoon|week|month)|last\\s+(?:night|week|month|year|hour|${WEEKDAY})|` +
        `(?:last|past)\\s+\\d+\\s+(?:minutes?|mins?|hours?|days?|weeks?)|` +
        `\\d+\\s+(?:hours?|days?|weeks?)\\s+ago|since\\s+(?:${WEEKDAY}|${MONTH}|yesterday|\\d)|lately|recently)\\b`,
      "i",
    ),
    means: ["recent", "history", "date"],
    weight: HINT,
  },
  // "set Status to Done and Owner to Kim": several fields set at once are a record's properties
  {
    kind: "fields",
    pattern: /\b(?:set|change|make)\s+\w+\s+to\s+\S+.*?(?:,|\band)\s+\w+\s+to\s+\S/i,
    means: ["properties", "fields"],
    consumes: false,
  },
  {
    kind: "status",
    pattern: /\b(?:(?:to|as|into)\s+(?:done|to\s?do|blocked|closed|backlog)|in\s+(?:progress|review|qa))\b/i,
    means: ["status", "workflow", "stage"],
    consumes: false,
  },
  // what a question's first word asks for
  { kind: "why", pattern: /^\s*why\b/i, means: ["explain", "diagnose", "reason"], weight: HINT },
  {
    kind: "how-much",
    pattern: /^\s*how\s+(?:much|many)\b/i,
    means: ["count", "total", "size", "balance"],
    weight: HINT,
  },
  {
    kind: "who",
    pattern: /^\s*who(?:'s|\s+is|\s+are)?\b/i,
    means: ["user", "member", "people"],
    weight: HINT,
  },
  { kind: "when", pattern: /^\s*when\b/i, means: ["time", "date", "schedule"], weight: HINT },
  // where a thing is: its location, which a tool getting one thing gives among its details
  { kind: "where", pattern: /^\s*where\b/i, means: ["location details", "path"], weight: HINT },
];
