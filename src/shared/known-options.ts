/**
 * Refusing option names a factory does not know: a misspelt option (`bashSandbx: true`) would
 * otherwise do nothing, silently. The error names the closest known option.
 * @module
 */
import { InvalidOptionError } from "../errors";

/**
 * Levenshtein distance between `a` and `b` (insertions, deletions, substitutions; case counts as
 * a difference of one), in O(|a|·|b|) time and O(|b|) memory.
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The known name closest to `name` (ties: the first listed), case-insensitively. */
export function closestName(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/**
 * Throws when `options` has an own key that `known` does not list, naming the closest known one.
 * Not an object: nothing to check (the factory's own checks say what is wrong).
 * @throws InvalidOptionError
 */
export function assertKnownOptions(factory: string, options: unknown, known: readonly string[]): void {
  if (typeof options !== "object" || options === null) return;
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const closest = closestName(name, known);
    const hint = closest === undefined ? "" : ` — did you mean \`${closest}\`?`;
    throw new InvalidOptionError(`${factory}: unknown option \`${name}\`${hint}`);
  }
}
