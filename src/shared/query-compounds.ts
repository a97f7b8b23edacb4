/**
 * Compounds in a tool-search query: hyphenated words (`to-dos`, `on-call`) and a particle with its
 * neighbour (`on call`, `mark as`), which tools' texts index as single terms (search-words.ts).
 * A hyphenated compound of a particle is another word than its word alone — the on-call engineer
 * is no phone call, a check-in no check — so it takes the place of its word's slot: the compound
 * is what is asked, the word alone only an alternative, without the word's own synonyms; so is a
 * particle written apart before its word, as tools have the pair ("whoever is on call"). (A word
 * written before a particle may be a noun and a preposition, `a number in Germany`: the pair is a
 * slot of its own.)
 * @module
 */
import { hyphenatedWords, isParticle, isStopWord, plainWords, stem, stopWordPairs } from "./search-words";

/** What folding needs of a slot: its own words and synonyms. */
export interface CompoundSlot {
  words: readonly string[];
  synonyms: readonly (readonly string[])[];
}

/** One compound of the query: its forms as tools' texts index them, and the stemmed word it is made of, if a particle's. */
interface Compound {
  forms: readonly string[];
  word?: string;
}

const HYPHENATED = /[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+/g;

/** The query's compounds: its hyphenated words, then its other particle pairs (`words` are `plainWords(text)`). */
function compoundsOf(text: string, words: readonly string[]): Compound[] {
  const compounds: Compound[] = [];
  const hyphenPairs = new Set<string>();
  for (const hyphenated of text.match(HYPHENATED) ?? []) {
    const pieces = plainWords(hyphenated);
    const own = pieces.filter((piece) => !isStopWord(piece));
    const joined = hyphenatedWords(hyphenated)[0]!;
    if (!pieces.some(isParticle) || own.length !== 1) {
      compounds.push({ forms: [joined] });
      continue;
    }
    const pairs = stopWordPairs(pieces);
    for (const pair of pairs) hyphenPairs.add(pair);
    compounds.push({ forms: [...pairs, joined], word: stem(own[0]!) });
  }
  for (const pair of stopWordPairs(words)) {
    if (hyphenPairs.has(pair)) continue;
    // A particle before its word ("whoever is on call"), as tools' texts have it, is the compound
    // written apart: it takes the word's place, as a hyphenated one does.
    const [first, second] = pair.split(" ");
    compounds.push(isParticle(first!) ? { forms: [pair], word: second } : { forms: [pair] });
  }
  return compounds;
}

/**
 * Adds the compounds of `text` that tools' texts have (`indexed`) to `slots`: a hyphenated
 * particle's compound in place of the slot of its word (`call` of `on-call`), the word kept as an
 * alternative; any other as a slot of its own. `words` are `plainWords(text)`.
 */
export function addCompounds<Slot extends CompoundSlot>(
  slots: (Slot | CompoundSlot)[],
  text: string,
  words: readonly string[],
  indexed: (word: string) => boolean,
): void {
  for (const { forms, word } of compoundsOf(text, words)) {
    const found = forms.filter(indexed);
    if (found.length === 0) continue;
    const at =
      word === undefined ? -1 : slots.findIndex((slot) => slot.words.length === 1 && slot.words[0] === word);
    if (at === -1) for (const form of found) slots.push({ words: [form], synonyms: [] });
    else
      slots[at] = {
        ...slots[at]!,
        words: [found[0]!],
        synonyms: [...found.slice(1).map((form) => [form]), [word!]],
      };
  }
}
