/**
 * How an expected tool input is compared with the actual one: `exact` (deep equality, key order
 * ignored), `partial` (every field the expectation gives must be there and match, recursively; extra
 * fields are fine; arrays compare item by item with the same rule and must have the same length),
 * or a function of the caller's.
 * @module
 */

/** The comparison of an expected input with an actual one. */
export type ArgsMatch = "exact" | "partial" | ((expected: unknown, actual: unknown) => boolean);

/** Whether `actual` matches `expected` under `rule`; an absent expectation matches any input. */
export function inputMatches(expected: unknown, actual: unknown, rule: ArgsMatch): boolean {
  if (expected === undefined) return true;
  if (typeof rule === "function") return rule(expected, actual);
  return deepMatch(expected, actual, rule === "partial");
}

function deepMatch(expected: unknown, actual: unknown, partial: boolean): boolean {
  if (Object.is(expected, actual)) return true;
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      expected.length === actual.length &&
      expected.every((item, index) => deepMatch(item, actual[index], partial))
    );
  if (typeof expected === "object" && expected !== null) {
    if (typeof actual !== "object" || actual === null || Array.isArray(actual)) return false;
    const expectedKeys = Object.keys(expected).filter(
      (key) => (expected as Record<string, unknown>)[key] !== undefined,
    );
    const actualKeys = Object.keys(actual).filter(
      (key) => (actual as Record<string, unknown>)[key] !== undefined,
    );
    if (!partial && expectedKeys.length !== actualKeys.length) return false;
    return expectedKeys.every((key) =>
      deepMatch(
        (expected as Record<string, unknown>)[key],
        (actual as Record<string, unknown>)[key],
        partial,
      ),
    );
  }
  return false;
}
