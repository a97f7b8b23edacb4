/**
 * Brace expansion for glob patterns: `src/{a,b}/*.ts` → `src/a/*.ts`, `src/b/*.ts`.
 * @module
 */

/** Thrown for a glob pattern that cannot be used; the message says why. */
export class GlobSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GlobSyntaxError";
  }
}

/** At most this many patterns may come out of one expansion. */
export const MAX_BRACE_EXPANSIONS = 256;

/**
 * Expands every `{a,b,…}` group (nested groups included) into separate patterns, in order.
 * A group without a comma, an unclosed `{`, and an escaped `\{` stay literal.
 */
export function expandBraces(pattern: string): string[] {
  const group = findFirstGroup(pattern);
  if (!group) return [pattern];
  const before = pattern.slice(0, group.open);
  const after = pattern.slice(group.close + 1);
  const expanded: string[] = [];
  for (const alternative of group.alternatives) {
    for (const result of expandBraces(before + alternative + after)) {
      expanded.push(result);
      if (expanded.length > MAX_BRACE_EXPANSIONS) {
        throw new GlobSyntaxError(
          `Pattern expands to more than ${MAX_BRACE_EXPANSIONS} alternatives; simplify its {…} groups.`,
        );
      }
    }
  }
  return expanded;
}

interface BraceGroup {
  open: number;
  close: number;
  alternatives: string[];
}

/** The first `{…}` group holding a top-level comma, with its alternatives split. */
function findFirstGroup(pattern: string): BraceGroup | undefined {
  for (let open = 0; open < pattern.length; open++) {
    const character = pattern[open];
    if (character === "\\") {
      open++;
      continue;
    }
    if (character !== "{") continue;
    const group = readGroup(pattern, open);
    if (group) return group;
  }
  return undefined;
}

function readGroup(pattern: string, open: number): BraceGroup | undefined {
  let depth = 0;
  const commas: number[] = [];
  for (let index = open + 1; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === "\\") {
      index++;
    } else if (character === "{") {
      depth++;
    } else if (character === "}") {
      if (depth === 0) {
        if (commas.length === 0) return undefined;
        const bounds = [open, ...commas, index];
        const alternatives = bounds
          .slice(1)
          .map((end, position) => pattern.slice(bounds[position]! + 1, end));
        return { open, close: index, alternatives };
      }
      depth--;
    } else if (character === "," && depth === 0) {
      commas.push(index);
    }
  }
  return undefined;
}
