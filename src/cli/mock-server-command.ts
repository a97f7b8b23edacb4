/**
 * `agent-lattice mock-server`: the bundled rule-based mock model (the one `--mock` uses) on a local
 * port, for programs of your own — the tutorial's, the recipes' — to run offline and unchanged:
 * it prints the variables that point a program at it (`ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`)
 * and serves until interrupted, or runs the command given after `--` with them set and exits
 * with its exit code.
 * @module
 */
import { spawn } from "node:child_process";
import { EXIT_SUCCESS, EXIT_USAGE_ERROR } from "./exit-codes";
import type { CliIo } from "./io";

/** The mock-server command's help. */
export const MOCK_SERVER_USAGE = `Usage: agent-lattice mock-server [--port N] [-- command [args...]]

Starts the bundled rule-based mock model (the one of --mock) on 127.0.0.1, offline, no key needed,
and prints the variables that point a program at it:
  export ANTHROPIC_BASE_URL=http://127.0.0.1:<port>
  export ANTHROPIC_API_KEY=mock-offline-key
Set them in another terminal (or eval the output) and run your program unchanged; Ctrl-C stops
the server. After --, runs that command with the variables set instead, then stops.

Options:
  --port <n>     the port (default: a free one)
  -h, --help     show this help

Examples:
  agent-lattice mock-server -- npx tsx first.ts
  agent-lattice mock-server --port 4010
`;

interface MockServerArguments {
  port: number;
  help: boolean;
  command: string[];
}

/** Parses the arguments; throws a message for a usage error. */
export function parseMockServerArguments(argv: readonly string[]): MockServerArguments {
  const parsed: MockServerArguments = { port: 0, help: false, command: [] };
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index]!;
    if (argument === "--") {
      parsed.command = argv.slice(index + 1);
      if (parsed.command.length === 0) throw new Error("-- needs a command to run.");
      break;
    }
    const [flag, inline] = argument.startsWith("--port=") ? ["--port", argument.slice(7)] : [argument];
    if (flag === "--port") {
      const port = Number(inline ?? argv[++index]);
      if (!Number.isInteger(port) || port < 0 || port > 65_535)
        throw new Error("--port needs a port number (0–65535).");
      parsed.port = port;
    } else if (flag === "-h" || flag === "--help") parsed.help = true;
    else throw new Error(`Unknown argument for mock-server: ${argument}`);
  }
  return parsed;
}

/** Runs `agent-lattice mock-server` until `stop` aborts, or until the command given ends. */
export async function runMockServerCommand(
  argv: readonly string[],
  io: CliIo,
  stop: AbortSignal,
): Promise<number> {
  let parsed: MockServerArguments;
  try {
    parsed = parseMockServerArguments(argv);
  } catch (error) {
    io.stderr.write(`agent-lattice mock-server: ${(error as Error).message}\n\n${MOCK_SERVER_USAGE}`);
    return EXIT_USAGE_ERROR;
  }
  if (parsed.help) {
    io.stdout.write(MOCK_SERVER_USAGE);
    return EXIT_SUCCESS;
  }
  const [{ startMockAnthropicServer }, { createMockModel, MOCK_API_KEY }] = await Promise.all([
    import("../testing/mock-server"),
    import("./mock-model"),
  ]);
  const server = await startMockAnthropicServer({ handler: createMockModel(), port: parsed.port });
  const variables = { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: MOCK_API_KEY };
  try {
    if (parsed.command.length > 0)
      return await runWith(parsed.command, { ...io.env, ...variables }, io, stop);
    io.stdout.write(`export ANTHROPIC_BASE_URL=${server.url}\nexport ANTHROPIC_API_KEY=${MOCK_API_KEY}\n`);
    io.stderr.write(
      "The bundled mock model answers there (offline, rule-based; its answers start with [mock model, offline]).\n" +
        "Set the variables above where your program runs; Ctrl-C stops the server.\n",
    );
    await new Promise<void>((done) => {
      if (stop.aborted) done();
      stop.addEventListener("abort", () => done(), { once: true });
    });
    return EXIT_SUCCESS;
  } finally {
    await server.close();
  }
}

/** Runs `command` with `env`, its output on ours; its exit code (128 + signal when killed). */
function runWith(
  command: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
  stop: AbortSignal,
): Promise<number> {
  return new Promise((done) => {
    const child = spawn(command[0]!, command.slice(1), { env, cwd: io.cwd, stdio: "inherit" });
    const forward = () => child.kill("SIGTERM");
    stop.addEventListener("abort", forward, { once: true });
    child.on("error", (error) => {
      io.stderr.write(`agent-lattice mock-server: could not run ${command[0]}: ${error.message}\n`);
      done(127);
    });
    child.on("close", (code, signal) => {
      stop.removeEventListener("abort", forward);
      done(code ?? 128 + (signal === "SIGTERM" ? 15 : signal === "SIGINT" ? 2 : 1));
    });
  });
}
