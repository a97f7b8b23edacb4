/**
 * Abbreviations and chat-speak, phrases that name a whole action, irregular past tenses and British
 * spellings, and the later passes over each tool's action and object.
 * Part of the default vocabulary of client-side tool search (see tool-vocabulary.ts, which puts the
 * parts together in order: a key of a later part stands in place of the same key of an earlier one).
 * @module
 */

/** Words or phrases (keys) and the tool words each stands for. */
type Vocabulary = Readonly<Record<string, readonly string[]>>;

/** Abbreviations and chat-speak, phrases that name a whole action, irregular past tenses and British spellings, and the later passes over each tool's action and object. */
export function everydayPhrases(): Readonly<Record<string, readonly string[]>> {
  return {
    ...phrasesAbbreviationsAndChatSpeak(),
    ...phrasesWholeActions(),
    ...phrasesSecondPass(),
    ...phrasesPastTensesAndSpellings(),
    ...phrasesCodeHosting(),
    ...phrasesChat(),
    ...phrasesIssueTracking(),
    ...phrasesMail(),
    ...phrasesCalendar(),
    ...phrasesFiles(),
    ...phrasesPayments(),
    ...phrasesSalesAndSupport(),
    ...phrasesMonitoring(),
    ...phrasesIncidentsAndOnCall(),
    ...phrasesPages(),
    ...phrasesStorageAndDatabases(),
    ...phrasesPhones(),
    ...phrasesThirdPassVerbs(),
    ...phrasesRecurring(),
  };
}

/**
 * A time that comes round again — every Monday, each morning, every month — is a schedule, and a
 * billing period a recurring plan ("post the numbers in #sales every Monday" schedules the post).
 */
function phrasesRecurring(): Vocabulary {
  const vocabulary: Record<string, readonly string[]> = {};
  const times =
    "monday tuesday wednesday thursday friday saturday sunday morning evening night day weekday hour";
  for (const each of ["every", "each"]) {
    for (const time of times.split(" ")) vocabulary[`${each} ${time}`] = ["schedule", "recurring"];
    for (const period of ["week", "month", "quarter", "year"])
      vocabulary[`${each} ${period}`] = ["recurring", "subscription", "schedule"];
  }
  return vocabulary;
}

/** Abbreviations and chat-speak for the catalog's words. */
function phrasesAbbreviationsAndChatSpeak(): Vocabulary {
  return {
    fwd: ["forward"],
    fw: ["forward"],
    cal: ["calendar"],
    mtg: ["meeting"],
    appt: ["appointment"],
    hrs: ["hours", "time"],
    mins: ["minutes", "time"],
    acct: ["account"],
    txn: ["transaction", "charge", "payment"],
    cust: ["customer"],
    biz: ["business", "account"],
    dept: ["department"],
    mgr: ["manager"],
    info: ["details"],
    pic: ["image", "photo", "file"],
    pics: ["image", "photo", "file"],
    k8s: ["kubernetes"],
    dash: ["dashboard"],
    perf: ["latency", "slow"],
    sev: ["incident", "priority"],
    oncall: ["on call"],
    pto: ["time off", "leave", "vacation"],
    ooo: ["time off", "leave"],
    fyi: ["notify", "message"],
    asap: ["urgent", "priority"],
    dl: ["download"],
    kb: ["knowledge base"],
    howto: ["article", "knowledge base"],
    num: ["number"],
    tel: ["phone"],
    addr: ["address"],
    idx: ["index"],
    tbl: ["table"],
    col: ["column"],
    cols: ["columns"],
    perm: ["permission"],
    ppl: ["people"],
    "hit up": ["send message", "call"],
    holler: ["send message"],
    shout: ["post message", "send message"],
    gimme: ["get", "show"],
  };
}

/** Everyday phrases for a whole action of the catalog. */
function phrasesWholeActions(): Vocabulary {
  return {
    "report bug": ["create issue", "create ticket"],
    "report issue": ["create issue", "create ticket"],
    "report problem": ["create issue", "create ticket"],
    "log bug": ["create issue", "create ticket"],
    "log issue": ["create issue", "create ticket"],
    "stop billing": ["cancel subscription"],
    "stop charging": ["cancel subscription"],
  };
}

/** A second pass over the catalog's verbs and nouns. */
function phrasesSecondPass(): Vocabulary {
  return {
    "go live": ["publish", "release"],
    "put out": ["publish", "release"],
    "roll out": ["release", "deploy"],
    "push out": ["release", "publish"],
    "comb through": ["search"],
    "look through": ["search"],
    "search through": ["search"],
    "scan through": ["search"],
    "browse through": ["search", "list"],
    "check through": ["search"],
    "sift through": ["search", "filter"],
    drag: ["move"],
    repay: ["refund"],
    quit: ["cancel", "stop"],
    "opt out": ["cancel subscription", "cancel"],
    freeze: ["suspend", "disable"],
    "set off": ["trigger"],
    claim: ["acknowledge", "assign"],
    "pull down": ["download", "get"],
    robocall: ["call"],
    fight: ["dispute"],
    challenge: ["dispute"],
    "drop note": ["post message", "send message"],
    "drop message": ["post message", "send message"],
    "held up": ["blocks", "link"],
    "hold up": ["blocks", "link"],
    "can open": ["access", "permission"],
    "can access": ["access", "permission"],
    "availability target": ["service level objective", "slo"],
    "uptime target": ["service level objective", "slo"],
    "reliability target": ["service level objective", "slo"],
    layout: ["columns", "describe"],
    kind: ["type"],
    landline: ["phone", "type"],
    inside: ["contents"],
    "branch off": ["create branch", "branch"],
    backlog: ["issue", "ticket"],
    username: ["profile", "member"],
  };
}

/** Irregular past tenses and British spellings the stemmer does not join to the keys above. */
function phrasesPastTensesAndSpellings(): Vocabulary {
  return {
    "brought back": ["restore", "revision", "version"],
    "got rid of": ["delete", "remove"],
    "threw away": ["delete", "trash"],
    "throw out": ["delete", "trash"],
    "threw out": ["delete", "trash"],
    "took over": ["assign", "override"],
    "wrote back": ["reply", "respond"],
    "gave back": ["refund"],
    ran: ["run"],
    analyse: ["analyze"],
    prioritise: ["priority"],
    prioritize: ["priority"],
    cheque: ["payment"],
  };
}

/** A third pass, tool by tool — the everyday words for each tool's action and object: code hosting. */
function phrasesCodeHosting(): Vocabulary {
  return {
    diff: ["pull request", "commit"],
    integrate: ["merge"],
    "cut branch": ["create branch"],
    "cut release": ["create release", "publish release"],
    defined: ["code", "search code"],
    definition: ["code", "search code"],
    implementation: ["code"],
    "test run": ["workflow run", "ci"],
  };
}

/** Chat. */
function phrasesChat(): Vocabulary {
  return {
    scrollback: ["history"],
    // scrolling back, up or through a channel reads what was said there before
    "scroll back": ["history", "recent"],
    "scroll up": ["history", "recent"],
    "scroll through": ["history", "recent"],
    overnight: ["recent"],
    transcript: ["history", "message"],
    missed: ["history", "recent"],
    header: ["topic"],
    tagline: ["topic"],
    avatar: ["profile"],
    handle: ["profile", "username"],
    whois: ["profile", "lookup"],
  };
}

/** Issue tracking. */
function phrasesIssueTracking(): Vocabulary {
  return {
    chore: ["task", "issue"],
    "work item": ["issue", "ticket"],
    allocate: ["assign"],
    clock: ["log time", "time"],
    effort: ["time", "worklog"],
    scrum: ["sprint"],
    related: ["relates", "link"],
  };
}

/** Mail. */
function phrasesMail(): Vocabulary {
  return {
    letter: ["email"],
    correspondence: ["email"],
    hide: ["archive", "mute"],
    category: ["label", "tag"],
    categories: ["labels", "tags"],
  };
}

/** Calendar. */
function phrasesCalendar(): Vocabulary {
  return {
    forget: ["reminder"],
    venue: ["location"],
    guests: ["attendees"],
    invitees: ["attendees"],
    participants: ["attendees", "members"],
    skip: ["decline"],
    "sit out": ["decline"],
    "bow out": ["decline"],
    "block off": ["create event", "schedule"],
    "block out": ["create event", "schedule"],
    // what mail clients call an invitation
    "meeting request": ["invitation"],
    "meeting invite": ["invitation"],
    "calendar invite": ["invitation"],
    "event invite": ["invitation"],
  };
}

/** Files. */
function phrasesFiles(): Vocabulary {
  return {
    csv: ["spreadsheet"],
    visibility: ["access", "permission"],
    "sharing settings": ["permission", "access"],
    // made visible or available to people, a thing is shared with them
    "visible to": ["share", "access"],
    "available to": ["share", "access"],
    "accessible to": ["share", "access"],
  };
}

/** Payments. */
function phrasesPayments(): Vocabulary {
  return {
    onboard: ["create"],
    purchases: ["charges", "payment"],
    income: ["charges", "balance"],
    churn: ["cancel subscription"],
    "buy button": ["payment link", "checkout"],
    "payment page": ["payment link", "checkout"],
    "get paid": ["payment link", "invoice"],
  };
}

/** Sales and support. */
function phrasesSalesAndSupport(): Vocabulary {
  return {
    "address book": ["contacts"],
    touchpoint: ["call", "activity"],
    overview: ["details", "summary"],
    rundown: ["details", "summary"],
    triage: ["priority"],
    documentation: ["article", "knowledge base", "document"],
    "help doc": ["article", "knowledge base"],
    "self service": ["help center", "knowledge base"],
    "kick out": ["suspend", "remove"],
  };
}

/** Monitoring. */
function phrasesMonitoring(): Vocabulary {
  return {
    trend: ["metric", "time series"],
    "shut up": ["mute", "silence"],
    board: ["dashboard"],
    panel: ["dashboard", "graph"],
    widget: ["dashboard", "graph"],
    visualize: ["dashboard", "graph"],
    plot: ["graph", "metric"],
    bottleneck: ["traces", "latency", "slow"],
    node: ["host"],
  };
}

/** Incidents and on-call. */
function phrasesIncidentsAndOnCall(): Vocabulary {
  return {
    "all clear": ["resolve"],
    duty: ["on call"],
    trade: ["swap", "override"],
    "higher up": ["escalate", "next level"],
    "send up": ["escalate", "next level"],
    "pass up": ["escalate", "next level"],
    "more senior": ["escalate", "next level"],
    "someone senior": ["escalate", "next level"],
    "woken up": ["page", "on call", "alert"],
    "woke up": ["page", "on call", "alert"],
  };
}

/** Pages. */
function phrasesPages(): Vocabulary {
  return {
    bottom: ["append"],
    remark: ["comment"],
    headcount: ["users", "members"],
  };
}

/** Storage and databases. */
function phrasesStorageAndDatabases(): Vocabulary {
  return {
    ls: ["list"],
    "old copies": ["versions", "versioning"],
    "how many": ["count", "query"],
    expensive: ["slow", "slowest"],
  };
}

/** Phones. */
function phrasesPhones(): Vocabulary {
  return {
    rent: ["buy"],
    listen: ["recording"],
    inbound: ["incoming", "received"],
  };
}

/** A third pass over everyday verbs and phrasal verbs for the catalog's actions. */
function phrasesThirdPassVerbs(): Vocabulary {
  return {
    "put up": ["publish", "post"],
    "throw together": ["create", "draft"],
    "fire up": ["start", "create"],
    "boot up": ["start"],
    mint: ["create"],
    eyeball: ["view", "get"],
    "find out": ["search", "get"],
    "figure out": ["explain", "search"],
    "look over": ["review", "view"],
    "go over": ["review", "view"],
    "check on": ["status", "get"],
    "keep tabs on": ["monitor"],
    "fix up": ["update", "edit"],
    "touch up": ["edit", "update"],
    "swap out": ["replace", "update"],
    strip: ["remove"],
    prune: ["delete", "remove"],
    "kill off": ["delete", "cancel"],
    scratch: ["cancel", "delete"],
    "shoot over": ["send"],
    "send over": ["send", "forward"],
    blast: ["broadcast", "send"],
    buzz: ["call", "notify", "send message"],
    pay: ["payment"],
    owe: ["invoice", "balance"],
    gripe: ["complaint", "ticket"],
    complain: ["ticket"],
    postmortem: ["incident", "note"],
    glitch: ["bug", "issue", "incident"],
    "call back": ["call"],
    "phone up": ["call"],
    rerun: ["run", "workflow run"],
    retry: ["run", "workflow run"],
    housekeeping: ["vacuum", "maintenance"],
  };
}
