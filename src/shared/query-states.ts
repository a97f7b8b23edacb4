/**
 * The states a tool-search query names things by — `open PRs`, `pending tickets`, `set PAY-9 back
 * to open` — read by query-slots.ts: a state that describes what to list says the query reads, and
 * a status named as a filter or a target matches a tool's `status` or `state` rather than a verb
 * (`open` creates nothing there).
 * @module
 */
import { isStopWord, stem } from "./search-words";

/**
 * The states that are a thing's status: named as a filter or a target, they match a tool's
 * `status` or `state` ("show closed tickets" searches tickets by status).
 */
const STATUSES = new Set(
  (
    "open opened pending closed failed failing overdue active inactive unresolved resolved outstanding " +
    "unpaid paid unanswered unassigned assigned archived expired draft scheduled"
  ).split(" "),
);

/**
 * Words of a state that, before a plural noun, say which things to list (`open PRs`, `pending
 * tickets`, `unread emails`, `new messages`), where some of them would otherwise be verbs (`open` a
 * ticket) or a changing tool's words: the statuses, and `new`, `recent` and `unread`, which say when
 * or whether a thing was seen rather than its status.
 */
const STATES: ReadonlySet<string> = new Set([...STATUSES, "new", "recent", "unread"]);

/**
 * The state words of `text` that describe the plural noun after them (with at most one word
 * between: `pending support tickets`): a query naming things by their state asks to list them.
 */
export function statesDescribed(text: string): Set<string> {
  const tokens = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const described = new Set<string>();
  tokens.forEach((token, i) => {
    const state = token.toLowerCase();
    if (!STATES.has(state)) return;
    if (tokens.slice(i + 1, i + 3).some(isPluralNoun)) described.add(state);
  });
  return described;
}

/**
 * The status words ({@link STATUSES}) of `words` that say the state a thing is set to, after `to` or `as` ("set PAY-9
 * back to open", "mark it as resolved"): a value, not a verb (`open` creates nothing there).
 */
export function statesTargeted(words: readonly string[]): string[] {
  return words.filter(
    (word, i) => i > 0 && STATUSES.has(word) && (words[i - 1] === "to" || words[i - 1] === "as"),
  );
}

const STATUS_WORDS: readonly (readonly string[])[] = [["status"], [stem("state")]];

/** What a state word of a query reads as, when its words are those of {@link queryStates}. */
export interface QueryStates {
  /** State words that describe what to list, or say what a thing is set to. */
  states: Set<string>;
  /** State words that say what a thing is set to (`back to open`). */
  targets: readonly string[];
}

/** The state words of a query: `text` with its values taken out, `words` its `plainWords`. */
export function queryStates(text: string, words: readonly string[]): QueryStates {
  const states = statesDescribed(text);
  const targets = statesTargeted(words);
  for (const target of targets) states.add(target);
  return { states, targets };
}

/**
 * The slot of a word that no synonym key takes, `stemmed` its stem and `base` what it stands for
 * (an `un-` word's base, a misspelling's word): a status among {@link QueryStates} also matches a
 * tool's `status` or `state`, and a target is a value — its word counts as one of its
 * alternatives, not as what is asked.
 */
export function wordSlot(
  word: string,
  stemmed: string,
  base: readonly (readonly string[])[],
  { states, targets }: QueryStates,
): { words: string[]; synonyms: (readonly string[])[] } {
  const status = states.has(word) && STATUSES.has(word) ? STATUS_WORDS : [];
  if (targets.includes(word)) return { words: [], synonyms: [[stemmed], ...status] };
  return { words: [stemmed], synonyms: [...base, ...status] };
}

/** `tickets`, `PRs`; not `status`, `class`, or a stop word such as `this` or `has`. */
export function isPluralNoun(token: string): boolean {
  if (/^[A-Z]{2,}s$/.test(token)) return true;
  const word = token.toLowerCase();
  return word.length > 3 && /[^su]s$/.test(word) && !isStopWord(word);
}
