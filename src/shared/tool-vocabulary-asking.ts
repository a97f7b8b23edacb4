/**
 * How people ask for what a tool does without its words: letting someone do a thing (let Tom edit
 * → share), questions about a thing's state or people (who's coming → attendees), and the outcome
 * wanted rather than the action (from now on → a rule; don't page anyone → silence paging).
 * Part of the default vocabulary of client-side tool search (see tool-vocabulary.ts, which puts the
 * parts together in order: a key of a later part stands in place of the same key of an earlier one).
 * @module
 */

/** Words or phrases (keys) and the tool words each stands for. */
type Vocabulary = Readonly<Record<string, readonly string[]>>;

/** How people ask for what a tool does without its words. */
export function everydayAsking(): Readonly<Record<string, readonly string[]>> {
  return {
    ...askingToLet(),
    ...askingAboutPeopleAndState(),
    ...askingForAnOutcome(),
    ...askingAboutChecks(),
    ...askingAboutAnEvent(),
    ...askingAboutMyTime(),
  };
}

/** Letting someone do a thing is giving them access (`let … know` is a message: tool-vocabulary.ts). */
function askingToLet(): Vocabulary {
  return {
    "let edit": ["share", "access"],
    "let view": ["share", "access"],
    "let see": ["share", "access"],
    "let read": ["share", "access"],
    "let comment": ["share", "access"],
  };
}

/** Questions about who comes, who wrote, who may see, and what is going on. */
function askingAboutPeopleAndState(): Vocabulary {
  return {
    ...askingWhoComes(),
    "guest list": ["attendees", "details"],
    "going on": ["status", "details"],
    "hear from": ["received", "search email", "message"],
    "heard from": ["received", "search email", "message"],
    "hear back": ["received", "search email", "reply"],
    "heard back": ["received", "search email", "reply"],
    "shared with": ["access", "permission"],
    "can read": ["access", "permission"],
    "can write": ["access", "permission"],
    "can change": ["access", "permission"],
    "can download": ["access", "permission"],
    busy: ["free", "events"],
    "works for": ["free", "available"],
  };
}

/**
 * Who comes, is invited or attends: an event's attendees, however the question is put ("who's
 * coming", "who is invited", "who has been invited", "who will be attending").
 */
function askingWhoComes(): Vocabulary {
  const vocabulary: Record<string, readonly string[]> = {};
  for (const auxiliary of ["", "is ", "are ", "was ", "were ", "has been ", "have been ", "will be "])
    for (const verb of ["coming", "attending", "going", "invited"])
      vocabulary[`who ${auxiliary}${verb}`] = ["attendees", "details"];
  return vocabulary;
}

/** The outcome wanted rather than the action: a rule for every time, silence, someone woken, a yes. */
function askingForAnOutcome(): Vocabulary {
  return {
    "from now on": ["rule", "filter", "policy"],
    "going forward": ["rule", "filter", "policy"],
    "in future": ["rule", "filter", "policy"],
    whenever: ["rule", "filter", "policy"],
    "every time": ["rule", "filter", "policy"],
    "each time": ["rule", "filter", "policy"],
    "don page": ["silence", "mute", "maintenance"],
    "not page": ["silence", "mute", "maintenance"],
    "no page": ["silence", "mute", "maintenance"],
    "without page": ["silence", "mute", "maintenance"],
    "don alert": ["silence", "mute"],
    "no alerts": ["silence", "mute"],
    "stop alert": ["silence", "mute"],
    "stop page": ["acknowledge", "silence"],
    "stop the page": ["acknowledge", "silence"],
    "stop page anyone": ["maintenance", "silence"],
    "stop page everyone": ["maintenance", "silence"],
    "out of bed": ["page"],
    "count me in": ["accept invitation", "accept"],
    "count me out": ["decline invitation", "decline"],
  };
}

/**
 * Whether a build, its tests or its checks passed: a question about CI runs and their conclusions
 * (read as one phrase, so that "did the build pass on main?" is no `pass on`, a forward).
 */
function askingAboutChecks(): Vocabulary {
  const runs = ["workflow run", "conclusion", "ci"];
  // Keys are stemmed: `pass` is also passed and passing, `test` tests.
  const checked = ["build", "test", "check", "ci", "pipeline", "job"];
  const outcomes = ["pass", "fail", "green", "red", "broken", "go through"];
  const vocabulary: Record<string, readonly string[]> = {};
  for (const what of checked) for (const outcome of outcomes) vocabulary[`${what} ${outcome}`] = runs;
  return vocabulary;
}

/**
 * An event's particulars — its room, its call link, its start — asked about: one event's details
 * (a calendar's event tool says "details", not each thing it holds; a room here is no chat room).
 */
function askingAboutAnEvent(): Vocabulary {
  const particulars = ["details", "location"];
  const timing = ["details", "time"];
  return {
    "what room": particulars,
    "which room": particulars,
    "meeting room": particulars,
    "conference room": particulars,
    "dial in": particulars,
    "zoom link": particulars,
    "meet link": particulars,
    "teams link": particulars,
    "video link": particulars,
    "meeting link": particulars,
    "call link": particulars,
    "what time": timing,
    "start time": timing,
    "end time": timing,
  };
}

/** My schedule, my day, my week: the events on my calendar (a one-word `calendar` would name a service). */
function askingAboutMyTime(): Vocabulary {
  const events = ["list events", "calendar events"];
  return { "my schedule": events, "my day": events, "my week": events };
}
