/**
 * The arguments of `agent-lattice eval`.
 * @module
 */

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
  const modes = new Set<string>();
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    const [flag, inline] =
      argument.startsWith("--") && argument.includes("=") ? argument.split(/=(.*)/s, 2) : [argument];
    const value = () => {
      const next = inline ?? argv[++index];
      if (next === undefined || next === "") throw new Error(`${flag} needs a value.`);
      return next;
    };
    if (flag === "--record" || flag === "--replay" || flag === "--live") modes.add(flag.slice(2));
    else if (flag === "--trials") parsed.trials = positiveInteger(value(), "--trials");
    else if (flag === "--filter") parsed.filter = value();
    else if (flag === "--baseline") parsed.baseline = value();
    else if (flag === "--reporter") parsed.reporters = reporters(value());
    else if (flag === "--out") parsed.out = value();
    else if (flag === "--no-store") parsed.store = false;
    else if (flag === "-h" || flag === "--help") parsed.help = true;
    else if (flag!.startsWith("-"))
      throw new Error(`unknown option ${flag} (see agent-lattice eval --help).`);
    else parsed.paths.push(argument);
  }
  if (modes.size > 1)
    throw new Error(
      `choose one of --record, --replay and --live (got ${[...modes].map((mode) => `--${mode}`).join(", ")}).`,
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
