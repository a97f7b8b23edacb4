/**
 * The command line: parsing with `node:util` `parseArgs`, validation, and the usage text.
 * Every mistake becomes a {@link UsageError} (exit code 2).
 * @module
 */
import { parseArgs } from "node:util";
import type { ModelPricing } from "../cost/pricing";
import {
  APPROVAL_OPTION_SPEC,
  APPROVAL_USAGE,
  approvalOptionsOf,
  type CliDecisions,
  checkApprovalCombinations,
} from "./approval-options";
import { type CliModelSettings, MODEL_FLAG_SPEC, MODEL_FLAG_USAGE, modelSettingsOf } from "./model-flags";
import { firstSentence } from "./parse-options";
import { UsageError } from "./usage-error";

/** The model used when neither `--model` nor `ANTHROPIC_MODEL` names one. */
export const DEFAULT_CLI_MODEL = "claude-sonnet-4-6";

/** The groups of workspace tools `--tools` can enable. */
export const TOOL_GROUPS = ["read", "write", "bash"] as const;

/** One group of workspace tools: `read` (read_file, list_files, glob, grep), `write` (write_file, edit_file), `bash`. */
export type ToolGroup = (typeof TOOL_GROUPS)[number];

/** What one run of the command should do. */
export interface CliOptions {
  /** The prompt (positional words joined by spaces); absent: an interactive session. */
  prompt?: string;
  model: string;
  /** From `--base-url`, else `ANTHROPIC_BASE_URL`. */
  baseURL?: string;
  /** From `ANTHROPIC_API_KEY` only: a key on the command line would leak into shell history and `ps`. */
  apiKey?: string;
  systemPrompt?: string;
  maxTurns?: number;
  /** `--budget`: the agent's `maxBudgetUsd`. */
  budgetUsd?: number;
  /** `--price`, as given: the `--model`'s price (parsed by `resolveCliPricing`). */
  price?: string;
  /** `--pricing`: a JSON file of prices by model id. */
  pricingPath?: string;
  /** The prices from `--price` and `--pricing`, once read (`resolveCliPricing`); merged over the built-in table. */
  pricing?: Record<string, ModelPricing>;
  tools: ToolGroup[];
  /** `--mcp <file>` (repeatable): JSON files of MCP servers, the agent's `mcpServers` (mcp-config.ts). */
  mcpFiles?: string[];
  /** `--mcp-tokens <file>`: where the MCP servers' OAuth tokens are kept (mcp-authorization.ts). */
  mcpTokenFile?: string;
  /** `--mcp-browser`: open an MCP server's authorization URL in the browser, not only print it. */
  mcpBrowser?: boolean;
  /** `--skills <folder>` (repeatable): Agent Skills folders, the agent's `skills`. */
  skillFolders?: string[];
  sessionPath?: string;
  /** `--rewind <checkpoint>`: rewind the `--session` to before that prompt (a number or an id) first. */
  rewindTo?: string;
  outputSchemaPath?: string;
  json: boolean;
  /** `--partial`: with `--json`, also print `stream_event` messages. */
  partial: boolean;
  demo: boolean;
  /** With `demo`: never use the real API, even with a key. */
  offline: boolean;
  /** `--mock`: the prompt (or session) goes to the bundled mock model on a local server, offline. */
  mock: boolean;
  /** `--sandbox-user <name|uid[:gid]>`: the host user `bash`'s sandbox runs as when the command runs as root. */
  sandboxUser?: string;
  /** `--unconfined-bash`: `bash` runs with this process's privileges, no sandbox (asked for, never a fallback as root). */
  unconfinedBash: boolean;
  /** `--ask-before-writes`: the agent's `permissionMode: "askBeforeWrites"` (see approval-options.ts). */
  askBeforeWrites?: boolean;
  /** `--approve` / `--deny`: decisions that resume the `--session`'s paused query. */
  decisions?: CliDecisions;
  /** `--temperature`, `--thinking`, `--effort`, `--max-tokens`, `--no-cache`: the agent's model settings. */
  modelSettings: CliModelSettings;
  /** False with `--no-thinking-display`: thinking is not shown (it is shown dimmed on a terminal). */
  thinkingDisplay: boolean;
}

/** The parsed command: show help, show the version, or run. */
export type CliCommand = { kind: "help" } | { kind: "version" } | { kind: "run"; options: CliOptions };

/** The usage text printed by `--help`. */
export const USAGE = `Usage: agent-lattice [options] [prompt...]
       agent-lattice studio [--store <location>] [--port N] [--host H] [--open]   (see studio --help)
       agent-lattice mock-server [--port N] [-- command...]   the offline mock model for your programs

Runs an agent on any Anthropic-compatible Messages API. With a prompt it answers once and exits;
without one it opens an interactive session (Ctrl-C interrupts a running answer, Ctrl-D exits;
/help lists its commands: /clear, /compact, /model, /cost, /rewind, /fork, /exit).

Options:
  --model <id>             model id (default: $ANTHROPIC_MODEL or ${DEFAULT_CLI_MODEL})
  --base-url <url>         Anthropic-compatible endpoint (default: $ANTHROPIC_BASE_URL)
  --system <text>          system prompt
  --max-turns <n>          model requests per query (default: 50)
  --budget <usd>           stop a query once it has cost more than this many US dollars
                           (the model needs a price: built in, or from --price / --pricing)
  --price <in>,<out>       the model's price in USD per million tokens: input, output, and
                           optionally cache read and cache write (--price 0.3,1.2,0.006)
  --pricing <file>         a JSON file of prices by model id, as AgentOptions.pricing:
                           { "my-model": { "inputPerMTok": 0.3, "outputPerMTok": 1.2 } }
${MODEL_FLAG_USAGE}
  --tools <list>           workspace tools over the current folder, comma-separated:
                             read  = read_file, list_files, glob, grep
                             write = write_file, edit_file
                             bash  = bash (sandboxed with bubblewrap where it works: only
                                     this folder visible and writable, no network; else it
                                     runs with your privileges, and says so at start; as
                                     root it stops instead, unless --unconfined-bash)
  --sandbox-user <user>    as root: the unprivileged user (name, uid or uid:gid) bash's sandbox
                           runs as (default: the folder's owner, or nobody for a folder of
                           root's); it must be able to reach this folder — make it theirs:
                           chown -R <user> <folder>
  --unconfined-bash        run bash without the sandbox, with your privileges (root's, as root)
  --skills <folder>        Agent Skills: a folder of skill folders (each with a SKILL.md), or one
                           skill folder; repeat for more. The model reads them with the skill tool
  --mcp <file>             MCP servers from a JSON file ({ "mcpServers": { "<name>": { "type":
                           "stdio", "command": … } | { "type": "http", "url": … } } }, \${VAR}
                           read from the environment); repeat for more. An http server that
                           asks for OAuth gets its authorization URL printed; the browser's
                           redirect comes back to a listener on 127.0.0.1 (Ctrl-C cancels)
  --mcp-tokens <file>      where MCP OAuth tokens are kept, mode 0600 (default:
                           ~/.config/agent-lattice/mcp-tokens.json, or under $XDG_CONFIG_HOME)
  --mcp-browser            also open an MCP authorization URL in the browser ($BROWSER, else
                           xdg-open / open)
  --session <file>         keep the conversation in a JSONL file; run again to resume it
  --rewind <n|id>          with --session: first go back to before that prompt (a checkpoint
                           number, 1 = the first prompt, or its id); files too
  --output-schema <file>   a JSON Schema file: the answer must be a JSON value matching it,
                           printed on stdout once validated
${APPROVAL_USAGE}
  --json                   print every SDK message as one JSON line (NDJSON), for scripts
  --partial                with --json, also print stream_event messages (text deltas)
  --demo                   run the demo task on a temporary folder with the workspace tools:
                           offline (a scripted model on a local mock server), or against the
                           real API when ANTHROPIC_API_KEY is set
  --offline                with --demo, stay offline even when ANTHROPIC_API_KEY is set
  --mock                   run your prompt (or session) offline: a small rule-based mock model
                           on a local server that reads, writes, edits files and runs commands
                           with the --tools you give, as the prompt asks (no key needed)
  -h, --help               show this help
  -v, --version            show the version

Environment:
  ANTHROPIC_API_KEY        API key (required unless --base-url points at a keyless endpoint, or --demo)
  ANTHROPIC_BASE_URL       default for --base-url
  ANTHROPIC_MODEL          default for --model
  NO_COLOR                 no colours and no spinner (also when output is not a terminal)

Exit codes: 0 success or interrupted, 1 the agent ended with an error, 2 usage error,
3 the query is waiting for approval (not interactive: resume with --session and --approve/--deny),
130 a second Ctrl-C aborted a running query.

Examples:
  agent-lattice --demo
  agent-lattice --mock --tools read "What is in this folder?"
  agent-lattice --tools read "What does this project do?"
  agent-lattice --session chat.jsonl
  agent-lattice --json --output-schema todo.schema.json "List the TODOs in src/"
  agent-lattice --model my-model --price 0.5,2 --budget 0.10 "Hi"
  agent-lattice --thinking 4096 --effort high "Why does this test fail?"`;

/** The options `parseArgs` knows (exported for the resume hint, which repeats a run's own). */
export const OPTION_SPEC = {
  model: { type: "string" },
  "base-url": { type: "string" },
  system: { type: "string" },
  "max-turns": { type: "string" },
  budget: { type: "string" },
  price: { type: "string" },
  pricing: { type: "string" },
  tools: { type: "string" },
  skills: { type: "string", multiple: true },
  mcp: { type: "string", multiple: true },
  "mcp-tokens": { type: "string" },
  "mcp-browser": { type: "boolean" },
  session: { type: "string" },
  rewind: { type: "string" },
  "output-schema": { type: "string" },
  json: { type: "boolean" },
  partial: { type: "boolean" },
  demo: { type: "boolean" },
  offline: { type: "boolean" },
  mock: { type: "boolean" },
  "sandbox-user": { type: "string" },
  "unconfined-bash": { type: "boolean" },
  ...APPROVAL_OPTION_SPEC,
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  ...MODEL_FLAG_SPEC,
} as const;

/**
 * Parses the arguments (without `node` and the script path) against the environment.
 * @throws {UsageError} for unknown options, missing or invalid values, and conflicting options.
 */
export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv): CliCommand {
  const { values, positionals } = parseStrictly(argv);
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  const prompt = positionals.join(" ").trim();
  const options: CliOptions = {
    prompt: prompt === "" ? undefined : prompt,
    model: nonEmpty("--model", values.model) ?? nonEmptyEnvironment(env.ANTHROPIC_MODEL) ?? DEFAULT_CLI_MODEL,
    baseURL: baseUrlOf(values["base-url"]) ?? nonEmptyEnvironment(env.ANTHROPIC_BASE_URL),
    apiKey: nonEmptyEnvironment(env.ANTHROPIC_API_KEY),
    systemPrompt: values.system,
    maxTurns: positiveIntegerOf("--max-turns", values["max-turns"]),
    budgetUsd: positiveNumberOf("--budget", values.budget),
    price: nonEmpty("--price", values.price),
    pricingPath: nonEmpty("--pricing", values.pricing),
    tools: toolGroupsOf(values.tools),
    ...(values.skills?.length
      ? { skillFolders: values.skills.map((folder) => nonEmpty("--skills", folder)!) }
      : {}),
    ...(values.mcp?.length ? { mcpFiles: values.mcp.map((file) => nonEmpty("--mcp", file)!) } : {}),
    mcpTokenFile: nonEmpty("--mcp-tokens", values["mcp-tokens"]),
    ...(values["mcp-browser"] ? { mcpBrowser: true } : {}),
    sessionPath: nonEmpty("--session", values.session),
    rewindTo: nonEmpty("--rewind", values.rewind),
    outputSchemaPath: nonEmpty("--output-schema", values["output-schema"]),
    json: values.json ?? false,
    partial: values.partial ?? false,
    demo: values.demo ?? false,
    offline: values.offline ?? false,
    mock: values.mock ?? false,
    sandboxUser: nonEmpty("--sandbox-user", values["sandbox-user"]),
    unconfinedBash: values["unconfined-bash"] ?? false,
    ...approvalOptionsOf(values, usageError),
    modelSettings: modelSettingsOf(values),
    thinkingDisplay: !values["no-thinking-display"],
  };
  checkCombinations(options, values);
  return { kind: "run", options };
}

function parseStrictly(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTION_SPEC, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(firstSentence(error));
  }
}

function checkCombinations(options: CliOptions, values: { "base-url"?: string }): void {
  if (options.partial && !options.json) throw new UsageError("--partial only makes sense with --json");
  if (options.offline && !options.demo) throw new UsageError("--offline goes with --demo");
  checkApprovalCombinations(options, usageError);
  if (options.rewindTo !== undefined && options.sessionPath === undefined)
    throw new UsageError("--rewind goes with --session: it rewinds that conversation");
  if ((options.sandboxUser !== undefined || options.unconfinedBash) && !options.tools.includes("bash"))
    throw new UsageError(
      `--${options.unconfinedBash ? "unconfined-bash" : "sandbox-user"} goes with --tools bash`,
    );
  if (options.sandboxUser !== undefined && options.unconfinedBash)
    throw new UsageError("--sandbox-user and --unconfined-bash contradict each other: choose one");
  if ((options.mcpTokenFile !== undefined || options.mcpBrowser) && options.mcpFiles === undefined)
    throw new UsageError(`--${options.mcpBrowser ? "mcp-browser" : "mcp-tokens"} goes with --mcp`);
  if (options.mock && options.demo)
    throw new UsageError("--mock and --demo are two offline modes: choose one");
  if (options.mock && values["base-url"] !== undefined)
    throw new UsageError("--mock runs against its own local mock server; drop --base-url");
  if (!options.demo) return;
  if (options.prompt !== undefined)
    throw new UsageError("--demo takes no prompt: its scripted model performs one fixed task");
  if (options.tools.length > 0) throw new UsageError("--demo chooses its own tools; drop --tools");
  if (values["base-url"] !== undefined)
    throw new UsageError("--demo runs against its own local mock server; drop --base-url");
  if (options.outputSchemaPath !== undefined) throw new UsageError("--demo does not support --output-schema");
  if (options.mcpFiles !== undefined) throw new UsageError("--demo chooses its own tools; drop --mcp");
}

function usageError(message: string): UsageError {
  return new UsageError(message);
}

function nonEmpty(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") throw new UsageError(`${name} needs a non-empty value`);
  return value;
}

function nonEmptyEnvironment(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

function baseUrlOf(value: string | undefined): string | undefined {
  const url = nonEmpty("--base-url", value);
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--base-url must be an http(s) URL, got "${url}"`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
    throw new UsageError(`--base-url must be an http(s) URL, got "${url}"`);
  return url;
}

function positiveIntegerOf(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number <= 0)
    throw new UsageError(`${name} must be a positive integer, got "${value}"`);
  return number;
}

function positiveNumberOf(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value.trim().replace(/^\$/, ""));
  if (value.trim() === "" || !Number.isFinite(number) || number <= 0)
    throw new UsageError(`${name} must be a positive number of US dollars, got "${value}"`);
  return number;
}

function toolGroupsOf(value: string | undefined): ToolGroup[] {
  if (value === undefined) return [];
  const groups: ToolGroup[] = [];
  for (const name of value.split(",").map((part) => part.trim().toLowerCase())) {
    if (name === "") continue;
    if (!(TOOL_GROUPS as readonly string[]).includes(name))
      throw new UsageError(`--tools: unknown tool group "${name}" (choose from ${TOOL_GROUPS.join(", ")})`);
    if (!groups.includes(name as ToolGroup)) groups.push(name as ToolGroup);
  }
  if (groups.length === 0) throw new UsageError(`--tools needs at least one of ${TOOL_GROUPS.join(", ")}`);
  return groups;
}
