/**
 * Glob patterns over `/`-separated relative paths: `*`, `?`, `[a-z]`, `[!a]`, `{a,b}` and `**`.
 * Wildcards match names starting with a dot too. Matching is case-sensitive.
 * @module
 */
import { expandBraces, GlobSyntaxError } from "./brace-expansion";

/** A compiled glob pattern. Every path given to it is relative, with `/` separators. */
export interface GlobMatcher {
  /** The pattern as given. */
  readonly pattern: string;
  /** Whether the path matches the whole pattern. */
  matches(relativePath: string): boolean;
  /** Whether some path strictly inside this directory could match (used to prune the walk). */
  mayMatchInside(relativeDirectory: string): boolean;
  /** Whether the pattern names this directory literally (`node_modules/x/*` names `node_modules`). */
  namesDirectory(relativeDirectory: string): boolean;
}

const GLOBSTAR = Symbol("globstar");

/**
 * One `/`-separated part of a pattern: `**`, or a name pattern. Name patterns are matched by
 * {@link matchesName}, in time linear in the name for each token — never with a backtracking
 * regular expression, where `*a*a*a*b` against a long name could take minutes.
 */
type Segment = typeof GLOBSTAR | NamePattern;

/** A name pattern: its tokens, and the name itself when it has no wildcard. */
interface NamePattern {
  tokens: Token[];
  literal: string | undefined;
}

const STAR = Symbol("star");

/** `*` (any run of characters), or a test for exactly one character (UTF-16 code unit). */
type Token = typeof STAR | ((character: string) => boolean);

/** Compiles a glob pattern. Throws {@link GlobSyntaxError} for a pattern that cannot match inside the folder. */
export function compileGlob(pattern: string): GlobMatcher {
  if (pattern.trim() === "") throw new GlobSyntaxError("The glob pattern is empty.");
  if (pattern.startsWith("/")) {
    throw new GlobSyntaxError(
      `Glob pattern "${pattern}" is absolute; patterns are relative to the searched folder.`,
    );
  }
  const alternatives = expandBraces(pattern).map(splitSegments);
  if (
    alternatives.some((segments) =>
      segments.some((segment) => segment !== GLOBSTAR && segment.literal === ".."),
    )
  ) {
    throw new GlobSyntaxError(
      `Glob pattern "${pattern}" contains ".."; choose the folder to search with path instead.`,
    );
  }
  return {
    pattern,
    matches: (relativePath) => {
      const parts = pathSegments(relativePath);
      return alternatives.some((segments) => matchesWhole(parts, segments));
    },
    mayMatchInside: (relativeDirectory) => {
      const parts = pathSegments(relativeDirectory);
      return alternatives.some((segments) => mayMatchBelow(parts, segments));
    },
    namesDirectory: (relativeDirectory) => {
      const parts = pathSegments(relativeDirectory);
      return alternatives.some((segments) => namesLiterally(parts, segments));
    },
  };
}

function pathSegments(relativePath: string): string[] {
  return relativePath.split("/").filter((part) => part !== "" && part !== ".");
}

function splitSegments(pattern: string): Segment[] {
  const segments = pathSegments(pattern).map(compileSegment);
  return segments.filter((segment, index) => !(segment === GLOBSTAR && segments[index - 1] === GLOBSTAR));
}

function compileSegment(segment: string): Segment {
  if (segment === "**") return GLOBSTAR;
  const tokens: Token[] = [];
  let literal: string | undefined = "";
  for (let index = 0; index < segment.length; index++) {
    const character = segment[index]!;
    if (character === "\\" && index + 1 < segment.length) {
      index++;
      tokens.push(exactly(segment[index]!));
      if (literal !== undefined) literal += segment[index];
    } else if (character === "*") {
      while (segment[index + 1] === "*") index++;
      tokens.push(STAR);
      literal = undefined;
    } else if (character === "?") {
      tokens.push(() => true);
      literal = undefined;
    } else if (character === "[" && findClassEnd(segment, index) !== -1) {
      const end = findClassEnd(segment, index);
      tokens.push(compileClass(segment, segment.slice(index + 1, end)));
      literal = undefined;
      index = end;
    } else {
      tokens.push(exactly(character));
      if (literal !== undefined) literal += character;
    }
  }
  return { tokens, literal };
}

function exactly(expected: string): Token {
  return (character) => character === expected;
}

/** Index of the `]` closing the class opened at `open`, or -1. A `]` right after `[` or `[!` is literal. */
function findClassEnd(segment: string, open: number): number {
  let index = open + 1;
  if (segment[index] === "!" || segment[index] === "^") index++;
  if (segment[index] === "]") index++;
  for (; index < segment.length; index++) {
    if (segment[index] === "\\") index++;
    else if (segment[index] === "]") return index;
  }
  return -1;
}

/** A class body (`a-z_`, `!.`): characters and ranges, `\\` escaping one character, `!` or `^` negating. */
function compileClass(segment: string, body: string): Token {
  const ranges: Array<[string, string]> = [];
  let index = 0;
  const negated = body[0] === "!" || body[0] === "^";
  if (negated) index = 1;
  const next = (): string => {
    if (body[index] === "\\" && index + 1 < body.length) index++;
    return body[index++]!;
  };
  while (index < body.length) {
    const from = next();
    if (body[index] === "-" && index + 1 < body.length) {
      index++;
      const to = next();
      if (from > to) {
        throw new GlobSyntaxError(
          `Glob segment "${segment}" is invalid: the range ${from}-${to} is out of order.`,
        );
      }
      ranges.push([from, to]);
    } else {
      ranges.push([from, from]);
    }
  }
  return (character) => ranges.some(([from, to]) => character >= from && character <= to) !== negated;
}

/**
 * Whether `name` matches the tokens. Greedy, and on a mismatch it retries only from the last `*`
 * (one character further): every token tests one character, so earlier stars never need to be
 * revisited, and the work is at most name length × token count.
 */
function matchesName(pattern: NamePattern, name: string): boolean {
  if (pattern.literal !== undefined) return pattern.literal === name;
  const { tokens } = pattern;
  let position = 0;
  let tokenIndex = 0;
  let starToken = -1;
  let starPosition = 0;
  while (position < name.length) {
    const token = tokens[tokenIndex];
    if (token === STAR) {
      starToken = tokenIndex++;
      starPosition = position;
    } else if (token?.(name[position]!)) {
      tokenIndex++;
      position++;
    } else if (starToken !== -1) {
      tokenIndex = starToken + 1;
      position = ++starPosition;
    } else {
      return false;
    }
  }
  while (tokens[tokenIndex] === STAR) tokenIndex++;
  return tokenIndex === tokens.length;
}

function matchesWhole(parts: string[], segments: Segment[]): boolean {
  const failed = new Set<number>();
  const matchFrom = (partIndex: number, segmentIndex: number): boolean => {
    const key = partIndex * (segments.length + 1) + segmentIndex;
    if (failed.has(key)) return false;
    const matched = matchStep(partIndex, segmentIndex);
    if (!matched) failed.add(key);
    return matched;
  };
  const matchStep = (partIndex: number, segmentIndex: number): boolean => {
    if (segmentIndex === segments.length) return partIndex === parts.length;
    const segment = segments[segmentIndex]!;
    if (segment === GLOBSTAR) {
      for (let next = partIndex; next <= parts.length; next++) {
        if (matchFrom(next, segmentIndex + 1)) return true;
      }
      return false;
    }
    return (
      partIndex < parts.length &&
      matchesName(segment, parts[partIndex]!) &&
      matchFrom(partIndex + 1, segmentIndex + 1)
    );
  };
  return matchFrom(0, 0);
}

function mayMatchBelow(directory: string[], segments: Segment[]): boolean {
  for (let index = 0; index < directory.length; index++) {
    const segment = segments[index];
    if (segment === undefined) return false;
    if (segment === GLOBSTAR) return true;
    if (!matchesName(segment, directory[index]!)) return false;
  }
  return segments.length > directory.length;
}

function namesLiterally(directory: string[], segments: Segment[]): boolean {
  if (directory.length === 0 || segments.length <= directory.length) return false;
  return directory.every((name, index) => {
    const segment = segments[index]!;
    if (segment === GLOBSTAR || !matchesName(segment, name)) return false;
    return index < directory.length - 1 || segment.literal === name;
  });
}
