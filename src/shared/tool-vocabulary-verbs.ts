/**
 * Everyday verbs for the actions tools are described with, verb by verb: what a model says for
 * create, read, change, remove, finish, tell, hand over, accept.
 * Part of the default vocabulary of client-side tool search (see tool-vocabulary.ts, which puts the
 * parts together in order: a key of a later part stands in place of the same key of an earlier one).
 * @module
 */

/** Words or phrases (keys) and the tool words each stands for. */
type Vocabulary = Readonly<Record<string, readonly string[]>>;

/** Everyday verbs for the actions tools are described with, verb by verb. */
export function everydayVerbs(): Readonly<Record<string, readonly string[]>> {
  return {
    ...verbsCreating(),
    ...verbsReadingAndLooking(),
    ...verbsChanging(),
    ...verbsRemovingAndBringingBack(),
    ...verbsEndingMutingAndFinishing(),
    ...verbsTellingAndReachingSomeone(),
    ...verbsHandingOver(),
    ...verbsAcceptingDeclining(),
    ...verbsOtherActions(),
    ...verbsFourthPass(),
    ...verbsInTheAskersWords(),
    ...verbsOnThePhone(),
    ...verbsWritingInAPlace(),
  };
}

/**
 * The phone's verbs: every schema's dry run is a "call", so they name a phone call, both words; and
 * what a call reads out is its message ("call Ann and read her the reminder").
 */
function verbsOnThePhone(): Vocabulary {
  return {
    ring: ["phone call"],
    dial: ["phone call"],
    dialed: ["phone call"],
    dialled: ["phone call"],
    "read her": ["play message"],
    "read him": ["play message"],
    "read them": ["play message"],
  };
}

/** Writing or saying something in a place (a channel, taken out as a value): "write in #ops about…". */
function verbsWritingInAPlace(): Vocabulary {
  return { "write in": ["post message"], "say in": ["post message"] };
}

/** Everyday verbs for the actions tools are described with, verb by verb: creating. */
function verbsCreating(): Vocabulary {
  return {
    "kick off": ["start", "create", "trigger"],
    launch: ["start", "create", "publish"],
    begin: ["start", "create"],
    initiate: ["start", "trigger", "create"],
    establish: ["create"],
    "whip up": ["create", "draft"],
    "put together": ["create", "draft"],
    "draw up": ["create", "draft"],
    "write up": ["write", "draft", "create"],
    "jot down": ["note", "write", "add"],
    jot: ["note", "write", "add"],
    craft: ["write", "draft", "create"],
    prepare: ["draft", "create"],
    "pencil in": ["create event", "schedule"],
    "slot in": ["schedule", "create event"],
    // a meeting scheduled is an event made; "schedule a message" keeps its own word, `schedule`
    schedule: ["create event", "meeting"],
  };
}

/** Reading and looking. */
function verbsReadingAndLooking(): Vocabulary {
  return {
    "look into": ["search", "get", "describe"],
    "dig into": ["search", "query", "get"],
    investigate: ["search", "get", "describe"],
    examine: ["describe", "get", "view"],
    inspect: ["describe", "get", "view"],
    peek: ["view", "get", "read"],
    glance: ["view", "get"],
    skim: ["read", "view"],
    browse: ["list", "search"],
    scan: ["search", "list"],
    "go through": ["list", "read"],
    "dig through": ["search", "list"],
    "open up": ["read", "get", "share"],
    // a thing that exists, opened, is read ("open the thread"); "open a ticket" makes one
    "open the": ["read", "get", "view"],
    "open this": ["read", "get", "view"],
    "open that": ["read", "get", "view"],
    "open my": ["read", "get", "view"],
  };
}

/** Changing. */
function verbsChanging(): Vocabulary {
  return {
    tweak: ["update", "change", "edit"],
    amend: ["update", "edit"],
    revise: ["update", "edit"],
    rename: ["title", "update", "change"],
    retitle: ["title", "update"],
    flip: ["set", "update", "enable"],
    toggle: ["enable", "set", "update"],
    "turn on": ["enable", "start"],
    "switch on": ["enable", "start"],
    activate: ["enable", "start"],
    "turn off": ["disable", "mute", "cancel"],
    "switch off": ["disable", "mute", "cancel"],
    deactivate: ["suspend", "disable"],
  };
}

/** Removing, putting away and bringing back. */
function verbsRemovingAndBringingBack(): Vocabulary {
  return {
    nuke: ["delete", "remove"],
    zap: ["delete", "remove"],
    toss: ["delete", "trash"],
    chuck: ["delete", "trash"],
    ditch: ["delete", "remove", "cancel"],
    dump: ["delete", "trash"],
    junk: ["delete", "trash"],
    axe: ["delete", "cancel"],
    scrub: ["delete", "remove"],
    "wipe out": ["delete", "remove"],
    "clear out": ["delete", "archive"],
    "take down": ["delete", "remove"],
    "tidy up": ["archive", "delete"],
    tidy: ["archive", "delete"],
    declutter: ["archive", "delete"],
    "put away": ["archive"],
    // what one gets or takes out of a place is removed from it ("get the newsletters out of my inbox")
    "get out": ["remove", "archive"],
    "take out": ["remove", "archive"],
    "file away": ["archive"],
    shelve: ["archive"],
    stash: ["archive", "store"],
    mothball: ["archive"],
    retire: ["archive", "delete"],
    "bring back": ["restore", "revision", "version"],
    restore: ["revision", "version", "previous"],
    recover: ["restore", "revision", "version"],
    undo: ["revert", "revision", "previous"],
    undelete: ["restore", "version"],
    revert: ["revision", "previous", "version"],
    "roll back": ["rollback", "revert", "previous"],
  };
}

/** Ending, muting and finishing. */
function verbsEndingMutingAndFinishing(): Vocabulary {
  return {
    "shut down": ["stop", "cancel", "terminate"],
    "shut off": ["disable", "stop"],
    quiet: ["mute", "silence"],
    hush: ["mute", "silence"],
    shush: ["mute", "silence"],
    pause: ["mute", "snooze", "suspend"],
    ignore: ["mute", "silence"],
    "wrap up": ["resolve", "done", "close"],
    "close out": ["resolve", "done"],
    mitigate: ["resolve"],
    "sort out": ["resolve", "fix"],
  };
}

/** Telling and reaching someone. */
function verbsTellingAndReachingSomeone(): Vocabulary {
  return {
    "reach out": ["send message", "email", "call"],
    "get in touch": ["send message", "email", "call"],
    "drop line": ["send message", "email"],
    "write to": ["send email", "send message"],
    "fire off": ["send"],
    shoot: ["send"],
    "heads up": ["notify", "post message", "send message"],
    "give shout": ["send message", "notify"],
    "loop in": ["invite", "share", "add"],
    poke: ["remind", "notify"],
    nag: ["remind", "notify"],
    "follow up": ["reply", "remind", "send message"],
    "get back to": ["reply", "respond"],
    "write back": ["reply", "respond"],
    relay: ["forward"],
    "send on": ["forward"],
    "weigh in": ["comment", "reply"],
    "chime in": ["comment", "reply"],
    // a thing's noun where a command's verb stands sends or makes one: "message Dana that…",
    // "invoice Acme for May" (elsewhere the noun is only itself: the changing verb is left out)
    message: ["send message", "post message"],
    invoice: ["create invoice", "invoice"],
  };
}

/** Handing over, taking on, standing in. */
function verbsHandingOver(): Vocabulary {
  return {
    "take over": ["assign", "override"],
    "pick up": ["assign"],
    "fill in": ["override", "cover"],
    "stand in": ["override", "cover"],
    cover: ["override"],
    substitute: ["override"],
    "kick up": ["escalate"],
    "bump up": ["escalate", "priority"],
  };
}

/** Accepting, declining. */
function verbsAcceptingDeclining(): Vocabulary {
  return {
    "turn down": ["decline"],
    "say yes": ["accept"],
    "say no": ["decline"],
    maybe: ["tentatively", "tentative"],
    "can make it": ["accept invitation", "accept"],
    "can make": ["accept invitation", "accept"],
    "can come": ["accept invitation", "accept"],
    "cannot make": ["decline invitation", "decline"],
    "won make": ["decline invitation", "decline"],
    "cannot come": ["decline invitation", "decline"],
    "won come": ["decline invitation", "decline"],
    "cannot attend": ["decline invitation", "decline"],
    "won attend": ["decline invitation", "decline"],
    join: ["accept", "attend", "invite"],
  };
}

/** Other actions of the catalog's verbs. */
function verbsOtherActions(): Vocabulary {
  return {
    transfer: ["move"],
    "save as": ["export"],
    "download as": ["export"],
    print: ["pdf", "export", "logs", "output"],
    purchase: ["buy"],
    acquire: ["buy"],
    provision: ["buy", "create"],
    confirm: ["verify", "verification", "check"],
    validate: ["verify", "check"],
    categorize: ["label", "tag"],
    categorise: ["label", "tag"],
    classify: ["label", "tag"],
    flag: ["label", "tag", "priority"],
    "file under": ["label", "folder", "move"],
    watch: ["monitor", "alert"],
    "keep an eye on": ["monitor", "alert"],
    connect: ["link"],
    "tie together": ["link"],
    relate: ["link", "relates"],
    consolidate: ["merge", "combine"],
    annotate: ["note", "comment", "event"],
    "tack on": ["append", "add"],
    tack: ["append", "add"],
    attach: ["attachment", "upload"],
    "back up": ["upload", "copy", "store"],
    replicate: ["copy"],
    mirror: ["copy", "fork"],
    qualify: ["convert", "qualified"],
    "turn into": ["convert"],
    compensate: ["refund", "credit"],
    "credit back": ["refund"],
    "sign up": ["subscribe", "register", "create"],
    enroll: ["subscribe", "register"],
    enrol: ["subscribe", "register"],
    renew: ["subscription", "recurring"],
    summon: ["page", "alert"],
    "call out": ["page", "alert"],
    bounce: ["restart"],
    reboot: ["restart"],
    "scale up": ["scale"],
    "scale down": ["scale"],
  };
}

/**
 * A fourth pass, tool by tool: the verbs people use for each action without its word — code
 * hosting's jargon (land a PR), filing (put in a request), looking through, earning (take in, bring
 * in), approving and rejecting, chasing, changing a length of time, playing back, tearing down.
 */
function verbsFourthPass(): Vocabulary {
  return {
    land: ["merge"],
    "put in": ["create", "submit"],
    "look through": ["search"],
    "take in": ["income", "charges", "payment"],
    "took in": ["income", "charges", "payment"],
    "bring in": ["income", "charges", "payment"],
    "brought in": ["income", "charges", "payment"],
    earn: ["income", "charges", "payment"],
    "make money": ["income", "profit", "charges"],
    "made money": ["income", "profit", "charges"],
    fought: ["dispute"],
    warn: ["alert", "notify"],
    promote: ["convert", "job title", "update"],
    reopen: ["transition", "status"],
    extend: ["update time", "change"],
    shorten: ["update time", "change"],
    valid: ["check", "verify"],
    correct: ["check", "verify", "update"],
    "play back": ["recording"],
    replay: ["recording"],
    met: ["log call", "activity"],
    upgrade: ["subscription", "plan"],
    downgrade: ["subscription", "plan"],
    "sign off": ["approve", "accept"],
    greenlight: ["approve", "accept"],
    reject: ["decline", "deny"],
    chase: ["remind", "reminder", "send message"],
    "chase up": ["remind", "reminder", "send message"],
    resend: ["send"],
    circulate: ["share", "send"],
    "stand up": ["create"],
    "tear down": ["delete", "remove"],
    "walk through": ["explain", "describe"],
    debug: ["explain", "logs", "traces"],
    troubleshoot: ["explain", "logs", "traces"],
  };
}

/**
 * Actions in the asker's own words: passing a message on, writing a line down, a dump of rows
 * (a noun: rows taken out, not thrown away), what hogs a database.
 */
function verbsInTheAskersWords(): Vocabulary {
  return {
    "send along": ["forward"],
    "write down": ["note", "add note"],
    "dump of": ["export", "select", "download"],
    hog: ["slow", "slowest"],
  };
}
