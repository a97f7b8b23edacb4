/**
 * Command-line options parsed strictly with `node:util` `parseArgs`, for the subcommands (`eval`,
 * `studio`; the command's own options are read by `args.ts` with the same error sentences):
 * unknown options and missing values are refused with parseArgs's own first sentence (its hints
 * dropped), and an option given an empty value is refused by name.
 * @module
 */
import { type ParseArgsConfig, parseArgs } from "node:util";

/** What the options of one command are: `parseArgs`'s `options`. */
export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

/**
 * Parses `argv` against `spec`; positionals only when `allowPositionals`.
 * @throws Error with a one-line message for an unknown option, a missing or empty value, or an
 *   unexpected positional
 */
export function parseOptionsStrictly<const S extends OptionSpec>(
  argv: readonly string[],
  spec: S,
  allowPositionals: boolean,
) {
  let parsed: ReturnType<typeof parseArgs<{ options: S; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: spec, allowPositionals, strict: true });
  } catch (error) {
    throw new Error(firstSentence(error));
  }
  for (const [name, value] of Object.entries(parsed.values)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((one) => one === "")) throw new Error(`--${name} needs a value.`);
  }
  return parsed;
}

/** parseArgs explains unknown options and missing values well: its first sentence, without its hints. */
export function firstSentence(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split("\n")[0]!.split(". To specify a positional argument")[0]!;
  return firstLine.replace(/\.$/, "");
}
