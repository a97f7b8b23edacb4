/**
 * A tool-search query read into slots — the parts a tool is scored on, each with its own words and
 * the synonyms it stands for: synonym phrases (longest first, and verbs with a particle a few words
 * on), single words, hyphenated words and particle pairs, then the entity shapes of
 * query-shapes.ts. Reading also says what the query means beyond its words: whether it asks to read
 * (a question, or things named by their state: `open PRs`), which words it negates (`not
 * qualified`), and where a verb's synonym is a command (first) or names things (elsewhere).
 * @module
 */
import { markSubject } from "./message-subject";
import { addCompounds } from "./query-compounds";
import { applyContexts } from "./query-contexts";
import { markOrigins, originWords } from "./query-origins";
import { isClear, type QueryShape, readShapes } from "./query-shapes";
import { isPluralNoun, queryStates, wordSlot } from "./query-states";
import {
  causativeLength,
  isDoneInQuestion,
  isPassiveGet,
  isStateParticiple,
  verbMeaning,
} from "./query-verb-nouns";
import { isStopWord, plainWords, stem, stopWordPairs } from "./search-words";
import type { SynonymTable } from "./tool-synonyms";

/**
 * A query that asks rather than tells (`what's on my calendar`, `did the build pass?`, `any emails
 * from…`): it wants a tool that reads — lists, gets, searches — more than one that changes things.
 * Not a causative `have` ("have the bot say…" asks the bot to act: the verb after it is the command).
 */
const QUESTION =
  /^\s*(?:what|whats|which|who|whos|whose|where|wheres|when|how|hows|why|is|are|am|was|were|did|do|does|has|have|any|anything|anyone|anybody)\b|\?\s*$/i;

/** One part of a query: its own words, and the words of each synonym it stands for. */
export interface QuerySlot {
  words: readonly string[];
  synonyms: readonly (readonly string[])[];
  /** How much a synonym's match counts. @default the ranker's synonym weight */
  weight?: number;
  /**
   * Words of a message's subject ("tell the team about the outage"): they say what the message is
   * about, not which tool sends it, so they count little and not as a part of what is asked.
   */
  subject?: boolean;
  /**
   * A participle after `be` ("which tickets are assigned to Kevin"): a state to filter by, which
   * counts little for the tools whose action it names.
   */
  state?: boolean;
}

/** What reading a query needs from the ranker. */
export interface QueryReader {
  synonyms: SynonymTable;
  /** The longest synonym key, in words. */
  longestKey: number;
  /** Whether tools' texts have `word` (stemmed). */
  indexed(word: string): boolean;
  /** The indexed words a word tools' texts lack is a misspelling of (misspellings.ts). @default none */
  misspelt?(word: string, stemmed: string): string[];
}

/** A query read: its slots, its text with the shapes' values taken out, and whether it asks to read. */
export interface ReadQuery {
  slots: QuerySlot[];
  rest: string;
  /** A question, or things named by their state: it wants a tool that reads. */
  reads: boolean;
  /** Asks to see things in the plural (`show the calls we placed`, `which servers are down?`): it wants a list. */
  lists: boolean;
}

/** First words that, before things in the plural, ask to see them listed: "which servers…", "show the calls…". */
const SHOWING = new Set(["what", "which", "show", "list", "see", "display", "view"]);
/** First words that show or find things, whose participles say which: "find the bugs assigned to me". */
const SHOWING_OR_FINDING = new Set([...SHOWING, "find", "search", "look", "locate"]);
/** How much `list` counts for a query asking for a list (a shape's hint weight). */
const LIST_HINT = 0.4;
/** How much `list` counts when the command itself is to show things in the plural ("show all the calendars"). */
const SHOWN_LIST_HINT = 0.7;
/** A question that asks where a thing is: it wants it found. */
const WHERE = /^\s*(?:where|wheres)\b/i;
/**
 * A question whether someone wrote, answered or mentioned a thing: "did the accountant reply?",
 * "has Dana emailed us back?", "did anyone mention the outage?".
 */
const WROTE =
  /^\s*(?:did|has|have|had)\b.*\b(?:repl(?:y|ied)|respond(?:ed)?|answer(?:ed)?|wr(?:ite|ote|itten)\s+back|e?mail(?:ed)?|(?:get|got|gotten)\s+back|mention(?:ed)?|say|said|talk(?:ed)?\s+about)\b/i;
const FINDING: readonly (readonly string[])[] = [["search"], ["find"]];
/** How much finding counts for a `where` or a {@link WROTE} question (a hint, more than a list's: they ask for nothing else). */
const WHERE_HINT = 0.7;
/** Units a count measures in, not things to list: "how many gigabytes…", "how many hours…". */
const MEASURES =
  /^(?:(?:kilo|mega|giga|tera)?bytes|[kmgt]bs?|seconds|minutes|hours|days|weeks|months|years|dollars|euros|percent|points)$/i;
/** How many words after the first may name the things asked for. */
const LISTED_WITHIN = 3;

/** Whether `text` begins with a word of {@link SHOWING} and names things in the plural soon after. */
function asksForList(text: string): boolean {
  const tokens = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  // "how many servers…" counts things: they are listed to be counted.
  const counts = tokens.length > 1 && /^how$/i.test(tokens[0]!) && /^many$/i.test(tokens[1]!);
  if (tokens.length === 0 || (!counts && !SHOWING.has(tokens[0]!.toLowerCase()))) return false;
  const named = tokens.slice(counts ? 2 : 1).filter((token) => !isStopWord(token.toLowerCase()));
  if (counts && MEASURES.test(named[0] ?? "")) return false;
  return named.slice(0, LISTED_WITHIN).some(isPluralNoun);
}

/**
 * A verb at `at` whose particle comes a few words later ("pass this email along" → `pass along`),
 * or `let` whose verb comes after its object ("let Tom edit the sheet" → `let edit`), when the two
 * make a synonym key: its synonyms and where the particle is.
 */
function splitPhrase(
  words: readonly string[],
  stems: readonly string[],
  at: number,
  synonyms: SynonymTable,
): { synonyms: readonly (readonly string[])[]; particle: number } | undefined {
  // After a verb, stop words between do not count ("put the outdated spec page away" has three
  // words apart); after a stop word (`are … down`, `let … edit`) every word does. The verb again
  // ends the search: the particle after it is its own ("are reporting in and are any down").
  const verb = !isStopWord(words[at]!);
  let apart = 0;
  for (let particle = at + 1; particle < stems.length && apart <= MAX_APART; particle++) {
    if (stems[particle] === stems[at]) return undefined;
    if (
      particle === at + 1 ||
      (!SEPARABLE.has(stems[particle]!) && !(stems[at] === "let" && LET_VERBS.has(stems[particle]!)))
    ) {
      if (!verb || !isStopWord(words[particle]!)) apart++;
      continue;
    }
    const found = synonyms.get(`${stems[at]} ${stems[particle]}`);
    if (found) return { synonyms: found, particle };
  }
  return undefined;
}

/**
 * The word an `un-` word negates, when tools are described with it (`unread` → `read`, `unpaid` →
 * `paid`): tools that set or filter by a state are described by the state, not its negation.
 */
function unPrefixed(word: string, indexed: (word: string) => boolean): string[][] {
  if (word.length < 6 || !word.startsWith("un")) return [];
  const base = stem(word.slice(2));
  return indexed(base) ? [[base]] : [];
}

/** What a word tools lack stands for: the base of an `un-` word, or the words it misspells. */
function baseWords(word: string, stemmed: string, reader: QueryReader): string[][] {
  const base = unPrefixed(word, reader.indexed);
  if (base.length > 0 || !reader.misspelt) return base;
  return reader.misspelt(word, stemmed).map((near) => [near]);
}

/**
 * The query cut into slots — synonym phrases (longest first), single words, then the shapes — and
 * the query with the shapes' values taken out.
 */
export function readQuery(query: string, reader: QueryReader): ReadQuery {
  const question = QUESTION.test(query) && causativeLength(plainWords(query)) === 0;
  const { shapes, rest } = readShapes(query, question);
  const words = plainWords(rest);
  const causer = causativeLength(words);
  const stated = queryStates(rest, words);
  // Things named by their state first ("open PRs by Dana") are to be listed; after a verb ("close
  // all open tickets", "add new users") the state only says which.
  const firstWord = words.find((word, at) => at >= causer && !isStopWord(word));
  const reads = question || (firstWord !== undefined && stated.states.has(firstWord));
  const lists = asksForList(rest);
  const stems = words.map(stem);
  const teamNamed = shapes.some((shape) => shape.kind === "team");
  const slots: QuerySlot[] = [];
  /** Words already read with an earlier one (a particle), negated (`not qualified`), a passive's `get`, or a causative's. */
  const skipped = new Set(words.flatMap((_, at) => (at < causer || isPassiveGet(words, at) ? [at] : [])));
  /** The index in `words` of each slot's first word. */
  const starts: number[] = [];
  /** Whether the query begins with a light verb ({@link LIGHT_VERBS}), whose command a later phrase may take. */
  let light = false;
  for (let i = 0; i < words.length; ) {
    if (skipped.has(i)) {
      i++;
      continue;
    }
    const verb = verbMeaning(words, stems, i, question, teamNamed);
    if (verb) {
      starts.push(i);
      slots.push({ words: [], synonyms: verb });
      i++;
      continue;
    }
    let taken = 0;
    // A verb whose particle comes later makes a phrase that says more than the verb alone: "put the
    // page away" archives (`put away`), it does not put; "call the meeting off" cancels.
    const split = splitPhrase(words, stems, i, reader.synonyms);
    for (let size = Math.min(reader.longestKey, words.length - i); size > 0 && taken === 0; size--) {
      if (size === 1 && split) break;
      const synonyms = reader.synonyms.get(stems.slice(i, i + size).join(" "));
      if (!synonyms || (size === 1 && (isStopWord(words[i]!) || stated.states.has(words[i]!)))) continue;
      // A verb's synonym is a command only where a command's verb stands, first: "email the report"
      // sends, "filter mail from…" and "what texts came in" name things; or after a light verb.
      const takesLight = light && takesCommand(synonyms, words.slice(i, i + size));
      const command = !reads && (slots.length === 0 || takesLight);
      if (takesLight) {
        slots[0] = { words: slots[0]!.words, synonyms: [] };
        light = false;
      } else if (slots.length === 0) light = !reads && size === 1 && LIGHT_VERBS.has(stems[i]!);
      starts.push(i);
      slots.push({
        words: ownWords(words.slice(i, i + size)),
        synonyms: command ? synonyms : asRead(synonyms, reads),
      });
      taken = size;
    }
    if (taken === 0) {
      if (split) {
        starts.push(i);
        slots.push({ words: [stems[i]!], synonyms: split.synonyms });
        skipped.add(split.particle);
      } else if (NEGATIONS.has(words[i]!)) {
        if (i + 1 < words.length && !isStopWord(words[i + 1]!)) skipped.add(i + 1);
      } else if (!isStopWord(words[i]!)) {
        starts.push(i);
        slots.push(wordSlot(words[i]!, stems[i]!, baseWords(words[i]!, stems[i]!, reader), stated));
      }
    }
    i += Math.max(taken, 1);
  }
  if (reads || SHOWING_OR_FINDING.has(firstWord ?? "")) markStates(slots, starts, words);
  // Pairs as written ("mark OPS-12 as blocked" is no `mark as`), before the subject is marked:
  // "who is on call for billing" asks who answers for billing once `on call` is read.
  addCompounds(slots, rest, plainWords(query), reader.indexed);
  markSubject(slots, starts, words, rest, reads);
  markOrigins(slots, originWords(query));
  applyContexts(slots, shapeWords(shapes));
  withoutSaidSynonyms(slots);
  addHints(slots, addShapes(slots, shapes), query, lists);
  return { slots, rest, reads, lists };
}

/** The one-word alternatives of the values taken out of a query (an address's `email`). */
function shapeWords(shapes: readonly QueryShape[]): string[] {
  return shapes.flatMap((shape) => shape.alternatives.filter((words) => words.length === 1).flat());
}

/**
 * Adds the hints of what a query asks beyond its words, unless `said`: things asked for in the
 * plural are listed (`list`, a word of what is asked at a hint's weight); "where's the onboarding
 * doc?" asks to find it (`where` is a stop word).
 */
function addHints(slots: QuerySlot[], said: ReadonlySet<string>, query: string, lists: boolean): void {
  // "show all the calendars I have": a command to show things in the plural asks plainly for a list
  const shows = slots[0]?.words.length === 1 && SHOWING.has(slots[0].words[0]!);
  if (lists && !said.has("list"))
    slots.push({ words: [], synonyms: [["list"]], weight: shows ? SHOWN_LIST_HINT : LIST_HINT });
  if (said.has("search")) return;
  if (WHERE.test(query)) slots.push({ words: [], synonyms: FINDING, weight: WHERE_HINT });
  else if (WROTE.test(query)) slots.push({ words: [], synonyms: [["search"]], weight: WHERE_HINT });
}

/**
 * Adds a slot per shape for what the words do not already say — its words the query has are not
 * counted twice — and none for a clear shape of several kinds when the words name one of them
 * ("ticket #9921" is no pull request); the words said, shapes' included.
 */
function addShapes(slots: QuerySlot[], shapes: readonly QueryShape[]): Set<string> {
  const said = new Set(slots.flatMap((slot) => [...slot.words, ...slot.synonyms.flat()]));
  const own = new Set(slots.flatMap((slot) => slot.words));
  const namesKind = (shape: QueryShape) =>
    isClear(shape) &&
    shape.alternatives.length > 1 &&
    shape.alternatives.some((words) => words.every((word) => own.has(word)));
  for (const shape of shapes) {
    if (namesKind(shape)) continue;
    const alternatives = shape.alternatives.filter((words) => !words.every((word) => said.has(word)));
    if (alternatives.length > 0) slots.push({ words: [], synonyms: alternatives, weight: shape.weight });
  }
  return said;
}

/** Prepositions after a verb that make a phrase of it: "look for", "look through", "dig into". */
const PREPOSITIONS = new Set(["for", "through", "at", "into", "around", "after"]);

/**
 * The words a synonym key's own words match with: a phrasal verb as the pair tools' texts index it
 * (`set up` matches "Set up a webhook", not every `set_…` tool), other phrases by their words but
 * stop words; none for a negated phrase, which means what its synonyms say and not what its words
 * do ("don't page anyone" silences paging; it names no page).
 */
function ownWords(phrase: readonly string[]): string[] {
  if (phrase.length > 1 && NEGATIONS.has(phrase[0]!)) return [];
  const pairs = phrase.length === 2 ? stopWordPairs(phrase) : [];
  if (pairs.length > 0) return pairs;
  // "look for", "look through": a verb and its preposition mean what their synonyms say, not the
  // verb of another pair ("Look up a member's profile")
  if (phrase.length === 2 && PREPOSITIONS.has(phrase[1]!) && !isStopWord(phrase[0]!)) return [];
  return phrase.filter((word) => !isStopWord(word)).map(stem);
}

/**
 * Takes out of each slot the synonyms that another slot's own words say (`SMS texts`: `text` →
 * `sms` would count the query's `sms` twice, for the tools that send SMS).
 */
function withoutSaidSynonyms(slots: QuerySlot[]): void {
  const own = new Set(slots.flatMap((slot) => slot.words));
  slots.forEach((slot, index) => {
    const synonyms = slot.synonyms.filter((words) => !(words.length === 1 && own.has(words[0]!)));
    if (synonyms.length !== slot.synonyms.length) slots[index] = { ...slot, synonyms };
  });
}

/** Words of tools that change things, which a reading query's synonyms leave out (`text` → `sms`, not `send sms`). */
const WRITE_VERBS = new Set(["send", "post", "create", "update", "add", "set"].map(stem));

/**
 * Synonyms as a reading query means them: an alternative that begins with a changing verb (`send
 * sms` for `text`) without it — "what texts came in" asks for messages, not to send one; in a
 * query that reads (`question`), no alternative that is a changing verb alone — "did the build
 * pass?" asks for runs, not to create one.
 */
function asRead(synonyms: readonly (readonly string[])[], question: boolean): (readonly string[])[] {
  const read = question
    ? synonyms.filter((words) => words.length > 1 || !WRITE_VERBS.has(words[0]!))
    : synonyms;
  return read.map((words) => (words.length > 1 && WRITE_VERBS.has(words[0]!) ? words.slice(1) : words));
}

/**
 * Words that negate the word after them: `not qualified yet` is no `qualified` lead. (`don't send`
 * and the like are synonym keys, read before.)
 */
const NEGATIONS = new Set([
  "not",
  "no",
  "never",
  "without",
  "don",
  "doesn",
  "didn",
  "isn",
  "aren",
  "wasn",
  "weren",
]);

/**
 * Verbs that say little alone — the action is in the words after them: "give the team a heads
 * up", "make a note", "take a look", "put together". (`do`, `have` and `let` are stop words.)
 */
const LIGHT_VERBS = new Set(["give", "make", "take", "put"].map(stem));

/**
 * Marks as a state each slot of a participle after `be`, or of a verb asked about as done after
 * `did` and its subject (query-verb-nouns.ts), in a query that asks
 * about or shows things ("which tickets are assigned to Kevin"); in a command the state is the one
 * to bring about ("make sure the ticket is assigned to Kevin"), and is not marked.
 */
function markStates(slots: QuerySlot[], starts: readonly number[], words: readonly string[]): void {
  slots.forEach((slot, index) => {
    const at = starts[index]!;
    if (slot.words.length === 1 && (isStateParticiple(words, at) || isDoneInQuestion(words, at)))
      slots[index] = { ...slot, state: true };
  });
}

/**
 * Whether the phrase after a light verb takes its command: it says an action, or it is a verb
 * phrase ("give the team a heads up").
 */
function takesCommand(synonyms: readonly (readonly string[])[], phrase: readonly string[]): boolean {
  return saysAction(synonyms) || (phrase.length > 1 && isVerbPhrase(phrase));
}

/**
 * Whether a phrase reads as a verb's (`heads up`, `look at`: a stop word in it), not as a noun
 * compound (`action items`, `support request`), which names a thing and leaves a light verb its
 * meaning ("make a page with the action items" creates a page).
 */
function isVerbPhrase(phrase: readonly string[]): boolean {
  return phrase.some(isStopWord);
}

/** Whether a word's synonyms name an action to do (`ping` → `send message`): a noun that says the verb. */
function saysAction(synonyms: readonly (readonly string[])[]): boolean {
  return synonyms.some((words) => words.length > 1 && WRITE_VERBS.has(words[0]!));
}

/** Particles that may stand apart from their verb: "pass this email along", "put the page away". */
const SEPARABLE = new Set(["along", "away", "back", "down", "off", "on", "out", "over", "up"]);
/** Verbs that may follow `let` and its object: "let the team know", "let Tom edit the sheet". */
const LET_VERBS = new Set(["know", "edit", "view", "see", "comment", "read"].map(stem));
/** How many words, stop words after a verb aside, may stand between it and its particle. */
const MAX_APART = 3;
