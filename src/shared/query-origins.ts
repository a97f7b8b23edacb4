/**
 * Where the thing a command delivers comes from: "post the Jira sprint summary to #team", "save
 * the Slack export to Drive", "email the Stripe invoice to the customer" — a service named in the
 * delivered thing's name (after `the`, `this`, `my`…, before the thing's noun) says where that
 * thing comes from, not which service's tool is asked for; the tool is the one that delivers it, to
 * where the query says (a channel, an address, another service). Read by query-slots.ts, which
 * marks an origin's slots as a subject: they count little, and name no service (tool-ranker.ts
 * ranks a named service's tools first).
 * @module
 */
import type { SubjectSlot } from "./message-subject";
import { plainWords, stem } from "./search-words";

/** Verbs that take a thing somewhere: its name is the content, the place after a preposition the target. */
const DELIVERING = new Set(
  "send post share email mail text tell forward upload put drop save paste publish attach announce"
    .split(" ")
    .map(stem),
);
/** Words before a thing that point at one that exists: its service is where it comes from. */
const DEFINITE = new Set("the this that these those my our your his her their".split(" "));
/** Prepositions that say where a delivered thing goes. */
const TO = new Set(["to", "into", "in", "on", "onto", "with"]);

/**
 * The words (as written) of `text` that name where a delivered thing comes from: in a
 * command whose verb delivers ({@link DELIVERING}) to a place after a preposition ({@link TO}), the
 * words that modify the thing's noun after a definite word (`the Jira sprint summary`: `jira`,
 * `sprint`). None in any other query: "post a Slack message to Ana" names the service it uses.
 */
export function originWords(text: string): Set<string> {
  // Words whole as written (`GitHub` is one word: it names a service), as the ranker reads names.
  const written = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const words = written.map((word) => word.toLowerCase());
  const origins = new Set<string>();
  if (words.length < 4 || !DELIVERING.has(stem(words[0]!))) return origins;
  const to = words.findIndex((word, index) => index > 1 && TO.has(word));
  if (to === -1 || to === words.length - 1) return origins;
  const definite = words.findIndex((word, index) => index > 0 && index < to && DEFINITE.has(word));
  if (definite === -1) return origins;
  for (let i = definite + 1; i < to - 1; i++) origins.add(written[i]!);
  return origins;
}

/**
 * Marks as a subject (it counts little, and is no part of what is asked) each slot whose own word is
 * an origin's: the sprint of "post the Jira sprint summary to #team" asks for no sprint.
 */
export function markOrigins<Slot extends SubjectSlot>(slots: Slot[], origins: ReadonlySet<string>): void {
  if (origins.size === 0) return;
  const stems = new Set([...origins].flatMap((origin) => plainWords(origin).map(stem)));
  slots.forEach((slot, index) => {
    if (slot.words.length === 1 && stems.has(slot.words[0]!)) slots[index] = { ...slot, subject: true };
  });
}
