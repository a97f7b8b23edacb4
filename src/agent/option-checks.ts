/**
 * The checks of numeric options: each returns the value (or undefined when unset) or throws an
 * {@link InvalidOptionError} naming the option.
 * @module
 */
import type { ModelPricing } from "../cost/pricing";
import { InvalidOptionError } from "../errors";
import { MAX_TIMER_MS } from "../shared/signals";

/** Validates an optional positive integer option. */
export function positiveInteger(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value <= 0) {
    throw new InvalidOptionError(`\`${name}\` must be a positive integer, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/** Validates an optional non-negative integer option. */
export function nonNegativeInteger(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) {
    throw new InvalidOptionError(`\`${name}\` must be a non-negative integer, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/**
 * Validates an optional positive duration in milliseconds. It goes to a timer, so it is also at
 * most {@link MAX_TIMER_MS}: a larger one would fire at once.
 */
export function positiveMilliseconds(name: string, value: number | undefined): number | undefined {
  return withinTimerRange(name, positiveInteger(name, value));
}

/** Validates an optional non-negative duration in milliseconds; see {@link positiveMilliseconds}. */
export function nonNegativeMilliseconds(name: string, value: number | undefined): number | undefined {
  return withinTimerRange(name, nonNegativeInteger(name, value));
}

function withinTimerRange(name: string, value: number | undefined): number | undefined {
  if (value !== undefined && value > MAX_TIMER_MS) {
    throw new InvalidOptionError(
      `\`${name}\` must be at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest a timer can wait), got ${value}.`,
    );
  }
  return value;
}

/** Every price must be a finite non-negative number: a NaN cost would never cross a budget. */
export function validatedPricing(pricing: Record<string, ModelPricing>): Record<string, ModelPricing> {
  for (const [model, price] of Object.entries(pricing)) {
    const bands: Array<[string, Record<string, unknown> | undefined]> = [
      [model, price as Record<string, unknown>],
      [`${model}.longPrompt`, price?.longPrompt as Record<string, unknown> | undefined],
    ];
    for (const [where, band] of bands) {
      if (band === undefined && where !== model) continue;
      for (const field of ["inputPerMTok", "outputPerMTok", "cacheWritePerMTok", "cacheReadPerMTok"]) {
        const value = band?.[field];
        const required = field === "inputPerMTok" || field === "outputPerMTok";
        if (value === undefined && !required) continue;
        if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
          throw new InvalidOptionError(
            `\`pricing["${where}"].${field}\` must be a finite non-negative number of USD per million tokens.`,
          );
        }
      }
    }
  }
  return pricing;
}
