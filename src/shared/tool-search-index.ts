/**
 * A small BM25 index over tools: each tool is a document of its name (split into words), its
 * description, and the property names and descriptions of its input schema. The mock server's
 * stand-in for a provider's own tool search (plain BM25, as the API describes its search tool);
 * the agent's client-side `search_tools` ranks with the richer `tool-ranker.ts`.
 * @module
 */
/** What a tool contributes to the index. */
export interface SearchableTool {
  name: string;
  description?: string;
  /** The input's JSON Schema: its property names and descriptions are searched. */
  inputSchema: unknown;
}

/** One ranked tool. */
export interface ToolSearchHit {
  name: string;
  score: number;
}

/** BM25 term-frequency saturation. */
const K1 = 1.2;
/** BM25 length normalisation. */
const B = 0.75;
/** How many times a tool's name counts (weighting it more ranked worse on bench/tool-search.mjs's queries). */
const NAME_WEIGHT = 1;
/** A query word that begins a longer indexed word (`repo` → `repository`) counts this much. */
const PREFIX_WEIGHT = 0.5;
const MIN_PREFIX_LENGTH = 3;
const STOP_WORDS = new Set(
  "a an and are as at be by for from in into is it of on or the this to with that which your you".split(" "),
);

/** Lowercase word stems of `text`: split at non-alphanumerics, camelCase and snake_case boundaries. */
export function searchTerms(text: string): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  const terms: string[] = [];
  for (const word of words) if (word && !STOP_WORDS.has(word)) terms.push(stem(word));
  return terms;
}

/** A light suffix stripper: plurals, `-ing`, `-ed`. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith("ing")) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith("ed")) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The text of a schema's property names and descriptions, a few levels deep. */
function schemaText(schema: unknown, depth = 0): string {
  if (depth > 3 || typeof schema !== "object" || schema === null) return "";
  const parts: string[] = [];
  const { description, properties, items } = schema as Record<string, unknown>;
  if (typeof description === "string") parts.push(description);
  if (typeof properties === "object" && properties !== null)
    for (const [name, property] of Object.entries(properties))
      parts.push(name, schemaText(property, depth + 1));
  if (items) parts.push(schemaText(items, depth + 1));
  return parts.join(" ");
}

/** Ranks tools against a query with BM25. Build once per tool set. */
export class ToolSearchIndex {
  private readonly documents: Array<{ name: string; terms: Map<string, number>; length: number }> = [];
  private readonly documentFrequency = new Map<string, number>();
  private readonly averageLength: number;

  constructor(tools: readonly SearchableTool[]) {
    let total = 0;
    for (const tool of tools) {
      const nameTerms = searchTerms(tool.name);
      const all = [
        ...Array.from({ length: NAME_WEIGHT }, () => nameTerms).flat(),
        ...searchTerms(tool.description ?? ""),
        ...searchTerms(schemaText(tool.inputSchema)),
      ];
      const terms = new Map<string, number>();
      for (const term of all) terms.set(term, (terms.get(term) ?? 0) + 1);
      for (const term of terms.keys())
        this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      this.documents.push({ name: tool.name, terms, length: all.length });
      total += all.length;
    }
    this.averageLength = this.documents.length > 0 ? total / this.documents.length : 1;
  }

  /**
   * The best `limit` tools for `query`, best first; tools matching no term are left out. A query
   * word also matches the longer words it begins, at half weight.
   */
  search(query: string, limit: number): ToolSearchHit[] {
    const queryTerms = [...new Set(searchTerms(query))];
    const hits: ToolSearchHit[] = [];
    for (const document of this.documents) {
      let score = 0;
      for (const term of queryTerms) {
        const frequency = document.terms.get(term);
        if (frequency) score += this.termScore(term, frequency, document.length);
        if (term.length < MIN_PREFIX_LENGTH) continue;
        for (const [indexed, count] of document.terms)
          if (indexed !== term && indexed.startsWith(term))
            score += PREFIX_WEIGHT * this.termScore(indexed, count, document.length);
      }
      if (score > 0) hits.push({ name: document.name, score });
    }
    hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
    return hits.slice(0, limit);
  }

  /** BM25 of one term in one document. */
  private termScore(term: string, frequency: number, length: number): number {
    const containing = this.documentFrequency.get(term) ?? 0;
    const idf = Math.log(1 + (this.documents.length - containing + 0.5) / (containing + 0.5));
    const norm = K1 * (1 - B + (B * length) / this.averageLength);
    return (idf * frequency * (K1 + 1)) / (frequency + norm);
  }
}
