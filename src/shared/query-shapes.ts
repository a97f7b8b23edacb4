/**
 * Entity shapes in a tool-search query: things a model pastes into a search that are not words a
 * tool is described with, but say which kind of tool is meant — a `#channel`, an `ABC-123` issue
 * key, an email address, a phone number, an amount of money, a `20% off`, a date in the future or
 * the past, a duration, a file path, a version tag. Each shape stands for the words tools that take
 * such a value are described or have input fields with (`#eng` → channel, `PROJ-7` → issue,
 * ticket), matched at a lower weight than the query's own words. Detected on the text as written,
 * before it is cut into words, and kept small: shapes that are common across APIs, never the words
 * of one catalog.
 * @module
 */
import { CLEAR, SHAPE_RULES } from "./query-shape-rules";
import { isStopWord, plainWords, stem } from "./search-words";

/** One detected shape: the alternatives it stands for (stemmed words; the best one counts). */
export interface QueryShape {
  /** Its name, for tests and explanations: `channel`, `issue-key`, `email`… */
  kind: string;
  alternatives: readonly (readonly string[])[];
  /** How much a match of its words counts against a query word's own. */
  weight: number;
}

/** Whether a shape says plainly what its value is (`#42`, `PROJ-7`), rather than hints. */
export function isClear(shape: QueryShape): boolean {
  return shape.weight >= CLEAR;
}

/** Each phrase's stemmed words. */
const compile = (phrases: readonly string[]) =>
  phrases.map((phrase) =>
    plainWords(phrase)
      .filter((word) => !isStopWord(word))
      .map(stem),
  );

/** A shape's alternatives compiled once; a global copy of a consuming pattern. */
const COMPILED = SHAPE_RULES.map((rule) => {
  const weight = rule.weight ?? CLEAR;
  const consumes = rule.consumes ?? weight === CLEAR;
  const alternatives = compile(rule.means);
  return {
    kind: rule.kind,
    pattern: rule.pattern,
    weight,
    everywhere: consumes ? new RegExp(rule.pattern.source, `${rule.pattern.flags}g`) : undefined,
    alternatives,
    asked: rule.asked ? compile(rule.asked) : alternatives,
  };
});

/** What {@link readShapes} finds in a query. */
export interface ReadShapes {
  /** The shapes found, each once, in the order of the rules. */
  shapes: QueryShape[];
  /** The query with the values the shapes stand for blanked out: the words left to search with. */
  rest: string;
}

/**
 * The shapes found in `query`, and what is left of it once their values are taken out; `question`
 * when the query asks rather than tells (a date in it is then what is asked about).
 */
export function readShapes(query: string, question = false): ReadShapes {
  const shapes: QueryShape[] = [];
  let rest = query;
  for (const { kind, pattern, alternatives, asked, weight, everywhere } of COMPILED) {
    if (!pattern.test(rest)) continue;
    shapes.push({ kind, alternatives: question ? asked : alternatives, weight });
    if (everywhere) rest = rest.replace(everywhere, (value) => " ".repeat(value.length));
  }
  return { shapes, rest };
}

/** The shapes found in `query`, each once, in the order of the rules. */
export function queryShapes(query: string): QueryShape[] {
  return readShapes(query).shapes;
}
