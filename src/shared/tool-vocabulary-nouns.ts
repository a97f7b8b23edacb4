/**
 * Everyday nouns for the things tools act on, service kind by service kind: code hosting, chat,
 * issues, mail, calendar, files, payments, sales, support, monitoring, incidents, pages, storage,
 * databases, phones, people.
 * Part of the default vocabulary of client-side tool search (see tool-vocabulary.ts, which puts the
 * parts together in order: a key of a later part stands in place of the same key of an earlier one).
 * @module
 */

/** Words or phrases (keys) and the tool words each stands for. */
type Vocabulary = Readonly<Record<string, readonly string[]>>;

/** Everyday nouns for the things tools act on, service kind by service kind. */
export function everydayNouns(): Readonly<Record<string, readonly string[]>> {
  return {
    ...nounsCodeHosting(),
    ...nounsChat(),
    ...nounsIssueTracking(),
    ...nounsMail(),
    ...nounsCalendar(),
    ...nounsFilesAndFolders(),
    ...nounsPayments(),
    ...nounsSales(),
    ...nounsSupport(),
    ...nounsMonitoring(),
    ...nounsIncidentsAndOnCall(),
    ...nounsPagesAndDatabases(),
    ...nounsStorage(),
    ...nounsDatabases(),
    ...nounsPhones(),
    ...nounsPeople(),
  };
}

/** Everyday nouns for the things tools act on, service by service: code hosting. */
function nounsCodeHosting(): Vocabulary {
  return {
    codebase: ["repository", "code"],
    "merge request": ["pull request"],
    mr: ["pull request"],
    changelog: ["release notes", "release"],
    "feature request": ["issue"],
    enhancement: ["issue"],
    job: ["workflow run", "ci"],
    tests: ["ci", "checks"],
    function: ["code"],
    symbol: ["code"],
    // open source says whose code it is, it opens nothing; an org is an organization
    "open source": ["public", "repository"],
    org: ["organization"],
  };
}

/** Chat. */
function nounsChat(): Vocabulary {
  return {
    room: ["channel"],
    chatroom: ["channel"],
    "group chat": ["channel"],
    convo: ["thread", "message"],
    conversation: ["thread", "message", "history"],
    discussion: ["thread", "comment"],
    announcement: ["post message", "message"],
    purpose: ["topic"],
    bio: ["profile"],
    timezone: ["time zone"],
    tz: ["time zone"],
    "local time": ["time zone", "profile"],
    heart: ["reaction", "emoji"],
    emote: ["reaction", "emoji"],
    screenshot: ["file", "upload"],
  };
}

/** Issue tracking. */
function nounsIssueTracking(): Vocabulary {
  return {
    iteration: ["sprint"],
    cycle: ["sprint"],
    initiative: ["epic"],
    umbrella: ["epic"],
    dependency: ["link", "blocks"],
    "depends on": ["link", "blocks"],
    prerequisite: ["link", "blocks"],
    dupe: ["duplicate"],
    dup: ["duplicate"],
    // two of a thing that are the same one are duplicates
    "same problem": ["duplicate"],
    "same issue": ["duplicate"],
    "same complaint": ["duplicate"],
    "same ticket": ["duplicate"],
    "same bug": ["duplicate"],
    problem: ["issue", "bug"],
    glitch: ["bug", "issue"],
    // logging a bug files it (`log` alone is time or a call logged)
    "log bug": ["create issue", "create ticket"],
    "log issue": ["create issue", "create ticket"],
    "log problem": ["create issue", "create ticket"],
    "log ticket": ["create issue", "create ticket"],
    billable: ["time", "log"],
  };
}

/** Mail. */
function nounsMail(): Vocabulary {
  return {
    cc: ["recipients"],
    bcc: ["recipients"],
    unsent: ["draft"],
    star: ["label"],
    seen: ["read"],
    // one's inbox is one's mailbox: what is in it is searched for there
    inbox: ["mailbox"],
  };
}

/** Calendar. */
function nounsCalendar(): Vocabulary {
  return {
    lunch: ["meeting", "event"],
    huddle: ["meeting", "event"],
    "one on one": ["meeting", "event"],
    "get together": ["meeting", "event"],
    agenda: ["events", "calendar"],
    // a calendar besides one's own is a secondary one
    "separate calendar": ["secondary calendar"],
    "another calendar": ["secondary calendar"],
    "extra calendar": ["secondary calendar"],
    "additional calendar": ["secondary calendar"],
    "second calendar": ["secondary calendar"],
    diary: ["calendar", "events"],
    "who around": ["free", "available"],
    "anyone around": ["free", "available"],
    "everyone around": ["free", "available"],
    "can meet": ["free", "available"],
  };
}

/** Files and folders. */
function nounsFilesAndFolders(): Vocabulary {
  return {
    directory: ["folder"],
    dir: ["folder"],
    subfolder: ["folder"],
    excel: ["spreadsheet"],
    workbook: ["spreadsheet"],
    xlsx: ["spreadsheet"],
    deck: ["document"],
    slides: ["document"],
    acl: ["permission", "access", "policy"],
    perms: ["permission", "access"],
    privileges: ["permission", "access"],
  };
}

/** Payments. */
function nounsPayments(): Vocabulary {
  return {
    buyer: ["customer"],
    purchaser: ["customer"],
    payer: ["customer"],
    shopper: ["customer"],
    membership: ["subscription"],
    trial: ["subscription"],
    payout: ["balance"],
    earnings: ["balance", "charge"],
    takings: ["balance", "charge"],
    fraud: ["dispute", "chargeback"],
  };
}

/** Sales. */
function nounsSales(): Vocabulary {
  return {
    firm: ["account", "company"],
    business: ["account", "company"],
    "potential customer": ["lead"],
    spoke: ["call", "log call"],
    spoken: ["call", "log call"],
    talked: ["call", "log call"],
    region: ["territory"],
    area: ["territory", "region"],
    analytics: ["report", "dashboard"],
    kpi: ["report", "dashboard", "metric"],
  };
}

/** Support. */
function nounsSupport(): Vocabulary {
  return {
    inquiry: ["ticket", "request"],
    enquiry: ["ticket", "request"],
    "support request": ["ticket", "case"],
    faq: ["article", "knowledge base"],
    wiki: ["page", "workspace"],
    guide: ["article"],
    tutorial: ["article"],
    survey: ["satisfaction", "rating"],
    score: ["rating", "satisfaction"],
    stars: ["rating"],
    importance: ["priority"],
    severity: ["priority"],
    boilerplate: ["macro", "template"],
    "lock out": ["suspend", "disable"],
    submitter: ["requester"],
  };
}

/** Monitoring. */
function nounsMonitoring(): Vocabulary {
  return {
    memory: ["metric", "cpu"],
    ram: ["memory", "metric"],
    load: ["cpu", "metric"],
    "response time": ["latency"],
    lag: ["latency"],
    throughput: ["metric"],
    stderr: ["logs"],
    stdout: ["logs"],
    exceptions: ["logs", "errors"],
    "stack trace": ["logs", "traces"],
    span: ["traces"],
    box: ["host"],
    fleet: ["hosts"],
    instance: ["host"],
    infrastructure: ["hosts"],
    infra: ["hosts"],
    deployment: ["deploy"],
    sla: ["slo", "objective"],
    "error budget": ["slo", "objective"],
  };
}

/** Incidents and on-call. */
function nounsIncidentsAndOnCall(): Vocabulary {
  return {
    emergency: ["incident"],
    fire: ["incident"],
    "on duty": ["on call"],
    rota: ["schedule", "on call"],
    rotation: ["schedule", "on call"],
    roster: ["schedule", "on call"],
    downtime: ["maintenance", "outage"],
    "planned work": ["maintenance"],
    tier: ["level"],
  };
}

/** Pages and databases. */
function nounsPagesAndDatabases(): Vocabulary {
  return {
    checklist: ["todo", "list"],
    checkbox: ["todo"],
    "action item": ["todo"],
    field: ["property", "column"],
    attribute: ["property"],
    // an issue tracker holds issues (`tracker` alone stems to `track`, which is to log); a dropdown is a select property
    "issue tracker": ["issue"],
    "bug tracker": ["issue", "bug"],
    dropdown: ["select", "property"],
  };
}

/** Storage. */
function nounsStorage(): Vocabulary {
  return {
    blob: ["object"],
    "signed url": ["presigned url"],
    "signed link": ["presigned url"],
    "expiring link": ["presigned url", "time limited"],
    retention: ["lifecycle", "expire"],
    ttl: ["lifecycle", "expire"],
    overwrite: ["versioning", "version"],
    overwritten: ["versioning", "version"],
  };
}

/** Databases. */
function nounsDatabases(): Vocabulary {
  return {
    bloat: ["vacuum"],
    "dead rows": ["vacuum"],
    "dead tuples": ["vacuum"],
    reclaim: ["vacuum"],
    compact: ["vacuum"],
    stats: ["analyze", "metric"],
    statistics: ["analyze", "metric"],
    deadlock: ["locks"],
    contention: ["locks"],
    pid: ["backend", "query"],
    process: ["backend", "query"],
    runaway: ["kill", "terminate"],
    structure: ["describe", "columns", "schema"],
    ddl: ["describe", "schema"],
    "disk space": ["size", "disk"],
    footprint: ["size", "disk"],
    count: ["query", "select"],
    tally: ["query", "count"],
    "long running": ["running", "slow"],
  };
}

/** Phones. */
function nounsPhones(): Vocabulary {
  return {
    audio: ["recording"],
    voicemail: ["recording", "call"],
    hotline: ["phone number"],
    "phone line": ["phone number"],
    passcode: ["verification code"],
    otp: ["one time verification code"],
    "2fa": ["verification code"],
    mfa: ["verification code"],
    "one time code": ["verification code"],
    operator: ["carrier"],
    provider: ["carrier"],
    "caller id": ["lookup", "carrier"],
    cellphone: ["phone"],
    "call log": ["list calls"],
    "call history": ["list calls"],
    txt: ["sms", "text"],
    voice: ["call"],
  };
}

/** People. */
function nounsPeople(): Vocabulary {
  return {
    folks: ["people", "member"],
    staff: ["member", "user"],
  };
}
