#!/usr/bin/env node
/**
 * The `agent-lattice` command: parse the command line, build the agent, then run one prompt, an
 * interactive session, or the offline demo. See `agent-lattice --help` and docs/en/cli.md.
 * @module
 */
import packageJson from "../../package.json";
import { urlSecretsOf } from "../shared/redact";
import type { CliAgent } from "./agent-setup";
import { type CliOptions, parseCommandLine, USAGE } from "./args";
import { EXIT_AGENT_ERROR, EXIT_SUCCESS, EXIT_USAGE_ERROR } from "./exit-codes";
import { beforeTerminationExit, InterruptControl } from "./interrupt-control";
import { type CliIo, processIo } from "./io";
import type { QueryOutput } from "./query-output";
import { createRedactor, type Redactor } from "./redact";
import { exitOnTerminationSignals } from "./termination";
import { unbuiltEntryHint } from "./unbuilt-entry";
import { UsageError } from "./usage-error";

// `--version` and `--help` load nothing but the above: the agent, its tools and the terminal
// output are imported when a command runs (start-up time of the command line, bench/startup.mjs).

/** Runs the command with `argv` (without `node` and the script) and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  // Credentials in a base URL (`https://user:key@proxy/`, `?key=…`) are as secret as the API key.
  const redact = createRedactor([
    io.env.ANTHROPIC_API_KEY,
    ...urlSecretsOf(io.env.ANTHROPIC_BASE_URL),
    ...urlSecretsOf(baseUrlArgument(argv)),
  ]);
  try {
    if (argv[0] === "studio") return await runStudio(argv.slice(1), io);
    if (argv[0] === "mock-server") return await runMockServer(argv.slice(1), io);
    if (argv[0] === "eval")
      return await (await import("./eval-signals")).runEvalWithSignals(argv.slice(1), io);
    const command = parseCommandLine(argv, io.env);
    if (command.kind === "help") return print(io, USAGE);
    if (command.kind === "version") return print(io, packageJson.version);
    // Prices are read (and --budget checked against them) before anything runs.
    const { resolveCliPricing } = await import("./pricing-options");
    const options = { ...command.options, pricing: await resolveCliPricing(command.options) };
    const { createQueryOutput } = await import("./query-output");
    const output = createQueryOutput(
      {
        json: options.json,
        structured: options.outputSchemaPath !== undefined,
        thinking: options.thinkingDisplay,
      },
      io,
      redact,
    );
    if (options.demo) return await (await import("./demo")).runDemo(options, io, output);
    if (options.mock) return await runMocked(options, io, output, argv);
    return await runWithAgent(options, io, output, argv);
  } catch (error) {
    return reportFailure(error, io, redact);
  }
}

/** `agent-lattice studio`: serves until Ctrl-C or SIGTERM. */
async function runStudio(argv: readonly string[], io: CliIo): Promise<number> {
  const { runStudioCommand } = await import("./studio-command");
  return untilSignal((signal) => runStudioCommand(argv, io, signal));
}

/** `agent-lattice mock-server`: serves until Ctrl-C or SIGTERM, or runs a command (mock-server-command.ts). */
async function runMockServer(argv: readonly string[], io: CliIo): Promise<number> {
  const { runMockServerCommand } = await import("./mock-server-command");
  return untilSignal((signal) => runMockServerCommand(argv, io, signal));
}

/** Runs `work` with a signal that Ctrl-C or SIGTERM aborts. */
async function untilSignal(work: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await work(stop.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/** `--mock`: the run goes to the bundled mock model on a local server (see mock-model.ts). */
async function runMocked(
  options: CliOptions,
  io: CliIo,
  output: QueryOutput,
  argv: readonly string[],
): Promise<number> {
  const [{ startMockAnthropicServer }, { createMockModel, MOCK_API_KEY }] = await Promise.all([
    import("../testing/mock-server"),
    import("./mock-model"),
  ]);
  const server = await startMockAnthropicServer({ handler: createMockModel() });
  try {
    output.notice("Offline: the bundled mock model answers (--mock), not a real one");
    return await runWithAgent({ ...options, baseURL: server.url, apiKey: MOCK_API_KEY }, io, output, argv);
  } finally {
    await server.close();
  }
}

async function runWithAgent(
  options: CliOptions,
  io: CliIo,
  output: QueryOutput,
  argv: readonly string[],
): Promise<number> {
  const { createCliAgent } = await import("./agent-setup");
  const setup = await createCliAgent(options, io, { notice: (text) => output.notice(text) });
  const { agent } = setup;
  if (setup.bashModeNotice) output.notice(setup.bashModeNotice);
  // On SIGTERM/SIGHUP the agent is closed before the exit: its store's last writes land.
  const forgetCleanup = beforeTerminationExit(() => agent.close());
  try {
    if (options.sessionPath) {
      const { resumeNotice } = await import("./session");
      const notice = resumeNotice(options.sessionPath, (await agent.getHistory()).length);
      if (notice) output.notice(notice);
      if (options.rewindTo !== undefined) {
        const { rewindTo } = await import("./checkpoint-commands");
        const rewound = await rewindTo(agent, options.rewindTo);
        for (const line of rewound.lines) output.notice(line);
        if (!rewound.ok) return 1;
      }
    }
    const control = new InterruptControl(
      agent,
      (text) => output.notice(text),
      () => setup.mcpAuthorization?.cancel("MCP authorization cancelled with Ctrl-C."),
    );
    const run = {
      agent,
      output,
      control,
      io,
      structured: setup.outputSchema !== undefined,
      ...sessionOf(options),
      resumeFlags: (await import("./resume-command")).resumeFlagsOf(argv),
      toolNames: setup.toolNames,
    };
    if (options.decisions) return await (await import("./approval-run")).resumeOnce(options.decisions, run);
    if (options.prompt !== undefined) return await (await import("./one-shot")).runOnce(options.prompt, run);
    const [{ runInteractiveSession }, { SessionTally }] = await Promise.all([
      import("./interactive"),
      import("./session-tally"),
    ]);
    const context = {
      run: { ...run, tally: new SessionTally() },
      client: setup.client,
      pricing: options.pricing,
      budgetUsd: options.budgetUsd,
      summarySettings: setup.summarySettings,
    };
    return await runInteractiveSession(context, bannerOf(options, setup));
  } finally {
    forgetCleanup();
    await agent.close();
  }
}

function sessionOf(options: CliOptions): { sessionPath?: string } {
  return options.sessionPath === undefined ? {} : { sessionPath: options.sessionPath };
}

/** The value given to `--base-url`, read before parsing so that even a refused one is redacted. */
function baseUrlArgument(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--") return undefined;
    if (argument === "--base-url") return argv[index + 1];
    if (argument.startsWith("--base-url=")) return argument.slice("--base-url=".length);
  }
  return undefined;
}

function bannerOf(options: CliOptions, setup: CliAgent): string {
  const tools = setup.toolNames.length > 0 ? setup.toolNames.join(", ") : "none";
  return `agent-lattice · ${options.model} · tools: ${tools} · /help for commands · Ctrl-C interrupts · Ctrl-D exits`;
}

function print(io: CliIo, text: string): number {
  io.stdout.write(`${text}\n`);
  return EXIT_SUCCESS;
}

function reportFailure(error: unknown, io: CliIo, redact: Redactor): number {
  // By name: the class lives in ./agent-setup, which `--help` and `--version` do not load.
  if (error instanceof UsageError && error.name === "MissingApiKeyError") {
    io.stderr.write(`agent-lattice: ${error.message}\n`);
    return EXIT_USAGE_ERROR;
  }
  if (error instanceof UsageError) {
    io.stderr.write(`agent-lattice: ${redact(error.message)} (see agent-lattice --help)\n`);
    return EXIT_USAGE_ERROR;
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const hint = unbuiltEntryHint(error);
  io.stderr.write(`agent-lattice: ${redact(message)}${hint ? ` — ${hint}` : ""}\n`);
  return EXIT_AGENT_ERROR;
}

/** Waits until everything written to `stream` has been handed to the system. */
function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}

const flushOutput = async () => {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
};
const termination = exitOnTerminationSignals(
  (text) => process.stderr.write(`${process.stderr.isTTY ? "\n" : ""}${text}\n`),
  flushOutput,
  [process.stdout, process.stderr],
);
main(process.argv.slice(2), processIo()).then(async (code) => {
  await flushOutput();
  process.exit(termination.exitCode ?? code);
});
