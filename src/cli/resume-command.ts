/**
 * The command that resumes a paused run: the run's own options, repeated — `--tools`,
 * `--ask-before-writes`, `--base-url`, `--model`, `--session` … — with `--approve` / `--deny` for the
 * pending calls. Without them the resumed run would not have the paused call's tool (or its
 * endpoint, or its rules). Credentials in a value are removed by the output's redaction, as
 * everywhere else; put such a base URL in `ANTHROPIC_BASE_URL` instead.
 * @module
 */
import { parseArgs } from "node:util";
import { OPTION_SPEC } from "./args";
import { shellWord } from "./shell-word";

/** Options that belong to one run only and are never repeated in the resume command. */
const NOT_REPEATED = new Set(["approve", "deny", "demo", "offline", "help", "version"]);

/**
 * The options of `argv` (the command line without `node` and the script) to repeat when resuming:
 * each as `--name` or `--name value`, shell-quoted, in their order; the prompt is dropped.
 */
export function resumeFlagsOf(argv: readonly string[]): string[] {
  let tokens: ReturnType<typeof parseArgs>["tokens"];
  try {
    ({ tokens } = parseArgs({
      args: [...argv],
      options: OPTION_SPEC,
      allowPositionals: true,
      strict: false,
      tokens: true,
    }));
  } catch {
    return [];
  }
  const flags: string[] = [];
  for (const token of tokens ?? []) {
    if (token.kind !== "option" || NOT_REPEATED.has(token.name)) continue;
    flags.push(token.value === undefined ? `--${token.name}` : `--${token.name} ${shellWord(token.value)}`);
  }
  return flags;
}
