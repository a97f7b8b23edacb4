/**
 * `createAgent`'s checks of numeric options, over the one option-checker module
 * (`shared/option-checks.ts`): each returns the value (or undefined when unset) or throws an
 * {@link InvalidOptionError} naming the option; and the check of `pricing`.
 * @module
 */
import type { ModelPricing } from "../cost/pricing";
import { InvalidOptionError } from "../errors";
import {
  nonNegativeInteger as checkNonNegative,
  positiveInteger as checkPositive,
  type OptionLabel,
  timerMilliseconds,
} from "../shared/option-checks";

/** How `createAgent` names an option: in backticks, the value shown as JSON, any integer taken. */
function agentOption(name: string): OptionLabel {
  return { option: `\`${name}\``, integers: "any" };
}

/** Validates an optional positive integer option. */
export function positiveInteger(name: string, value: number | undefined): number | undefined {
  return value === undefined ? undefined : checkPositive(value, agentOption(name));
}

/** Validates an optional non-negative integer option. */
export function nonNegativeInteger(name: string, value: number | undefined): number | undefined {
  return value === undefined ? undefined : checkNonNegative(value, agentOption(name));
}

/**
 * Validates an optional positive duration in milliseconds. It goes to a timer, so it is also at
 * most `MAX_TIMER_MS`: a larger one would fire at once.
 */
export function positiveMilliseconds(name: string, value: number | undefined): number | undefined {
  return value === undefined
    ? undefined
    : timerMilliseconds(checkPositive(value, agentOption(name)), agentOption(name));
}

/** Validates an optional non-negative duration in milliseconds; see {@link positiveMilliseconds}. */
export function nonNegativeMilliseconds(name: string, value: number | undefined): number | undefined {
  return value === undefined
    ? undefined
    : timerMilliseconds(checkNonNegative(value, agentOption(name)), agentOption(name));
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
