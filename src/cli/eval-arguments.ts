/**
 * The arguments of `agent-lattice eval`.
 * @module
 */
import { parseOptionsStrictly } from "./parse-options";

/** The eval command's help. */
export const EVAL_USAGE = `Usage: agent-lattice eval [files or folders…] [--record | --replay | --live] [options]

Runs evals: each file is a module whose default export is a defineEval(…) definition or an array
of them (.js, .mjs, .cjs; .ts/.mts when Node can load TypeScript: Node 23.6+, or node --import tsx).
A folder means every *.eval.{js,mjs,cjs,ts,mts} file in it (sub-folders too). Default: the current folder.

Modes:
  --live                 call the model as configured (the default)
  --record               call it and write a cassette per case and trial beside the eval file
                         (a folder named after the eval)
  --replay               answer from the cassettes: no network, no key; a request that differs
                         from its recording fails that trial

Options:
  --trials <n>           trials per case (over the definitions')
  --filter <text>        only cases whose id or a tag contains the text
  --baseline <file>      compare with an earlier report.json: regressions fail the run
  --reporter <list>      terminal, json, md, junit, comma-separated (default: terminal,json)
  --out <folder>         where reports and results.db go (default: eval-results)
  --no-store             do not keep conversations and scores in <out>/results.db
  -h, --help             show this help

Exit codes: 0 every case met its threshold; 1 a case failed, a regression against the baseline,
or the run was interrupted; 2 a usage or input error.
`;

/** The reporters there are. */
export const REPORTERS = ["terminal", "json", "md", "junit"] as const;
/** One reporter. */
export type ReporterName = (typeof REPORTERS)[number];

/** Parsed `agent-lattice eval` arguments. */
export interface EvalArguments {
  paths: string[];
  mode: "live" | "record" | "replay";
  trials?: number;
  filter?: string;
  baseline?: string;
  reporters: ReporterName[];
  out: string;
  store: boolean;
  help: boolean;
}

/** The eval command's options. */
const EVAL_OPTIONS = {
  record: { type: "boolean" },
  replay: { type: "boolean" },
  live: { type: "boolean" },
  trials: { type: "string" },
  filter: { type: "string" },
  baseline: { type: "string" },
  reporter: { type: "string" },
  out: { type: "string" },
  "no-store": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Parses the arguments after `eval`; throws a message for a usage error. */
export function parseEvalArguments(argv: readonly string[]): EvalArguments {
  const parsed: EvalArguments = {
    paths: [],
    mode: "live",
    reporters: ["terminal", "json"],
    out: "eval-results",
    store: true,
    help: false,
  };
  const { values, positionals } = parseOptionsStrictly(argv, EVAL_OPTIONS, true);
  const modes = (["record", "replay", "live"] as const).filter((mode) => values[mode]);
  if (values.trials !== undefined) parsed.trials = positiveInteger(values.trials, "--trials");
  if (values.filter !== undefined) parsed.filter = values.filter;
  if (values.baseline !== undefined) parsed.baseline = values.baseline;
  if (values.reporter !== undefined) parsed.reporters = reporters(values.reporter);
  if (values.out !== undefined) parsed.out = values.out;
  if (values["no-store"]) parsed.store = false;
  if (values.help) parsed.help = true;
  parsed.paths.push(...positionals);
  if (modes.length > 1)
    throw new Error(
      `choose one of --record, --replay and --live (got ${modes.map((mode) => `--${mode}`).join(", ")}).`,
    );
  const [mode] = modes;
  if (mode) parsed.mode = mode as EvalArguments["mode"];
  return parsed;
}

function positiveInteger(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${flag} needs a positive integer, not "${text}".`);
  return value;
}

function reporters(text: string): ReporterName[] {
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names)
    if (!(REPORTERS as readonly string[]).includes(name))
      throw new Error(`unknown reporter "${name}" (one of ${REPORTERS.join(", ")}).`);
  if (names.length === 0) throw new Error("--reporter needs at least one reporter.");
  return names as ReporterName[];
}
