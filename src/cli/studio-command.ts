/**
 * `agent-lattice studio`: starts the studio over the given stores, prints its URL (with its token;
 * never a store's credentials) and serves until interrupted (Ctrl-C, SIGTERM).
 * @module
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { EXIT_SUCCESS, EXIT_USAGE_ERROR } from "./exit-codes";
import type { CliIo } from "./io";
import { parseOptionsStrictly } from "./parse-options";

/** The studio command's help. */
export const STUDIO_USAGE = `Usage: agent-lattice studio [--store <location>]... [--port N] [--host H] [--open]

Opens a local page showing the conversations of your history stores: each turn's latency,
tokens, cache and cost, tool calls with input, output and duration, subagents, charts; live.

Options:
  --store <location>   where conversations are (repeat for several; default: .agent-sessions):
                         a JSONL file or a folder of them, sqlite:<file>,
                         postgres://… (?schema=…&tablePrefix=…), redis://… (?keyPrefix=…)
  --port <n>           the port (default: a free one)
  --host <address>     the address to bind (default: 127.0.0.1, this machine only); any other
                       exposes the page to the network, guarded only by the token in its URL
  --open               open the page in the default browser
  -h, --help           show this help

The page reads only. To approve, deny, answer MCP questions or fork from it, start it from code
with createAgent:
  startStudio({ store, createAgent }) from "agent-lattice/studio".
`;

interface StudioArguments {
  stores: string[];
  port: number;
  host?: string;
  open: boolean;
  help: boolean;
}

/** Parses the studio command's arguments; throws a message for a usage error. */
export function parseStudioArguments(argv: readonly string[]): StudioArguments {
  const { values } = parseOptionsStrictly(argv, STUDIO_OPTIONS, false);
  const parsed: StudioArguments = {
    stores: values.store ?? [],
    port: 0,
    open: values.open ?? false,
    help: values.help ?? false,
  };
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      throw new Error("--port needs a port number (0–65535).");
    parsed.port = port;
  }
  if (values.host !== undefined) parsed.host = values.host;
  return parsed;
}

/** The studio command's options. */
const STUDIO_OPTIONS = {
  store: { type: "string", multiple: true },
  port: { type: "string" },
  host: { type: "string" },
  open: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Runs `agent-lattice studio` until `stop` aborts (the command line passes Ctrl-C / SIGTERM). */
export async function runStudioCommand(
  argv: readonly string[],
  io: CliIo,
  stop: AbortSignal,
): Promise<number> {
  let parsed: StudioArguments;
  try {
    parsed = parseStudioArguments(argv);
  } catch (error) {
    io.stderr.write(`agent-lattice studio: ${(error as Error).message}\n\n${STUDIO_USAGE}`);
    return EXIT_USAGE_ERROR;
  }
  if (parsed.help) {
    io.stdout.write(STUDIO_USAGE);
    return EXIT_SUCCESS;
  }
  const stores = parsed.stores.length > 0 ? parsed.stores : [resolve(io.cwd, ".agent-sessions")];
  if (parsed.stores.length === 0 && !existsSync(stores[0]!)) {
    io.stderr.write(`agent-lattice studio: no .agent-sessions folder here; name a store with --store.\n`);
    return EXIT_USAGE_ERROR;
  }
  const { startStudio } = await import("../studio/index");
  const studio = await startStudio({
    stores: stores.map((store) => (/^[a-z]+:/i.test(store) ? store : resolve(io.cwd, store))),
    port: parsed.port,
    host: parsed.host,
    // A host other than loopback: the studio's one warning, on the command's stderr.
    onWarning: (message) => io.stderr.write(`${message}\n`),
  });
  io.stdout.write(`Studio: ${studio.url}\n(Ctrl-C stops it.)\n`);
  if (parsed.open) openInBrowser(studio.url);
  await new Promise<void>((done) => {
    if (stop.aborted) done();
    stop.addEventListener("abort", () => done(), { once: true });
  });
  await studio.close();
  return EXIT_SUCCESS;
}

function openInBrowser(url: string): void {
  const command =
    process.platform === "darwin" ? "open" : process.platform === "win32" ? "explorer" : "xdg-open";
  const child = spawn(command, [url], { stdio: "ignore", detached: true });
  child.on("error", () => {}); // no browser opener: the URL is printed anyway
  child.unref();
}
