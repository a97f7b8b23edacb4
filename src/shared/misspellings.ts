/**
 * Misspelt query words: a word tools' texts do not have, one slip of the keyboard from one they
 * have (`serch` → search, `refnd` → refund, `aknowledge` → acknowledge, `calender` → calendar).
 * One letter left out, one too many or two neighbours swapped, at any length of five letters or
 * more; one letter changed only from seven letters on, for a short word with a letter changed is
 * most often another word (`stale`, `state`).
 * @module
 */

/** The shortest word read as a misspelling. */
const SHORTEST = 5;
/** The shortest word in which one letter changed is read as a misspelling. */
const SHORTEST_CHANGED = 7;
/** At most this many indexed words stand for one misspelt word. */
const MAX_CANDIDATES = 3;

/**
 * The indexed words that `word` (as written, and its stem) is one slip away from; none for a word
 * that is indexed, shorter than five letters or a number.
 */
export function misspeltWords(
  word: string,
  stemmed: string,
  indexedWords: Iterable<string>,
  indexed: (word: string) => boolean,
): string[] {
  if (word.length < SHORTEST || /\d/.test(word) || indexed(stemmed) || indexed(word)) return [];
  // A misspelt plural is its singular misspelt: the stemmer cuts `calenders` to `calend`.
  const singular = /[^s]s$/.test(word) ? word.slice(0, -1) : word;
  const found: string[] = [];
  for (const candidate of indexedWords) {
    if (candidate.includes(" ")) continue;
    if (
      oneSlipApart(word, candidate) ||
      (stemmed !== word && oneSlipApart(stemmed, candidate)) ||
      (singular !== word && oneSlipApart(singular, candidate))
    ) {
      found.push(candidate);
      if (found.length === MAX_CANDIDATES) break;
    }
  }
  return found;
}

/** Whether `a` becomes `b` by one letter left out or added, two neighbours swapped, or (long words) one letter changed. */
export function oneSlipApart(a: string, b: string): boolean {
  if (a === b) return false;
  if (Math.abs(a.length - b.length) > 1) return false;
  if (a.length !== b.length) {
    const [short, long] = a.length < b.length ? [a, b] : [b, a];
    if (short.length < SHORTEST) return false;
    let i = 0;
    while (i < short.length && short[i] === long[i]) i++;
    return short.slice(i) === long.slice(i + 1);
  }
  let first = 0;
  while (a[first] === b[first]) first++;
  if (a.slice(first + 2) === b.slice(first + 2) && a[first] === b[first + 1] && a[first + 1] === b[first])
    return true;
  return a.length >= SHORTEST_CHANGED && a.slice(first + 1) === b.slice(first + 1);
}
