/**
 * Words that are a thing's noun in tools' texts and, where a verb stands, another action: "page
 * whoever is on call" alerts someone, it makes no page; "who do I page?" asks who is on call. Read
 * by query-slots.ts, which gives such a word its verb's meaning in place of its own word.
 * @module
 */
import { isPluralNoun } from "./query-states";

/** Stemmed alternatives, as the synonym table holds them. */
type Alternatives = readonly (readonly string[])[];

/**
 * A noun's stem → what it means as a verb, told ("page whoever is on call") and asked ("who do we
 * page?" asks who is on call).
 */
const VERB_MEANINGS: ReadonlyMap<string, { told: Alternatives; asked: Alternatives }> = new Map([
  ["pag", { told: [["pag", "on call"], ["alert"]], asked: [["on call"]] }],
]);

/** Words before a verb: its subject or what makes it one ("who do we page", "we need to page", "please page"; a one-letter `I` is no word). */
const BEFORE_VERB = new Set([
  "i",
  "we",
  "do",
  "to",
  "should",
  "shall",
  "must",
  "can",
  "will",
  "please",
  "and",
  "then",
  "get",
  "gets",
  "got",
]);

/** Words after a verb that name whom it reaches ("page someone", "page them", "page the on-call"). */
const WHOM = new Set(
  "someone somebody whoever anyone anybody everyone everybody them him her me us on oncall".split(" "),
);

/**
 * What the word at `at` means as a verb, when it has a verb's meaning of its own and stands where a
 * verb does — first, before whom it reaches or in a query that names a team (`teamNamed`: "page the
 * db team", whose team query-shapes.ts took out), or after a subject or `to` — as a `question` means it.
 */
export function verbMeaning(
  words: readonly string[],
  stems: readonly string[],
  at: number,
  question: boolean,
  teamNamed = false,
): Alternatives | undefined {
  const meanings = VERB_MEANINGS.get(stems[at]!);
  if (!meanings) return undefined;
  const meaning = question ? meanings.asked : meanings.told;
  if (at > 0 && BEFORE_VERB.has(words[at - 1]!)) return meaning;
  const next = words[at + 1] === "the" ? words[at + 2] : words[at + 1];
  return at === 0 && (teamNamed || (next !== undefined && WHOM.has(next))) ? meaning : undefined;
}

/** The forms of `get`. */
const GET = new Set(["get", "gets", "got", "gotten", "getting"]);
/** Past participles that do not end in `-ed`. */
const IRREGULAR_PARTICIPLES = new Set(
  "paid sent done made built seen taken given sold bought told kept shut set put cut run hit lost found written".split(
    " ",
  ),
);

/**
 * Whether the word at `at` is a `get` that makes a passive ("who gets paged", "did the invoice get
 * paid", "which PRs got merged"): it asks nothing to be fetched, and the participle after it is the
 * verb ({@link BEFORE_VERB} has it).
 */
export function isPassiveGet(words: readonly string[], at: number): boolean {
  if (!GET.has(words[at]!)) return false;
  const next = words[at + 1];
  return next !== undefined && isParticiple(next);
}

/** Who is asked about, not made to act, after a leading `have`: "have you sent it", "have any PRs merged". */
const ASKED = new Set([
  "you",
  "we",
  "i",
  "they",
  "he",
  "she",
  "it",
  "there",
  "any",
  "anyone",
  "anybody",
  "all",
  "u",
]);
/** Words before the one made to act: "have the bot…", "have our lawyer…". */
const CAUSER_DETERMINERS = new Set(["the", "a", "an", "our", "my", "your", "their", "this", "that"]);
/** Past participles a causative's base verb is not, beyond {@link isParticiple}'s: "have the builds gone green". */
const MORE_PARTICIPLES = new Set([
  "gone",
  "been",
  "come",
  "got",
  "gotten",
  "had",
  "left",
  "read",
  "won",
  "begun",
]);

/**
 * How many leading words make a causative `have` ("have the bot say hi in #general", "have Sam
 * review the PR"): `have`, a determiner, and the one made to act, whose verb is then the command;
 * 0 when the query does not begin with one ("have the tests passed?" asks).
 */
export function causativeLength(words: readonly string[]): number {
  if (words[0] !== "have") return 0;
  const at = CAUSER_DETERMINERS.has(words[1] ?? "") ? 2 : 1;
  const causer = words[at];
  const verb = words[at + 1];
  if (causer === undefined || verb === undefined || ASKED.has(causer)) return 0;
  if (isParticiple(verb) || MORE_PARTICIPLES.has(verb) || BE.has(verb) || BETWEEN_BE.has(verb)) return 0;
  if (verb.length > 4 && /(?:en|wn)$/.test(verb)) return 0;
  return at + 1;
}

/** Forms of `be`, which make a participle after them a state. */
const BE = new Set(["is", "are", "was", "were", "been", "be", "being"]);
/** Words that may stand between `be` and its participle: "is still shared", "are not assigned". */
const BETWEEN_BE = new Set(["still", "already", "not", "never", "yet", "all", "currently", "now", "also"]);

/** Words after a participle that follows things, making it their state: "bugs assigned to me". */
const AFTER_STATE = new Set(["to", "by", "with", "in", "on", "since", "last", "this", "yesterday", "today"]);

/** Whether `word` is written as a past participle: `assigned`, `shared`, `paid`. */
function isParticiple(word: string): boolean {
  return (word.length > 4 && word.endsWith("ed")) || IRREGULAR_PARTICIPLES.has(word);
}

/**
 * Whether the word at `at` is a participle after `be` ("which tickets are assigned to Kevin", "is
 * the doc still shared", "hasn't been merged"): it names the state things are in, which a tool that
 * reads filters by, not the action of the tool that puts them in it.
 */
export function isStateParticiple(words: readonly string[], at: number): boolean {
  if (at < 1 || !isParticiple(words[at]!)) return false;
  const before = words[at - 1]!;
  // "bugs assigned to me", "PRs merged by Dana": a participle right after things names their state too
  if (isPluralNoun(before) && AFTER_STATE.has(words[at + 1] ?? "")) return true;
  // "is the doc still shared": a question that begins with `be` asks its participle of its subject.
  return BE.has(before) || (BETWEEN_BE.has(before) && (BE.has(words[at - 2] ?? "") || BE.has(words[0]!)));
}

/** Auxiliaries a question asks what was done with: "which SMS did we send", "what has Sam posted". */
const DONE_AUXILIARIES = new Set(["did", "didn", "do", "does", "have", "has", "had"]);

/**
 * Whether the word at `at` is a verb a question asks about as done, after an auxiliary and its
 * subject of one word ("which SMS did we send to Maria", "what did Sam post", "which calls did we
 * make"): like a state, it says which things are meant, not the action wanted — the things are to
 * be listed or searched, not sent again. A participle after `be` is {@link isStateParticiple}'s.
 */
export function isDoneInQuestion(words: readonly string[], at: number): boolean {
  // A one-letter `I` is no word: "what emails did I send" has `did` right before its verb.
  const auxiliary = DONE_AUXILIARIES.has(words[at - 1] ?? "") ? at - 1 : at - 2;
  return auxiliary >= 1 && DONE_AUXILIARIES.has(words[auxiliary]!) && !BE.has(words[at]!);
}
