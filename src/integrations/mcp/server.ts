/**
 * `createMcpServer`: serves our `defineTool` tools to any MCP host, over stdio or Streamable HTTP.
 * @module
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable, Writable } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { InvalidOptionError } from "../../errors";
import { MAX_TIMER_MS } from "../../shared/signals";
import type { Tool } from "../../tools/tool";
import { createHttpSessions, writeJsonRpcError } from "./http-sessions";
import { assertServableTools, registerServedTools } from "./served-tools";

/** How long an HTTP session may stay without any open request or stream, by default (10 minutes). */
export const DEFAULT_MCP_SESSION_IDLE_TIMEOUT_MS = 600_000;

/** Options of {@link createMcpServer}. */
export interface CreateMcpServerOptions {
  /** The server name announced in `initialize`. @default "agent-lattice" */
  name?: string;
  /** The server version announced in `initialize`. @default "1.0.0" */
  version?: string;
  /** Instructions for the host's model, sent in `initialize`. */
  instructions?: string;
  /**
   * How long an HTTP session may stay without any open request or stream before it is closed
   * (a client that keeps its notification stream open never idles). `Infinity` keeps sessions
   * until the client sends DELETE or the server closes. @default 600000
   */
  sessionIdleTimeoutMs?: number;
}

/** Where {@link McpToolServer.listen} listens. */
export interface McpListenOptions {
  /** @default 0 (any free port) */
  port?: number;
  /** @default "127.0.0.1" */
  host?: string;
  /** The endpoint path; other paths are answered 404. @default "/mcp" */
  path?: string;
  /**
   * Host names accepted in the `Host` header (DNS-rebinding protection). Defaults to the loopback
   * names when listening on a loopback address, and to any host otherwise.
   */
  allowedHosts?: string[];
}

/** A listening HTTP endpoint. */
export interface McpHttpListener {
  /** The endpoint URL, e.g. `http://127.0.0.1:41235/mcp`. */
  url: string;
  port: number;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/** Our tools served over MCP. */
export interface McpToolServer {
  /**
   * The SDK server that {@link McpToolServer.connectStdio} connects. An SDK server serves a single
   * transport: to serve elsewhere, connect this one once or build more with `createSdkServer()`.
   */
  readonly server: Server;
  /** Builds another SDK server serving the same tools (HTTP sessions each get one). */
  createSdkServer(): Server;
  /** Serves on this process's stdin/stdout (or the given streams). Resolves once listening. */
  connectStdio(streams?: { stdin?: Readable; stdout?: Writable }): Promise<void>;
  /**
   * Handles one request to the Streamable HTTP endpoint from your own `node:http` (or Express)
   * server. Session-based: `initialize` opens a session (its id comes back in `mcp-session-id`),
   * each session has its own SDK server, DELETE ends it, and it ends after
   * `sessionIdleTimeoutMs` without any open request or stream. Pass `parsedBody` if a middleware
   * already read the body.
   */
  handleHttp(request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** How many HTTP sessions are open. */
  sessionCount(): number;
  /** Listens on `node:http` and serves the Streamable HTTP endpoint at `path`. */
  listen(options?: McpListenOptions): Promise<McpHttpListener>;
  /** Closes the stdio connection, every HTTP session and every listener. Idempotent. */
  close(): Promise<void>;
}

const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"];

/**
 * Serves tools made with `defineTool` to other MCP hosts. Tools are listed with their JSON Schemas
 * and `readOnlyHint`; a call's arguments go through the tool's `parseInput` (a failure is an
 * `isError` result carrying the validation message), `execute` runs with an AbortSignal that aborts
 * when the client cancels the request or the connection closes, and a thrown error becomes an
 * `isError` result. `endTurn` has no MCP counterpart and is dropped.
 *
 * @example
 * const served = createMcpServer([readFile], { name: "files" });
 * const { url } = await served.listen({ port: 3333 });   // Streamable HTTP at http://127.0.0.1:3333/mcp
 * // or, in a process started by an MCP host:
 * await served.connectStdio();
 */
export function createMcpServer(tools: Tool[], options: CreateMcpServerOptions = {}): McpToolServer {
  assertServableTools(tools);
  assertSessionIdleTimeout(options.sessionIdleTimeoutMs);
  const servedTools = [...tools];
  const createSdkServer = (): Server => {
    const server = new Server(
      { name: options.name ?? "agent-lattice", version: options.version ?? "1.0.0" },
      { capabilities: { tools: {} }, instructions: options.instructions },
    );
    registerServedTools(server, servedTools);
    return server;
  };
  const server = createSdkServer();
  const sessions = createHttpSessions({
    createServer: createSdkServer,
    idleTimeoutMs: options.sessionIdleTimeoutMs ?? DEFAULT_MCP_SESSION_IDLE_TIMEOUT_MS,
  });
  const listeners = new Set<McpHttpListener>();
  let closing: Promise<void> | undefined;

  const handleHttp = (request: IncomingMessage, response: ServerResponse, parsedBody?: unknown) =>
    sessions.handle(request, response, parsedBody);

  return {
    server,
    createSdkServer,
    connectStdio: (streams = {}) => server.connect(new StdioServerTransport(streams.stdin, streams.stdout)),
    handleHttp,
    sessionCount: () => sessions.size(),
    async listen(listenOptions = {}) {
      if (closing) throw new Error("This MCP server is closed.");
      const listener = await listenHttp(listenOptions, handleHttp);
      listeners.add(listener);
      return listener;
    },
    close() {
      closing ??= (async () => {
        await sessions.close();
        await Promise.all([...listeners].map((listener) => listener.close()));
        await server.close().catch(() => {});
      })();
      return closing;
    },
  };
}

async function listenHttp(
  options: McpListenOptions,
  handleHttp: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<McpHttpListener> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const allowedHosts = (
    options.allowedHosts ?? (LOOPBACK_HOSTS.includes(host) ? LOOPBACK_HOSTS : undefined)
  )?.map((name) => name.toLowerCase());
  const httpServer = createHttpServer((request, response) => {
    if (new URL(request.url ?? "/", "http://placeholder").pathname !== path) {
      return writeJsonRpcError(response, 404, -32000, `Not found: the MCP endpoint is ${path}.`);
    }
    if (allowedHosts && !allowedHosts.includes(hostNameOf(request.headers.host))) {
      return writeJsonRpcError(response, 403, -32000, "Forbidden: Host header not allowed.");
    }
    handleHttp(request, response).catch(() => writeJsonRpcError(response, 500, -32603, "Internal error."));
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off("error", reject);
      resolve();
    });
  });
  const { port } = httpServer.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}${path}`,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
      return closing;
    },
  };
}

/** The host name of a `Host` header, lower-cased, without its port. */
function hostNameOf(hostHeader: string | undefined): string {
  if (!hostHeader) return "";
  const host = hostHeader.toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1);
  return host.split(":")[0] ?? "";
}

/** `Infinity`, or a positive number a timer can wait (at most {@link MAX_TIMER_MS}: longer fires at once). */
function assertSessionIdleTimeout(value: number | undefined): void {
  if (value === undefined || value === Number.POSITIVE_INFINITY) return;
  if (!(typeof value === "number" && value > 0 && value <= MAX_TIMER_MS)) {
    throw new InvalidOptionError(
      `createMcpServer: sessionIdleTimeoutMs must be Infinity or a positive number of at most ${MAX_TIMER_MS} ms, got ${String(value)}.`,
    );
  }
}
