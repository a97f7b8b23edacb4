/**
 * Glob patterns over `/`-separated relative paths: `*`, `?`, `[a-z]`, `[!a]`, `{a,b}` and `**`.
 * Wildcards match names starting with a dot too. Matching is case-sensitive.
 * @module
 */
import { expandBraces, GlobSyntaxError } from "./brace-expansion";

export { GlobSyntaxError } from "./brace-expansion";

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

/** One `/`-separated part of a pattern. */
type Segment = typeof GLOBSTAR | { regex: RegExp; literal: string | undefined };

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
  let source = "";
  let literal: string | undefined = "";
  for (let index = 0; index < segment.length; index++) {
    const character = segment[index]!;
    if (character === "\\" && index + 1 < segment.length) {
      index++;
      source += escapeRegExp(segment[index]!);
      if (literal !== undefined) literal += segment[index];
    } else if (character === "*") {
      while (segment[index + 1] === "*") index++;
      source += ".*";
      literal = undefined;
    } else if (character === "?") {
      source += ".";
      literal = undefined;
    } else if (character === "[" && findClassEnd(segment, index) !== -1) {
      const end = findClassEnd(segment, index);
      source += compileClass(segment.slice(index + 1, end));
      literal = undefined;
      index = end;
    } else {
      source += escapeRegExp(character);
      if (literal !== undefined) literal += character;
    }
  }
  try {
    return { regex: new RegExp(`^${source}$`, "s"), literal };
  } catch (error) {
    throw new GlobSyntaxError(`Glob segment "${segment}" is invalid: ${(error as Error).message}`);
  }
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

function compileClass(body: string): string {
  let source = "[";
  let index = 0;
  if (body[0] === "!" || body[0] === "^") {
    source += "^";
    index = 1;
  }
  for (; index < body.length; index++) {
    const character = body[index]!;
    if (character === "\\" && index + 1 < body.length) {
      index++;
      source += `\\${body[index]}`;
    } else if (character === "-") {
      source += "-";
    } else {
      source += character.replace(/[\\\]^[]/g, "\\$&");
    }
  }
  return `${source}]`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
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
      segment.regex.test(parts[partIndex]!) &&
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
    if (!segment.regex.test(directory[index]!)) return false;
  }
  return segments.length > directory.length;
}

function namesLiterally(directory: string[], segments: Segment[]): boolean {
  if (directory.length === 0 || segments.length <= directory.length) return false;
  return directory.every((name, index) => {
    const segment = segments[index]!;
    if (segment === GLOBSTAR || !segment.regex.test(name)) return false;
    return index < directory.length - 1 || segment.literal === name;
  });
}
