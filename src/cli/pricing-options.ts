/**
 * Prices from the command line: `--price <input>,<output>[,<cache-read>[,<cache-write>]]` for the
 * model of the run, `--pricing <file.json>` for any number of models, both in USD per million
 * tokens and merged over the built-in table. With `--budget`, the model must have a price: a
 * budget over costs counted as $0 would never stop anything.
 * @module
 */
import { readFile } from "node:fs/promises";
import { z } from "zod";
import { DEFAULT_PRICING, findPricing, type ModelPricing } from "../cost/pricing";
import type { CliOptions } from "./args";
import { UsageError } from "./usage-error";

/** A finite, non-negative number of USD per million tokens. */
const rate = z.number().nonnegative();

const band = {
  inputPerMTok: rate,
  outputPerMTok: rate,
  cacheWritePerMTok: rate.optional(),
  cacheReadPerMTok: rate.optional(),
};

/** One model's entry in a `--pricing` file: the shape of `AgentOptions.pricing`, unknown keys refused. */
const modelPricingSchema = z.strictObject({
  ...band,
  longPrompt: z.strictObject({ aboveInputTokens: z.number().int().nonnegative(), ...band }).optional(),
});

const pricingFileSchema = z.record(z.string().min(1), modelPricingSchema);

/**
 * Parses `--price`: two to four comma-separated numbers, USD per million tokens — input, output,
 * then optionally cache read and cache write (`$` signs allowed).
 * @throws {UsageError} for anything else.
 */
export function parsePriceOption(value: string | undefined): ModelPricing | undefined {
  if (value === undefined) return undefined;
  const parts = value.split(",").map((part) => part.trim().replace(/^\$/, ""));
  const numbers = parts.map((part) => (part === "" ? Number.NaN : Number(part)));
  if (parts.length < 2 || parts.length > 4 || numbers.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new UsageError(
      `--price takes <input>,<output>[,<cache-read>[,<cache-write>]] in USD per million tokens, got "${value}"`,
    );
  }
  const [inputPerMTok, outputPerMTok, cacheReadPerMTok, cacheWritePerMTok] = numbers as [
    number,
    number,
    number?,
    number?,
  ];
  return {
    inputPerMTok,
    outputPerMTok,
    ...(cacheReadPerMTok !== undefined ? { cacheReadPerMTok } : {}),
    ...(cacheWritePerMTok !== undefined ? { cacheWritePerMTok } : {}),
  };
}

/**
 * Reads a `--pricing` file: a JSON object from model id to `{ inputPerMTok, outputPerMTok,
 * cacheWritePerMTok?, cacheReadPerMTok?, longPrompt? }`.
 * @throws {UsageError} when the file cannot be read, is not JSON, or holds anything else.
 */
export async function loadPricingFile(file: string): Promise<Record<string, ModelPricing>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(
      `--pricing: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--pricing: ${file} is not valid JSON (${(error as Error).message})`);
  }
  const parsed = pricingFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.join(".") : "(the whole file)";
    throw new UsageError(
      `--pricing: ${file}: ${where}: ${issue.message} (expected { "<model>": { "inputPerMTok": <usd>, "outputPerMTok": <usd> } })`,
    );
  }
  return parsed.data;
}

/**
 * The prices given on the command line, `--pricing` first and `--price` (for `--model`) over it;
 * `undefined` when neither was given.
 * @throws {UsageError} when the file is unusable, or `--budget` is set for a model without a price.
 */
export async function resolveCliPricing(
  options: Pick<CliOptions, "model" | "price" | "pricingPath" | "budgetUsd">,
): Promise<Record<string, ModelPricing> | undefined> {
  const price = parsePriceOption(options.price);
  const fromFile = options.pricingPath ? await loadPricingFile(options.pricingPath) : undefined;
  const pricing =
    fromFile || price ? { ...fromFile, ...(price ? { [options.model]: price } : {}) } : undefined;
  if (options.budgetUsd !== undefined) assertPriced(options.model, pricing);
  return pricing;
}

/** Whether `model` has a price in the built-in table or in `pricing`. */
export function hasPrice(model: string, pricing: Record<string, ModelPricing> | undefined): boolean {
  return findPricing(model, pricing ? { ...DEFAULT_PRICING, ...pricing } : DEFAULT_PRICING) !== undefined;
}

/** The sentence telling how to price a model from the command line. */
export function howToPrice(model: string): string {
  return `give it one with --price <input>,<output> (USD per million tokens) or a --pricing file with a "${model}" entry`;
}

/**
 * @throws {UsageError} when `model` has no price: with `--budget`, its cost would count as $0 and
 * the budget would never stop the run.
 */
export function assertPriced(model: string, pricing: Record<string, ModelPricing> | undefined): void {
  if (hasPrice(model, pricing)) return;
  throw new UsageError(
    `--budget needs the price of "${model}", which the built-in price table does not have (its cost would count as $0 and the budget would never stop it): ${howToPrice(model)}`,
  );
}
