/**
 * The words of a query that are what a message or a new item says, not what is asked of a tool:
 * the subject after `about` ("tell the team about the outage", "open a ticket about the build"),
 * the words after `that`, `saying` or `telling` in a command that sends a message ("reply on #77
 * that the fix landed"), and the text after a colon of a command that writes ("file an issue: the
 * login button does nothing"); what an on-call question is asked for ("who is on duty for payments"
 * asks nothing of payments); and whom a message goes to, when tools also make such people ("email
 * the customer…" makes none).
 * Read by query-slots.ts, which marks the slots of those words: they count little, and are no part
 * of what is asked (a reply saying that a fix landed merges nothing).
 * @module
 */
import { isStopWord, plainWords, stem } from "./search-words";

/** What marking needs of a slot: its own words, its synonyms, and whether it is a subject. */
export interface SubjectSlot {
  words: readonly string[];
  synonyms: readonly (readonly string[])[];
  subject?: boolean;
}

/** Words after which a message's subject comes: "tell the team about the outage". */
const SUBJECT_WORDS = new Set(["about", "regarding"]);
/**
 * Words after which a message's own words come: "tell #eng that the deploy is done", "reply
 * saying…", "let #design know the mockups are ready", "call Ann and play the reminder".
 */
const CONTENT_WORDS = new Set(["that", "saying", "telling", "know", "play", "her", "him", "them"]);
/**
 * Stems of a slot that asks to send a message, in its words or synonyms (tell → send message); a
 * phone call is one too: what it plays is its message ("ring Ann and play the payment reminder").
 */
const MESSAGING = new Set([
  "messag",
  "notify",
  "email",
  "sms",
  "remind",
  "whatsapp",
  "reply",
  "respond",
  "call",
]);
/** Stems of a slot that writes a new thing, whose text may follow a colon ("new story: dark mode"). */
const WRITING = new Set(["creat", "post", "add", "append", "fil", "writ", "draft"]);

/** A span of word indexes: the words after `from`, before `to`. */
interface Span {
  from: number;
  to: number;
  /** Whether it is the period a command is for ({@link periodSpan}). */
  period?: boolean;
}

/**
 * Marks as a subject each slot whose first word (`starts`, an index in `plainWords(text)`) is in
 * the subject or the content of a message the query sends (see the module's comment), or in what
 * an on-call question is asked for ("who is on duty for payments"); a `question` has only that
 * span and a message's subject ("did Omar email us about the invoice?"); `words` are `plainWords(text)`.
 */
export function markSubject<Slot extends SubjectSlot>(
  slots: Slot[],
  starts: readonly number[],
  words: readonly string[],
  text: string,
  question = false,
): void {
  const covered = coveredSpan(slots, starts, words, text);
  const spans = question
    ? [aboutSpan(slots, starts, words, text), covered]
    : [
        aboutSpan(slots, starts, words, text),
        contentSpan(slots, words, text),
        sayingSpan(starts, words, text),
        colonSpan(slots, text),
        covered,
        periodSpan(slots, starts, words, text),
      ];
  const span = spans.reduce<Span | undefined>(
    (earliest, each) => (each && (!earliest || each.from < earliest.from) ? each : earliest),
    undefined,
  );
  if (!question) markRecipients(slots, starts, words);
  if (!span) return;
  slots.forEach((slot, index) => {
    if (starts[index]! > span.from && starts[index]! < span.to && !(span.period && says(slot, WINDOWS)))
      slots[index] = { ...slot, subject: true };
  });
}

/**
 * Stems of the people a message goes to that are also things some tools make or act on: "email
 * the customer about the delay" writes to a customer, it makes none.
 */
const PEOPLE = new Set(
  [
    "customer",
    "customers",
    "client",
    "clients",
    "buyer",
    "buyers",
    "user",
    "users",
    "requester",
    "vendor",
    "supplier",
  ].map(stem),
);
/** Commands that send an email, whose object is what it carries ("email the invoice to Dana"). */
const MAIL = new Set(["email", "mail"]);
/** Words between `to` and whom a message goes to ("to the customer", "to our clients"). */
const DETERMINERS = new Set([
  "the",
  "a",
  "an",
  "our",
  "my",
  "your",
  "their",
  "this",
  "that",
  "each",
  "every",
  "all",
]);

/**
 * Marks as a subject, when the query's command sends a message, each slot of one word of
 * {@link PEOPLE} that is whom it goes to: the command's object ("email the customer…") or what
 * follows `to` ("send the report to the client"). Who reads a message is not what is asked of a tool;
 * nor is what an email carries, between an `email` or `mail` command and its `to`.
 */
function markRecipients<Slot extends SubjectSlot>(
  slots: Slot[],
  starts: readonly number[],
  words: readonly string[],
): void {
  if (!says(slots[0], MESSAGING)) return;
  slots.forEach((slot, index) => {
    if (index === 0 || slot.words.length !== 1 || !PEOPLE.has(slot.words[0]!)) return;
    let before = starts[index]! - 1;
    while (before >= 0 && DETERMINERS.has(words[before]!)) before--;
    if (index === 1 || words[before] === "to") slots[index] = { ...slot, subject: true };
  });
  // "email the invoice to Dana": what an email carries, between its command and whom it goes to
  const to = words.indexOf("to");
  if (to === -1 || !MAIL.has(words[starts[0]!]!)) return;
  slots.forEach((slot, index) => {
    if (index > 0 && starts[index]! < to) slots[index] = { ...slot, subject: true };
  });
}

/** Whether a slot's words or synonyms have a stem of `stems`. */
function says(slot: SubjectSlot | undefined, stems: ReadonlySet<string>): boolean {
  return slot !== undefined && [...slot.words, ...slot.synonyms.flat()].some((word) => stems.has(word));
}

/**
 * After `about`, to the end of its clause, when a slot before it asks to send a message, or the
 * command writes a new thing: "ping Sam about the deploy" messages Sam, it posts no deploy event;
 * "open a ticket about the failing build" lists no builds; "…wrote in about the same problem,
 * merge the two" still merges.
 */
function aboutSpan(
  slots: readonly SubjectSlot[],
  starts: readonly number[],
  words: readonly string[],
  text: string,
): Span | undefined {
  const about = words.findIndex((word) => SUBJECT_WORDS.has(word));
  if (about === -1) return undefined;
  const messaging = slots.some(
    (slot, index) =>
      starts[index]! < about && (says(slot, MESSAGING) || (index === 0 && says(slot, WRITING))),
  );
  return messaging ? { from: about, to: clauseEnd(text, about) } : undefined;
}

/** Words after which comes the time something happens in: "during the upgrade", "throughout the migration". */
const PERIOD_WORDS = new Set(["during", "throughout", "amid"]);

/**
 * After `during` or `throughout`, to the end of its clause, when a slot before it says what to
 * do: "silence paging during tonight's database upgrade" upgrades no database; the period only
 * says when.
 */
function periodSpan(
  slots: readonly SubjectSlot[],
  starts: readonly number[],
  words: readonly string[],
  text: string,
): Span | undefined {
  const at = words.findIndex((word) => PERIOD_WORDS.has(word));
  if (at === -1 || !slots.some((_, index) => starts[index]! < at)) return undefined;
  return { from: at, to: clauseEnd(text, at), period: true };
}

/** Stems of a period that is itself a window things are silenced in: "during the planned downtime". */
const WINDOWS = new Set(["maintenanc", "window", "downtim"]);

/** Stems of a slot that asks who answers for something: "who is on duty for payments". */
const ANSWERING = new Set(["on call"]);

/**
 * After `for`, to the end of its clause, when a slot before it asks who is on call: the service
 * named ("who is on duty for payments") is whose rota is asked about, not a thing to act on.
 */
function coveredSpan(
  slots: readonly SubjectSlot[],
  starts: readonly number[],
  words: readonly string[],
  text: string,
): Span | undefined {
  const at = words.indexOf("for");
  if (at === -1) return undefined;
  const answering = slots.some((slot, index) => starts[index]! < at && says(slot, ANSWERING));
  return answering ? { from: at, to: clauseEnd(text, at) } : undefined;
}

/**
 * After `that`, `saying`, `telling` or `know`, to the end of its clause, when the query's command
 * sends a message: "tell #general that the deploy is done" (see {@link begins}).
 */
function contentSpan(
  slots: readonly SubjectSlot[],
  words: readonly string[],
  text: string,
): Span | undefined {
  if (!says(slots[0], MESSAGING)) return undefined;
  const toValue = TO_VALUE.test(text);
  const at = words.findIndex(
    (word, index) =>
      CONTENT_WORDS.has(word) &&
      index > 0 &&
      (begins(word, words[index - 1]!) || (toValue && word === "that")),
  );
  return at > 0 ? { from: at, to: clauseEnd(text, at) } : undefined;
}

/** Commands whose object is what is said: "say the deploy finished in #eng". */
const SAYING = new Set(["say", "announce"]);
/** Words that end what is said, saying where it goes. */
const PLACES = new Set(["in", "on", "to", "into"]);

/**
 * After a command that says something ({@link SAYING}), to where it goes or the end of its clause:
 * "say the deploy finished in the releases channel" posts no deploy event.
 */
function sayingSpan(starts: readonly number[], words: readonly string[], text: string): Span | undefined {
  const at = starts[0];
  if (at === undefined || !SAYING.has(words[at]!)) return undefined;
  const place = words.findIndex((word, index) => index > at && PLACES.has(word));
  const to = place === -1 ? clauseEnd(text, at) : Math.min(place, clauseEnd(text, at));
  // "say in #general that…": the place first, what is said after it (see contentSpan)
  return to > at + 1 ? { from: at, to } : undefined;
}

/**
 * A `that` right after a preposition and a value taken out of the text (blanked: query-shapes.ts):
 * "mention in #eng that the build is fixed" says where the message goes, then what it says.
 */
const TO_VALUE = /\b(?:in|into|on|to)\s{3,}that\b/i;

/** Words after which, read after `read`, comes what a call reads out: "ring Ann and read her the update". */
const READ_TO = new Set(["her", "him", "them"]);

/** Object pronouns: "tell them that…". */
const WHOM = new Set(["them", "him", "her", "us", "me", "you"]);

/**
 * Whether a content word after `before` begins what is said: a `that` after a name or a pronoun
 * ("tell Sam that…", "tell them that…"), not one that points at a thing, as after a preposition
 * ("reply to that email"); a pronoun after `read` ("read her the update"); a `know` after another than the asker ("let #design know…"), not "let
 * me know when the build passes", whose words say what to watch.
 */
function begins(word: string, before: string): boolean {
  if (READ_TO.has(word)) return before === "read";
  if (word === "that") return !isStopWord(before) || WHOM.has(before);
  if (word === "know") return before !== "me" && before !== "us";
  return true;
}

/**
 * After a colon, to the end, when the query's command sends a message or writes a new thing and
 * says so before the colon: "whatsapp +34…: running late", "new story in MOB: dark mode toggle".
 */
function colonSpan(slots: readonly SubjectSlot[], text: string): Span | undefined {
  const colon = /:\s/.exec(text);
  if (!colon || !(says(slots[0], MESSAGING) || says(slots[0], WRITING))) return undefined;
  const before = plainWords(text.slice(0, colon.index)).length;
  return before > 0 ? { from: before - 1, to: Number.POSITIVE_INFINITY } : undefined;
}

/** The index in `plainWords(text)` that ends the clause of the word at `at` (cut at , ; : . ! ? and dashes). */
function clauseEnd(text: string, at: number): number {
  let count = 0;
  for (const clause of text.split(/[,;:.!?\u2013\u2014]|\s-\s/)) {
    count += plainWords(clause).length;
    if (count > at) return count;
  }
  return count;
}
