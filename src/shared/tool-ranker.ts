/**
 * The ranking behind client-side `search_tools`: BM25 over each tool's name (split into words and
 * weighted), description and input-schema text, on whole stemmed words, with a synonym map for the
 * words models search with, and tools of a service the query names (a name prefix such as
 * `github_`, an MCP server's `mcp__<server>__`) ranked before the others; the query is read into
 * slots by query-slots.ts. Written here rather than
 * taken from a library: bench/tool-search-libraries.mjs measured MiniSearch and wink's BM25 against
 * it (bench/README.md, "Tool search"), and the root entry stays free of another dependency.
 * @module
 */
import { misspeltWords } from "./misspellings";
import { type QueryReader, type QuerySlot, readQuery } from "./query-slots";
import { plainWords, searchWords, stem } from "./search-words";
import { longestKey, synonymTable, type ToolSearchSynonyms } from "./tool-synonyms";

/** What a tool contributes to the index. */
export interface RankedTool {
  name: string;
  description?: string;
  /** The input's JSON Schema: its property names and descriptions are searched. */
  inputSchema: unknown;
}

/** One ranked tool. */
export interface ToolRank {
  name: string;
  score: number;
}

const K1 = 1.2;
const B = 0.75;
/** How much a word of the tool's name counts against one of its description. */
const NAME_WEIGHT = 2;
/** How much a word of the input schema's text counts. */
const SCHEMA_WEIGHT = 0.25;
/** How much a synonym's match counts against the query's own word. */
const SYNONYM_WEIGHT = 0.8;
/** Leading name words that are actions, not services (`get_weather` is not the `get` service). */
const VERBS = new Set(
  (
    "add archive assign buy cancel check close copy create delete describe disable download edit " +
    "enable explain export fetch find get import kill link list log lookup make mark merge move open " +
    "post put query read remove reply resolve respond run schedule search send set share show start " +
    "stop submit sync tag trigger update upload verify view write"
  )
    .split(" ")
    .map(stem),
);

/** How much the words of a message's subject count (query-slots.ts: "tell the team about the outage"). */
const SUBJECT_WEIGHT = 0.25;

/**
 * How much a state's participle counts for the tools whose action it names ("which tickets are
 * assigned to Kevin" lists or searches them; it assigns nothing).
 */
const STATE_WEIGHT = 0.3;

/** How much more a reading tool scores for a question (or a listing: see query-slots.ts). */
const QUESTION_BOOST = 1.3;
/** How much more a listing tool (`list_…`) scores when the query asks to see things in the plural. */
const LIST_BOOST = 1.2;
/**
 * How much a tool's share of the query's slots counts: its score × (slots matched / slots) ^ this,
 * so that a tool matching most of what is asked beats one matching a single word very well.
 */
const COORDINATION = 0.5;
/** Leading name words of tools that read, not change: a question favours them. */
const READ_VERBS = new Set(
  (
    "list get search read query describe find show lookup look check explain view fetch count " +
    "download export report browse inspect status"
  )
    .split(" ")
    .map(stem),
);

interface IndexedTool {
  name: string;
  /** Its service words (see {@link namespaceOf}). */
  namespace: readonly string[];
  /** Whether its name's action is one that reads (see {@link READ_VERBS}). */
  reads: boolean;
  /** Whether its name's action is `list`. */
  lists: boolean;
  /** Its name's action, stemmed (`assign` of `tracker_assign_issue`). */
  action: string;

  /** Its length, weighted: the BM25 length normalisation is worked out once the average is known. */
  length: number;
  /** K1 × (1 − B + B × length / average length). */
  norm: number;
}

/** Per-search working arrays, indexed by tool. */
interface Scratch {
  /** The BM25 of the words being scored. */
  sums: Float64Array;
  /** How many of the words being scored each tool has. */
  hits: Uint16Array;
  /** The slot's best score so far. */
  best: Float64Array;
  /** The tools with a non-zero sum. */
  touched: number[];
}

interface Ranked {
  tool: IndexedTool;
  score: number;
  named: boolean;
}

/** Ranks tools against a query. Build once per tool set; searching does not change it. */
export class ToolRanker {
  private readonly tools: IndexedTool[] = [];
  /** word → the tools that have it (indexes) and its weighted frequency in each */
  private readonly postings = new Map<string, Posting>();
  /** What reading a query needs: the synonyms, and whether a word is indexed. */
  private readonly reader: QueryReader;

  constructor(tools: readonly RankedTool[], synonyms?: ToolSearchSynonyms) {
    const table = synonymTable(synonyms);
    this.reader = {
      synonyms: table,
      longestKey: longestKey(table),
      indexed: (word) => this.postings.has(word),
      misspelt: (word, stemmed) => misspeltWords(word, stemmed, this.postings.keys(), this.reader.indexed),
    };
    const namespaces = sharedPrefixes(tools);
    const schemas = tools.map((tool) => searchWords(schemaText(tool.inputSchema)));
    const boilerplate = sharedWords(schemas);
    let total = 0;
    tools.forEach((tool, index) => {
      const weighted = new Map<string, number>();
      const add = (words: string[], weight: number) => {
        for (const word of words) weighted.set(word, (weighted.get(word) ?? 0) + weight);
      };
      add(searchWords(tool.name), NAME_WEIGHT);
      add(searchWords(tool.description ?? ""), 1);
      add(
        schemas[index]!.filter((word) => !boilerplate.has(word)),
        SCHEMA_WEIGHT,
      );
      // What every schema says alike counts for next to nothing, and not in the word's rarity.
      add(
        schemas[index]!.filter((word) => boilerplate.has(word)),
        BOILERPLATE_WEIGHT,
      );
      let length = 0;
      for (const [word, frequency] of weighted) {
        length += frequency;
        const own = frequency >= SCHEMA_WEIGHT ? 1 : 0;
        const posting = this.postings.get(word);
        if (posting) {
          posting.tools.push(index);
          posting.frequencies.push(frequency);
          posting.own += own;
        } else this.postings.set(word, { tools: [index], frequencies: [frequency], own });
      }
      const action = actionOf(tool.name, namespaces);
      this.tools.push({
        name: tool.name,
        namespace: [...namespaceOf(tool.name, namespaces)],
        reads: READ_VERBS.has(action),
        lists: action === "list",
        action,

        length,
        norm: 0,
      });
      total += length;
    });
    const averageLength = this.tools.length > 0 ? total / this.tools.length : 1;
    for (const indexed of this.tools) indexed.norm = K1 * (1 - B + (B * indexed.length) / averageLength);
  }

  /**
   * The best `limit` tools for `query`, best first; tools matching no word are left out. Tools of a
   * service the query names come before all others.
   */
  search(query: string, limit: number): ToolRank[] {
    const { slots, rest, reads, lists } = readQuery(query, this.reader);
    const count = this.tools.length;
    const scratch: Scratch = {
      sums: new Float64Array(count),
      hits: new Uint16Array(count),
      best: new Float64Array(count),
      touched: [],
    };
    const total = new Float64Array(count);
    const covered = new Uint16Array(count);
    const matched: number[] = [];
    let asked = 0;
    for (const slot of slots) {
      const inSlot: number[] = [];
      const scale = slot.subject ? SUBJECT_WEIGHT : 1;
      if (!slot.subject) asked++;
      this.scoreWords(slot.words, scale, scratch, inSlot);
      for (const synonym of slot.synonyms)
        this.scoreWords(synonym, scale * (slot.weight ?? SYNONYM_WEIGHT), scratch, inSlot);
      for (const index of inSlot) {
        if (slot.state && this.tools[index]!.action === slot.words[0]) scratch.best[index]! *= STATE_WEIGHT;
        if (total[index] === 0) matched.push(index);
        total[index]! += scratch.best[index]!;
        if (!slot.subject) covered[index]!++;
        scratch.best[index] = 0;
      }
    }
    const named = namedWords(rest, slots);
    const top: Ranked[] = [];
    for (const index of matched) {
      const tool = this.tools[index]!;
      let score = total[index]! * (covered[index]! / Math.max(asked, 1)) ** COORDINATION;
      if (reads && tool.reads) score *= QUESTION_BOOST;
      if (lists && tool.lists) score *= LIST_BOOST;
      insertRanked(top, { tool, score, named: tool.namespace.some((word) => named.has(word)) }, limit);
    }
    return top.map(({ tool, score }) => ({ name: tool.name, score }));
  }

  /**
   * Sets each tool's best in `scratch.best` to `weight` × the BM25 of `words` (summed, × the share
   * of them the tool has) where that is more; adds the tools first seen to `inSlot`.
   */
  private scoreWords(words: readonly string[], weight: number, scratch: Scratch, inSlot: number[]): void {
    const { sums, hits, best, touched } = scratch;
    for (const word of words) {
      const posting = this.postings.get(word);
      if (!posting) continue;
      const count = posting.tools.length;
      const idf = Math.log(1 + (this.tools.length - posting.own + 0.5) / (posting.own + 0.5));
      for (let i = 0; i < count; i++) {
        const index = posting.tools[i]!;
        const frequency = posting.frequencies[i]!;
        if (sums[index] === 0) touched.push(index);
        sums[index]! += (idf * frequency * (K1 + 1)) / (frequency + this.tools[index]!.norm);
        hits[index]!++;
      }
    }
    for (const index of touched) {
      // A phrase matched in part counts in proportion: `post message` is not all there in "Post an event".
      const score = (weight * sums[index]! * Math.min(hits[index]!, words.length)) / words.length;
      hits[index] = 0;
      if (best[index] === 0) inSlot.push(index);
      if (score > best[index]!) best[index] = score;
      sums[index] = 0;
    }
    touched.length = 0;
  }
}

/** A word's postings: the tools that have it, its weighted frequency in each, and how many have it in their own text. */
interface Posting {
  tools: number[];
  frequencies: number[];
  /** The tools that have it other than as schema text every tool has alike ({@link sharedWords}). */
  own: number;
}

/** Below this many tools no schema word is taken for boilerplate. */
const BOILERPLATE_MIN_TOOLS = 10;
/** The share of tools whose schemas must have a word for it to be boilerplate. */
const BOILERPLATE_SHARE = 0.8;
/** How much a boilerplate word of a schema counts: next to nothing, but the tool still has the word. */
const BOILERPLATE_WEIGHT = 0.001;

/**
 * The words nearly every tool's schema has alike (a server's `options` "of the call", `limit`,
 * "items in the answer"): they tell no tool apart, and where they count in a word's rarity they
 * make a word of a tool's own name count for nothing (`call` of `make_call` when every schema says
 * "the call").
 */
function sharedWords(schemas: readonly string[][]): ReadonlySet<string> {
  if (schemas.length < BOILERPLATE_MIN_TOOLS) return new Set();
  const counts = new Map<string, number>();
  for (const words of schemas)
    for (const word of new Set(words)) counts.set(word, (counts.get(word) ?? 0) + 1);
  return new Set(
    [...counts].filter(([, count]) => count >= schemas.length * BOILERPLATE_SHARE).map(([word]) => word),
  );
}

/** Puts `entry` in its place in `top` (best first), which keeps at most `limit` entries. */
function insertRanked(top: Ranked[], entry: Ranked, limit: number): void {
  if (limit < 1) return;
  if (top.length === limit && byRank(entry, top[limit - 1]!) >= 0) return;
  let at = top.length;
  while (at > 0 && byRank(entry, top[at - 1]!) < 0) at--;
  top.splice(at, 0, entry);
  if (top.length > limit) top.pop();
}

/** Tools of a named service first, then by score, then by name (code-unit order: no locale lookup). */
function byRank(a: Ranked, b: Ranked): number {
  if (a.named !== b.named) return a.named ? -1 : 1;
  if (a.score !== b.score) return b.score - a.score;
  return a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0;
}

/**
 * The words a query could name a service with: its words as written (unstemmed, camelCase kept
 * whole: `driver` does not name `drive`) outside the values its shapes took out (the `github` of
 * `noreply@github.com` names no service) and outside what it says rather than asks — a message's
 * subject or content, where a delivered thing comes from (query-slots.ts: "tell #support that
 * Zendesk is down" asks nothing of Zendesk) — and the one-word synonyms (stemmed) of what it asks.
 */
function namedWords(rest: string, slots: readonly QuerySlot[]): Set<string> {
  const asked = new Set(slots.filter((slot) => !slot.subject).flatMap((slot) => slot.words));
  const said = new Set(slots.filter((slot) => slot.subject).flatMap((slot) => slot.words));
  const onlySaid = (word: string) => {
    const stems = plainWords(word).map(stem);
    return stems.length > 0 && stems.every((each) => said.has(each) && !asked.has(each));
  };
  const named = new Set<string>();
  for (const word of rest.split(/[^A-Za-z0-9]+/)) if (word && !onlySaid(word)) named.add(word.toLowerCase());
  for (const slot of slots)
    if (!slot.subject) for (const synonym of slot.synonyms) if (synonym.length === 1) named.add(synonym[0]!);
  return named;
}

/** The first name segments (before `_`, `-` or `.`) that two or more tools share and that are not verbs. */
function sharedPrefixes(tools: readonly RankedTool[]): Set<string> {
  const counts = new Map<string, number>();
  for (const tool of tools) {
    const prefix = firstSegment(tool.name);
    if (prefix) counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return new Set(
    [...counts].filter(([prefix, count]) => count > 1 && !VERBS.has(stem(prefix))).map(([prefix]) => prefix),
  );
}

/** The stemmed first word of a tool's name after its service (`github_list_pulls` → `list`). */
function actionOf(name: string, shared: ReadonlySet<string>): string {
  let rest = name.replace(/^mcp__.+?__/, "");
  const prefix = firstSegment(rest);
  if (prefix !== undefined && shared.has(prefix)) rest = rest.slice(prefix.length + 1);
  return stem(plainWords(rest)[0] ?? "");
}

function firstSegment(name: string): string | undefined {
  return /^([A-Za-z0-9]+)[_.-]./.exec(name)?.[1]?.toLowerCase();
}

/**
 * A tool's service words, as written and stemmed: an MCP server's name (`mcp__<server>__…`, its
 * words and the whole), or a name prefix that other tools share.
 */
function namespaceOf(name: string, shared: ReadonlySet<string>): ReadonlySet<string> {
  const server = /^mcp__(.+?)__/.exec(name)?.[1]?.toLowerCase();
  const words =
    server !== undefined
      ? [...server.split(/[^a-z0-9]+/), server.replace(/[^a-z0-9]/g, "")]
      : [firstSegment(name)].filter((prefix) => prefix !== undefined && shared.has(prefix));
  const namespace = new Set<string>();
  for (const word of words) if (word) namespace.add(word).add(stem(word));
  return namespace;
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

/** What {@link rankTools} takes besides the tools and the query. */
export interface RankToolsOptions {
  /** At most this many tools. @default 5 */
  limit?: number;
  /** Synonyms added to the defaults, as `toolSearch: { synonyms }` takes them. */
  synonyms?: ToolSearchSynonyms;
}

/**
 * The tools client-side `search_tools` would load for `query`, best first, with their scores: to
 * check how your tools are found, and which synonyms help. Builds an index per call (the agent
 * keeps one per tool set); for many queries over the same tools, keep a {@link ToolRanker}.
 * @example
 * rankTools(tools, "money back for an order", { synonyms: { "money back": ["refund"] } })
 */
export function rankTools(
  tools: readonly RankedTool[],
  query: string,
  options: RankToolsOptions = {},
): ToolRank[] {
  return new ToolRanker(tools, options.synonyms).search(query, options.limit ?? 5);
}
