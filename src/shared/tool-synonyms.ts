/**
 * The synonyms of client-side tool search: the words models use for what a tool does (find, money
 * back, text) mapped to the words tools are described with (search, refund, SMS): the default
 * vocabulary of tool-vocabulary.ts, extended by `toolSearch: { synonyms }` (see docs/en/tools.md,
 * "Tool search").
 * @module
 */
import { isStopWord, plainWords, stem, stopWordPairs } from "./search-words";
import { GROUPS, oneWayVocabulary, TWO_WORD } from "./tool-vocabulary";

/**
 * Extra synonyms for client-side tool search: each key is a word or a short phrase a model may
 * search with, each value the words or phrases your tools are described with that it should also
 * match (at a little less than the key's own weight). Added to the defaults, not in place of them.
 * @example
 * { "ship": ["deploy", "release"], "money back": ["refund"] }
 */
export type ToolSearchSynonyms = Readonly<Record<string, readonly string[]>>;

/** Compiled synonyms: a key's stemmed words joined by spaces → the stemmed words of each alternative. */
export type SynonymTable = ReadonlyMap<string, readonly (readonly string[])[]>;

/** The stemmed words of a key or an alternative (stop words kept in keys: `look for`). */
export function phraseKey(phrase: string): string {
  return plainWords(phrase).map(stem).join(" ");
}

/**
 * The stemmed words an alternative is matched with: its words but stop words, or, for a particle
 * phrase (`on call`, `look up`), the pair as tools' texts index it.
 */
function alternative(phrase: string): string[] {
  const words = plainWords(phrase);
  const pairs = words.length === 2 ? stopWordPairs(words) : [];
  if (pairs.length > 0 && words.some(isStopWord)) return pairs;
  return words.filter((word) => !isStopWord(word)).map(stem);
}

function addEntry(table: Map<string, string[][]>, key: string, values: readonly string[]): void {
  const compiled = phraseKey(key);
  if (compiled === "") return;
  const alternatives = table.get(compiled) ?? [];
  for (const value of values) {
    const words = alternative(value);
    if (words.length > 0 && words.join(" ") !== compiled) alternatives.push(words);
  }
  table.set(compiled, alternatives);
}

/** Splits a group line into its members: single words, except the two-word phrases listed. */
function groupMembers(group: string): string[] {
  const members: string[] = [];
  const words = group.split(" ");
  for (let i = 0; i < words.length; i++) {
    const pair = `${words[i]} ${words[i + 1]}`;
    if (TWO_WORD.has(pair)) {
      members.push(pair);
      i++;
    } else members.push(words[i]!);
  }
  return members;
}

/**
 * The default synonyms with `extra` added.
 * @throws TypeError when `extra` is not an object of string arrays (checked by the agent's options)
 */
export function synonymTable(extra?: ToolSearchSynonyms): SynonymTable {
  const table = new Map<string, string[][]>();
  for (const group of GROUPS) {
    const members = groupMembers(group);
    for (const member of members)
      addEntry(
        table,
        member,
        members.filter((other) => other !== member),
      );
  }
  for (const [key, values] of Object.entries(oneWayVocabulary())) addEntry(table, key, values);
  for (const [key, values] of Object.entries(extra ?? {})) addEntry(table, key, values);
  return table;
}

/** The longest key, in words. */
export function longestKey(table: SynonymTable): number {
  let longest = 1;
  for (const key of table.keys()) longest = Math.max(longest, key.split(" ").length);
  return longest;
}
