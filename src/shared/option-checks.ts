/**
 * The checks of numeric options, for every factory (`createAgent`, `createWorkspaceTools`,
 * `createMemoryTool`, `createAgentQueue`, `createAgentWorker` …): each returns the value or throws an
 * {@link InvalidOptionError} naming the option the way its factory's messages always have.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { MAX_TIMER_MS } from "./signals";

/** How a check names its option and shows a refused value. */
export interface OptionLabel {
  /** The option as the message names it, quoting included: "`maxTurns`", "maxFileBytes". */
  readonly option: string;
  /** The factory the message starts with (`"createAgentWorker"` → "createAgentWorker: …"), if any. */
  readonly factory?: string;
  /** How the refused value follows ", got": as JSON (the default), as `String(value)`, or not at all. */
  readonly show?: "json" | "text" | "none";
  /** Words after "integer", such as " (bytes)". */
  readonly unit?: string;
  /**
   * Which integers pass: safe ones only (the default: at most 2^53 − 1, exact as numbers), or any
   * (`createAgent`'s and `createMemoryTool`'s counts always took them).
   */
  readonly integers?: "safe" | "any";
}

/**
 * `value` when it is an integer of at least 1.
 * @throws {InvalidOptionError} "… must be a positive integer, got …"
 */
export function positiveInteger(value: unknown, label: OptionLabel): number {
  return integerOfAtLeast(1, value, label);
}

/**
 * `value` when it is an integer of at least 0.
 * @throws {InvalidOptionError} "… must be a non-negative integer, got …"
 */
export function nonNegativeInteger(value: unknown, label: OptionLabel): number {
  return integerOfAtLeast(0, value, label);
}

/**
 * `value` when a timer can wait that long: at most {@link MAX_TIMER_MS} (a longer delay fires at once).
 * @throws {InvalidOptionError} "… must be at most 2147483647 ms (about 24.8 days …), got …"
 */
export function timerMilliseconds(value: number, label: OptionLabel): number {
  if (value > MAX_TIMER_MS)
    throw new InvalidOptionError(
      `${named(label)} must be at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer can wait), got ${value}.`,
    );
  return value;
}

function integerOfAtLeast(least: 0 | 1, value: unknown, label: OptionLabel): number {
  const integer = label.integers === "any" ? Number.isInteger(value) : Number.isSafeInteger(value);
  if (typeof value === "number" && integer && value >= least) return value;
  const kind = least === 1 ? "positive" : "non-negative";
  throw new InvalidOptionError(
    `${named(label)} must be a ${kind} integer${label.unit ?? ""}${got(value, label)}.`,
  );
}

function named(label: OptionLabel): string {
  return label.factory === undefined ? label.option : `${label.factory}: ${label.option}`;
}

function got(value: unknown, label: OptionLabel): string {
  if (label.show === "none") return "";
  return `, got ${label.show === "text" ? String(value) : JSON.stringify(value)}`;
}
