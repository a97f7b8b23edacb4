/**
 * The words tool search compares: a tool's name, description and schema text, or a query, cut into
 * lowercase words (at non-alphanumerics, camelCase and snake_case), English stop words and the
 * question words of a model's query left out, each word reduced to a stem so that `labels`,
 * `labeled` and `labeling` are one word. Whole words only: `what` never matches `whatsapp`.
 * @module
 */

/** Words that say nothing about which tool is meant: articles, pronouns, question words, auxiliaries. */
const STOP_WORDS = new Set(
  (
    "a about after again all also am an and any anything are as at be been before being both but by " +
    "can cannot could did do does doing don each either else for from going had has have having he her " +
    "here hers him his how i if in into is it its itself just let lets like me mine more most much must " +
    "my myself need needs no nor not now of off on once one only or other our ours out over own please " +
    "quite really same she should so some something such than that the their theirs them then there " +
    "these they thing this those through to too tool tools under until up upon us very want wants was " +
    "we were what whatever when where whether which while who whom whose why will with within without " +
    "would yet you your yours"
  ).split(" "),
);

/**
 * Nouns in `-ing` kept whole: their verb means another thing (a call's `recording` is not to
 * `record` time, a `setting` not to `set`, an `evening` not `even`).
 */
const ING_NOUNS = new Set(["recording", "setting", "evening", "heading", "ceiling", "wedding", "offering"]);

/**
 * People named by what they do, kept whole: their verb names a thing of its own in tools' texts (a
 * ticket's `requester` is no pull `request`, an issue's `reporter` no `report`, a message's
 * `sender` no `send` action).
 */
const PERSON_NOUNS = new Set(["requester", "reporter", "poster", "sender"]);

/**
 * Contractions typed without their apostrophe, read as their first word (`whats` → what, `dont` →
 * don, as "don't" is cut): a stop word, a question's word or a negation, never a word to search with.
 */
const BARE_CONTRACTIONS: Readonly<Record<string, string>> = {
  whats: "what",
  whos: "who",
  wheres: "where",
  hows: "how",
  thats: "that",
  theres: "there",
  ive: "i",
  dont: "don",
  doesnt: "doesn",
  didnt: "didn",
  isnt: "isn",
  arent: "aren",
  wasnt: "wasn",
  werent: "weren",
};

/** A whole word of {@link BARE_CONTRACTIONS} (not the `Whats` of `WhatsApp`). */
const BARE_CONTRACTION = new RegExp(`\\b(?:${Object.keys(BARE_CONTRACTIONS).join("|")})\\b`, "gi");

/**
 * `can't`, `can’t` and a bare `cant`, read as `cannot`: cut at the apostrophe they would read as
 * `can`, the very opposite (`can't make it` is no `can make it`).
 */
const CANNOT = /\bcan(?:['’]t|t)\b/gi;

/**
 * Words ending in one `l` that British spelling doubles before a suffix (`cancelled`, `labelling`,
 * `traveller`): their doubled forms meet the word as tools write it (`cancel`, `label`), where the
 * `l` of `billing` or `called` stays doubled.
 */
const SINGLE_L = new Set(
  (
    "cancel label travel model level channel signal total dial fuel funnel tunnel panel counsel " +
    "marshal parcel jewel pencil quarrel shovel"
  ).split(" "),
);

/** Consonants kept doubled when a suffix is stripped (`billing` → `bill`, `passed` → `pass`). */
const KEEP_DOUBLED = new Set(["l", "s", "z"]);

/**
 * Lowercase words of `text`, stop words included, split at non-alphanumerics and camelCase; an
 * acronym's plural is its singular (`PRs` → `pr`, `IDs` → `id`, `URLs` → `url`).
 */
export function plainWords(text: string): string[] {
  return text
    .replace(CANNOT, "cannot")
    .replace(BARE_CONTRACTION, (word) => BARE_CONTRACTIONS[word.toLowerCase()] ?? word)
    .replace(/\b([A-Z]{2,})s\b/g, "$1")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z]{2,})/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 1);
}

/** Whether `word` is left out of searches. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * The stemmed words of `text` that count in a search: stop words left out, and two kinds of word
 * that stop words would otherwise break kept as single terms — hyphenated words joined (`to-dos` →
 * `todo`) and a stop word with its neighbour (`on call`, `mark as`), written with a space.
 */
export function searchWords(text: string): string[] {
  const plain = plainWords(text);
  const words: string[] = [];
  for (const word of plain) if (!STOP_WORDS.has(word)) words.push(stem(word));
  words.push(...hyphenatedWords(text), ...stopWordPairs(plain));
  return words;
}

/** Hyphenated words of `text`, joined and stemmed (`on-call` → `oncall`). */
export function hyphenatedWords(text: string): string[] {
  return (text.match(/[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+/g) ?? []).map((word) =>
    stem(word.toLowerCase().replace(/-/g, "")),
  );
}

/** Stop words that make a compound with a neighbour: `on call`, `mark as`, `sign up`, `log in`. */
const PARTICLES = new Set(["as", "in", "off", "on", "out", "over", "up"]);

/** Whether `word` is a particle that makes a compound with a neighbour (`on` of `on call`). */
export function isParticle(word: string): boolean {
  return PARTICLES.has(word);
}

/**
 * Each pair of neighbouring words of which one is a particle ({@link PARTICLES}) and the other no
 * stop word, stemmed (`on call`).
 */
export function stopWordPairs(words: readonly string[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const [first, second] = [words[i]!, words[i + 1]!];
    if (
      (PARTICLES.has(first) && !STOP_WORDS.has(second)) ||
      (PARTICLES.has(second) && !STOP_WORDS.has(first))
    )
      pairs.push(`${stem(first)} ${stem(second)}`);
  }
  return pairs;
}

/**
 * A light English stemmer: plurals, `-ing`, `-ed`, then `-er`/`-or` of longer words (`reminder` →
 * `remind`, `editor` → `edit`), then a final `e` (so `create`, `created` and `creating` meet at
 * `creat`). Words of three letters or fewer, and numbers, are kept whole.
 */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    if (stems.size >= MAX_REMEMBERED_STEMS) stems.clear();
    stems.set(word, (stemmed = /\d/.test(word) ? word : stemOf(word)));
  }
  return stemmed;
}

/** Stems already worked out: tool texts repeat their words, and a catalog's index is built at once. */
const stems = new Map<string, string>();
const MAX_REMEMBERED_STEMS = 10_000;

/**
 * A word's stem, kept apart from the stop words: a word that is none (`note`, `canned`, `done`) does
 * not stem into one (`not`, `can`, `don`), where it would be dropped or read as a negation ("the
 * meeting notes page" is no "not page"); it keeps its final e, or stays whole.
 */
function stemOf(word: string): string {
  const stemmed = cutStem(word);
  if (!STOP_WORDS.has(stemmed) || STOP_WORDS.has(word)) return stemmed;
  const base = stripSuffix(word);
  if (!STOP_WORDS.has(base)) return base;
  return word.startsWith(`${base}e`) ? `${base}e` : word;
}

function cutStem(word: string): string {
  let base = stripSuffix(word);
  if (base.length >= 6 && /(?:er|or)$/.test(base) && !PERSON_NOUNS.has(base)) base = base.slice(0, -2);
  if (base.endsWith("ll") && SINGLE_L.has(base.slice(0, -1))) base = base.slice(0, -1);
  if (base.length > 3 && base.endsWith("e")) base = base.slice(0, -1);
  return base;
}

function stripSuffix(word: string): string {
  if (word.endsWith("ies") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("ied") && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith("sses")) return word.slice(0, -2);
  if (/(?:ss|x|z|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(?:ss|us|is)$/.test(word)) return word.slice(0, -1);
  if (word.endsWith("ing") && word.length > 5 && /[aeiouy]/.test(word.slice(0, -3)) && !ING_NOUNS.has(word))
    return undouble(word.slice(0, -3));
  if (word.endsWith("ed") && word.length > 4 && !word.endsWith("eed")) return undouble(word.slice(0, -2));
  return word;
}

/** `stopp` → `stop`, `runn` → `run`; `bill`, `pass` and `buzz` stay. */
function undouble(base: string): string {
  const last = base[base.length - 1] ?? "";
  return base.length > 2 &&
    last === base[base.length - 2] &&
    /[b-df-hj-np-tv-z]/.test(last) &&
    !KEEP_DOUBLED.has(last)
    ? base.slice(0, -1)
    : base;
}
