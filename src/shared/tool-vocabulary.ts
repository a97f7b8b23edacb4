/**
 * The default vocabulary of client-side tool search: classes of words from the common vocabularies
 * of APIs — the CRUD verbs, messaging, scheduling, time tracking, issue workflows, payments, sales,
 * support, monitoring, access — with the everyday words a model uses for each (give → assign, push
 * back → reschedule, money back → refund). Compiled by tool-synonyms.ts; `toolSearch: { synonyms }`
 * adds to it. Kept to words that mean the same across services, never the words of one catalog.
 * @module
 */
import { everydayAsking } from "./tool-vocabulary-asking";
import { everydayNouns } from "./tool-vocabulary-nouns";
import { everydayObjects } from "./tool-vocabulary-objects";
import { everydayPhrases } from "./tool-vocabulary-phrases";
import { everydayVerbs } from "./tool-vocabulary-verbs";

/** Words or phrases (keys) and the tool words each stands for. */
type Vocabulary = Readonly<Record<string, readonly string[]>>;

/** Words that stand for each other, each matching the others. Two-word members are listed in {@link TWO_WORD}. */
export const GROUPS: readonly string[] = [
  // reading and finding
  "search find locate lookup look for look up grep seek dig up hunt for track down",
  "get read fetch retrieve view show display grab",
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
  "host server machine",
  "target goal objective",
  "image picture photo screenshot",
];

/** The two-word members of {@link GROUPS}. */
export const TWO_WORD: ReadonlySet<string> = new Set([
  "look for",
  "look up",
  "throw away",
  "dig up",
  "hunt for",
  "track down",
]);

let oneWay: Readonly<Record<string, readonly string[]>> | undefined;

/**
 * A word or phrase a model uses (key), the tool words it stands for (values, the best one counts):
 * the core below, then the everyday verbs, nouns and phrases. Made on first use, when a ranker is
 * built: a table of a thousand entries costs the root import nothing until a search needs it.
 */
export function oneWayVocabulary(): Readonly<Record<string, readonly string[]>> {
  oneWay ??= {
    ...coreOneWay(),
    ...everydayVerbs(),
    ...everydayNouns(),
    ...everydayPhrases(),
    ...everydayObjects(),
    ...everydayAsking(),
  };
  return oneWay;
}

/** A word or phrase a model uses (key), the tool words it stands for (values, the best one counts). */
function coreOneWay(): Readonly<Record<string, readonly string[]>> {
  return {
    ...coreCreating(),
    ...coreKindsOfMeeting(),
    ...coreReading(),
    ...coreRemovingAndFinishing(),
    ...coreRescheduling(),
    ...coreMessaging(),
    ...coreComposingWithoutSending(),
    ...coreHandingWorkOver(),
    ...coreTrackingTime(),
    ...coreAccess(),
    ...coreMoney(),
    ...coreSalesAndSupport(),
    ...coreMonitoringAndOperations(),
    ...coreSizesAndAmounts(),
    ...coreEverydayWordsAndAbbreviations(),
    ...coreSoftwareDelivery(),
  };
}

/** Creating: the verbs of "make a new one". */
function coreCreating(): Vocabulary {
  return {
    make: ["create"],
    add: ["create", "append", "insert"],
    new: ["create"],
    open: ["create"],
    raise: ["create"],
    "file bug": ["create issue", "create ticket"],
    "file issue": ["create issue"],
    "file ticket": ["create ticket"],
    "set up": ["create"],
    "spin up": ["create"],
    start: ["create"],
    generate: ["create"],
    register: ["create"],
    book: ["create", "reserve"],
    compose: ["draft", "write", "create"],
  };
}

/** Kinds of meeting: what a calendar's events are called. */
function coreKindsOfMeeting(): Vocabulary {
  return {
    standup: ["meeting", "event"],
    retro: ["meeting", "event"],
    interview: ["meeting", "event"],
    offsite: ["meeting", "event"],
    session: ["meeting", "event"],
    sync: ["meeting", "event"],
    "all hands": ["meeting", "event"],
    "town hall": ["meeting", "event"],
    kickoff: ["meeting", "event"],
  };
}

/** Reading: the verbs of "let me see it". */
function coreReading(): Vocabulary {
  return {
    see: ["view", "list", "get"],
    "pull up": ["get", "read"],
    check: ["get", "status"],
  };
}

/** Removing and finishing. */
function coreRemovingAndFinishing(): Vocabulary {
  return {
    "get rid of": ["delete", "remove"],
    bin: ["delete", "trash"],
    ban: ["suspend", "disable", "block"],
    "clean up": ["delete", "archive"],
    drop: ["delete", "remove"],
    scrap: ["delete", "cancel"],
    close: ["resolve", "done", "status"],
    fix: ["resolve"],
    complete: ["done", "resolve"],
    finish: ["done", "resolve"],
    end: ["cancel", "stop"],
    "call off": ["cancel"],
    discontinue: ["cancel"],
    unsubscribe: ["cancel subscription"],
  };
}

/** Rescheduling: moving a thing in time. */
function coreRescheduling(): Vocabulary {
  return {
    reschedule: ["update time", "schedule", "change"],
    postpone: ["update time", "schedule", "change"],
    delay: ["update time", "schedule", "change"],
    push: ["update time", "change", "upload"],
    "push back": ["update time", "change"],
    "move up": ["update time", "change"],
    shift: ["update time", "change"],
    bump: ["update time", "change"],
    later: ["schedule"],
    queue: ["schedule"],
  };
}

/** Messaging: saying something to someone. */
function coreMessaging(): Vocabulary {
  return {
    tell: ["send message", "post message"],
    inform: ["send message", "notify"],
    announce: ["post message", "send message"],
    broadcast: ["post message", "send message"],
    ping: ["post message", "send message", "remind", "notify"],
    nudge: ["remind", "notify"],
    "ping me": ["remind", "notify"],
    "alert me": ["notify", "remind"],
    feedback: ["comment", "review"],
    leave: ["add", "post"],
    text: ["send sms"],
    email: ["send email"],
    mail: ["send email", "email"],
    "pass along": ["forward"],
    route: ["forward", "redirect"],
    redirect: ["forward"],
    "let know": ["send message", "post message", "notify"],
    "pass on": ["forward"],
    say: ["post message", "send message", "message"],
    said: ["message", "history"],
    "catch up": ["history", "recent", "summary"],
    "came in": ["received", "incoming"],
    "come in": ["received", "incoming"],
    got: ["received"],
    wrote: ["message"],
    mention: ["post message", "send message", "message"],
    discuss: ["message"],
    chat: ["message", "channel"],
    "thumbs up": ["reaction"],
    upvote: ["reaction"],
  };
}

/** Composing without sending. */
function coreComposingWithoutSending(): Vocabulary {
  return {
    "don send": ["draft"],
    "not send": ["draft"],
    "without send": ["draft"],
  };
}

/** Handing work over, and its state. */
function coreHandingWorkOver(): Vocabulary {
  return {
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
  };
}

/** Tracking time. */
function coreTrackingTime(): Vocabulary {
  return {
    record: ["log"],
    track: ["log"],
    hours: ["time"],
    timesheet: ["worklog", "time"],
    note: ["log", "comment"],
    phoned: ["call", "phone call"],
    rang: ["call", "phone call"],
  };
}

/** Access. */
function coreAccess(): Vocabulary {
  return {
    grant: ["share", "access"],
    "can see": ["access", "permission"],
    "can edit": ["access", "share"],
    "can view": ["access", "share"],
    viewer: ["share", "access"],
    editor: ["share", "access"],
    collaborator: ["share", "access"],
    invite: ["share", "invitation"],
    attend: ["respond", "accept", "invitation"],
    rsvp: ["respond", "invitation"],
  };
}

/** Money. */
function coreMoney(): Vocabulary {
  return {
    "money back": ["refund"],
    reimburse: ["refund"],
    "give back": ["refund"],
    "pay back": ["refund"],
    bill: ["invoice"],
    money: ["balance", "payment"],
    funds: ["balance"],
    cash: ["balance"],
    revenue: ["charge", "payment"],
    monthly: ["subscription", "recurring"],
    weekly: ["subscription", "recurring"],
    yearly: ["subscription", "recurring"],
    annual: ["subscription", "recurring"],
    recurring: ["subscription"],
  };
}

/** Sales and support. */
function coreSalesAndSupport(): Vocabulary {
  return {
    prospect: ["lead"],
    deal: ["opportunity"],
    opp: ["opportunity"],
    pipeline: ["opportunity", "ci", "workflow"],
    company: ["account"],
    complaint: ["ticket"],
    urgent: ["priority"],
    "canned response": ["macro", "template"],
    "saved reply": ["macro", "template"],
    template: ["macro"],
    happy: ["satisfaction"],
    unhappy: ["satisfaction"],
    csat: ["satisfaction"],
    nps: ["satisfaction"],
  };
}

/** Monitoring and operations. */
function coreMonitoringAndOperations(): Vocabulary {
  return {
    alarm: ["monitor", "alert"],
    above: ["threshold"],
    below: ["threshold"],
    exceed: ["threshold"],
    usage: ["metric"],
    utilization: ["metric"],
    graph: ["metric", "dashboard"],
    chart: ["metric", "dashboard"],
    outage: ["incident"],
    "speed up": ["index", "optimize", "cache"],
    faster: ["index", "optimize", "cache"],
    "is down": ["outage", "incident"],
    "are down": ["outage", "incident"],
    "went down": ["outage", "incident"],
    "wake up": ["page", "on call", "alert"],
    ack: ["acknowledge"],
    uptime: ["availability"],
    vm: ["host", "server", "machine"],
    automatically: ["rule", "filter", "policy"],
    automatic: ["rule", "filter", "policy"],
    auto: ["rule", "filter", "policy"],
  };
}

/** Sizes and amounts. */
function coreSizesAndAmounts(): Vocabulary {
  return {
    big: ["size"],
    large: ["size"],
    disk: ["size"],
  };
}

/** Everyday words and abbreviations for tool words. */
function coreEverydayWordsAndAbbreviations(): Vocabulary {
  return {
    copy: ["fork"],
    duplicate: ["copy", "clone"],
    clone: ["copy", "fork"],
    relocate: ["move"],
    put: ["upload", "store", "add"],
    "drop into": ["upload", "put"],
    "drop in": ["upload", "put"],
    "fold into": ["merge", "combine"],
    temporary: ["time limited", "expire"],
    bullet: ["list"],
  };
}

/** Software delivery. */
function coreSoftwareDelivery(): Vocabulary {
  return {
    build: ["ci", "workflow run", "create"],
    ship: ["release", "deploy", "merge"],
    fail: ["conclusion", "status"],
    broke: ["conclusion", "status"],
    broken: ["conclusion", "status"],
    pager: ["on call"],
    sheet: ["spreadsheet", "document"],
    repo: ["repository"],
    pr: ["pull request"],
    db: ["database"],
    msg: ["message"],
    dm: ["direct message"],
    postgresql: ["postgres"],
    pg: ["postgres"],
  };
}
