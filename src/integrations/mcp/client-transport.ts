/**
 * Builds the MCP client transport for one configured server, and keeps the tail of a stdio
 * server's stderr for error reports.
 * @module
 */
import type { FetchLike, Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "./config";
import type { McpClientSdk } from "./load-client-sdk";
import { ProcessGroupStdioTransport } from "./stdio-transport";

/** How much of a stdio server's stderr is quoted in error reports. */
const STDERR_TAIL_CHARS = 2_000;
/**
 * How much raw stderr is kept: more than is quoted, so that a secret the raw cut goes through is
 * dropped with the excess once the tail has been redacted and cut to {@link STDERR_TAIL_CHARS}.
 */
const STDERR_RAW_CHARS = 4 * STDERR_TAIL_CHARS;

/** A transport, plus what we learn about the server through it. */
export interface ClientTransportHandle {
  transport: Transport;
  /** The child process id, for stdio servers that were spawned; `null` otherwise. */
  pid(): number | null;
  /**
   * The last lines the server wrote to stderr (stdio only), trimmed, with `redact` applied before
   * the cut to the quoted length, so no part of a secret the cut goes through remains.
   */
  stderrTail(redact: (text: string) => string): string;
}

/**
 * Creates the transport a config asks for. Throws for a config that names no known transport or
 * holds an invalid URL (the caller reports it as the server's failure).
 */
export function createClientTransport(
  config: McpServerConfig,
  sdk: McpClientSdk,
  authorizedFetch?: FetchLike,
): ClientTransportHandle {
  const type = config.type ?? ("command" in config ? "stdio" : undefined);
  switch (type) {
    case "stdio":
      return createStdioTransport(config as Extract<McpServerConfig, { type: "stdio" }>, sdk);
    case "http": {
      const { url, headers } = config as Extract<McpServerConfig, { type: "http" }>;
      const transport = new sdk.StreamableHTTPClientTransport(parseUrl(url), {
        requestInit: { headers },
        ...(authorizedFetch ? { fetch: authorizedFetch } : {}),
      });
      return { transport, pid: () => null, stderrTail: () => "" };
    }
    case "sse": {
      const { url, headers } = config as Extract<McpServerConfig, { type: "sse" }>;
      const transport = new sdk.SSEClientTransport(parseUrl(url), { requestInit: { headers } });
      return { transport, pid: () => null, stderrTail: () => "" };
    }
    default:
      throw new Error(`Unknown MCP server type ${JSON.stringify(type)}: use "stdio", "http" or "sse".`);
  }
}

function createStdioTransport(
  config: Extract<McpServerConfig, { type: "stdio" }>,
  sdk: McpClientSdk,
): ClientTransportHandle {
  if (typeof config.command !== "string" || config.command === "") {
    throw new Error("A stdio MCP server needs a command.");
  }
  // `env` is merged over the SDK's safe default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER).
  // On POSIX the server runs in a process group of its own, stopped as a whole on close; Windows
  // has no process groups, so the SDK's transport (which signals the child alone) is used there.
  const parameters = { command: config.command, args: config.args, env: config.env, cwd: config.cwd };
  const transport =
    process.platform === "win32"
      ? new sdk.StdioClientTransport({ ...parameters, stderr: "pipe" })
      : new ProcessGroupStdioTransport(parameters, sdk);
  let tail = "";
  let cut = false;
  transport.stderr?.on("data", (chunk: Buffer | string) => {
    const grown = tail + chunk.toString();
    cut ||= grown.length > STDERR_RAW_CHARS;
    tail = grown.slice(-STDERR_RAW_CHARS);
  });
  // Remember the pid once spawned: the SDK forgets it as soon as the process has closed.
  let spawnedPid: number | null = null;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    spawnedPid = transport.pid;
  };
  return {
    transport,
    pid: () => spawnedPid,
    // A window cut at its start may begin inside a secret, which redaction would not recognise:
    // the cut line is dropped before redacting.
    stderrTail: (redact) => quotedTail(redact(cut ? withoutFirstLine(tail) : tail)),
  };
}

function withoutFirstLine(text: string): string {
  const firstBreak = text.indexOf("\n");
  return firstBreak === -1 ? "" : text.slice(firstBreak + 1);
}

/** The end of redacted stderr, at most {@link STDERR_TAIL_CHARS}; a line cut at its start is dropped. */
function quotedTail(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length <= STDERR_TAIL_CHARS) return trimmed;
  const tail = trimmed.slice(-STDERR_TAIL_CHARS);
  const firstBreak = tail.indexOf("\n");
  return (firstBreak === -1 ? tail : tail.slice(firstBreak + 1)).trim();
}

/** The URL of a config, parsed; its text is never quoted (it may carry a token). */
export function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    // The URL itself is not quoted: it may carry a token.
    throw new Error("The MCP server URL is not a valid absolute URL.");
  }
}
