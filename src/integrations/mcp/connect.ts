/**
 * `connectMcpServers`: the client side behind `mcpServers`. Connects every configured server at
 * once and exposes their tools to the agent as `mcp__<server>__<tool>`.
 * @module
 */
import { AbortError } from "../../errors";
import type { McpServerStatus } from "../../messages/sdk-messages";
import type { Tool } from "../../tools/tool";
import type { McpCatalog } from "./catalog-types";
import type { McpServerConfig } from "./config";
import type { McpElicitationHandler } from "./elicitation-types";
import { loadMcpClientSdk } from "./load-client-sdk";
import { createCatalog } from "./server-catalog";
import { ServerConnection } from "./server-connection";
import { serverNameSegments } from "./tool-names";

/** The client name announced in `initialize` when none is given. */
export const DEFAULT_MCP_CLIENT_NAME = "agent-lattice";

/** The client version announced in `initialize` when none is given. */
export const DEFAULT_MCP_CLIENT_VERSION = "1.0.0";

/** Options of {@link connectMcpServers}. */
export interface ConnectMcpServersOptions {
  /**
   * Aborts connecting: every server opened so far is closed and the promise rejects with an
   * `AbortError`. It has no effect once connected (use `close()`).
   */
  signal?: AbortSignal;
  /**
   * Called when a server's tool list changed after connecting (`tools/list_changed`, or the server
   * went away). Read `tools()` again before the next model request. Must not throw (errors are
   * ignored).
   */
  onToolsChanged?: () => void;
  /** The client name sent in `initialize`. @default "agent-lattice" */
  clientName?: string;
  /** The client version sent in `initialize`. @default "1.0.0" */
  clientVersion?: string;
  /**
   * Answers servers' questions (`elicitation/create`, form and URL modes). With it the client
   * declares the elicitation capability; without it, none (servers should not ask).
   */
  onElicitation?: McpElicitationHandler;
  /**
   * For tools handed to an agent: declare the elicitation capability even without
   * `onElicitation`, and let a question nobody answers at once (no handler, or it returns
   * `"pause"`) pause the agent's query — it ends `requires_input` with the question in
   * `pending_inputs`, and `prompt({ inputs })` issues the call again with the answer. Called
   * outside an agent's query (`execute`), such a question is answered `cancel`. `createAgent({ mcpServers })`
   * sets it. @default false
   */
  pauseForInput?: boolean;
}

/**
 * The live connections made by {@link connectMcpServers}; with the servers' resources and prompts
 * ({@link McpCatalog}).
 */
export interface McpConnections extends McpCatalog {
  /**
   * The tools of every connected server, named `mcp__<server>__<tool>`, in config order. A fresh
   * array on each call; it changes after `onToolsChanged`.
   */
  tools(): Tool[];
  /**
   * One status per configured server, in config order: `connected` with its tool names, or
   * `failed` with the reason (spawn error, crash, timeout, bad config; the end of a stdio server's
   * stderr is quoted). A server that crashes later turns `failed` and loses its tools.
   */
  statuses(): McpServerStatus[];
  /**
   * The authorizations servers paused on (`auth.redirect: "pause"`), in config order: the
   * server's name, the URL for the person, and when it expires. Their status is `failed` meanwhile.
   */
  pendingAuthorizations(): McpPendingAuthorization[];
  /**
   * Connects again every server that paused for authorization (after the app's callback ran
   * `finishMcpAuthorization`): with tokens in its store it connects; without, it pauses again with a
   * new authorization URL. `servers`: only these (names in `mcpServers`). `onToolsChanged` is called
   * when one connected. Never rejects.
   */
  reconnectPaused(servers?: readonly string[]): Promise<void>;
  /** Closes every client and transport and waits until no child process is left. Idempotent. */
  close(): Promise<void>;
}

/** A server waiting for a person to authorize it (`auth.redirect: "pause"`). */
export interface McpPendingAuthorization {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The authorization URL the person should open. */
  url: string;
  /** When the paused authorization can no longer be finished (ISO 8601). */
  expiresAt: string;
}

/**
 * Connects every configured MCP server in parallel, each bounded by its `connectTimeoutMs`
 * (spawn or request, `initialize`, and the whole paginated `tools/list`). A server that fails is
 * reported in `statuses()` and its process is killed; the others work on. Never rejects for a
 * server's failure — only when `signal` aborts, or when `@modelcontextprotocol/sdk` is not
 * installed (an `InvalidOptionError` saying what to install).
 *
 * Tool calls never throw either: an `isError` result, a protocol error, a timeout or a server that
 * crashed mid-call each come back as an error tool result `MCP tool "…" failed: …`.
 *
 * @example
 * const mcp = await connectMcpServers({
 *   files: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] },
 *   search: { type: "http", url: "https://example.com/mcp", headers: { Authorization: `Bearer ${token}` } },
 * });
 * console.log(mcp.statuses());
 * const agent = createAgent({ model, tools: mcp.tools() });
 * // … later
 * await mcp.close();
 */
export async function connectMcpServers(
  configs: Record<string, McpServerConfig>,
  options: ConnectMcpServersOptions = {},
): Promise<McpConnections> {
  const entries = Object.entries(configs ?? {});
  throwIfAborted(options.signal);
  if (entries.length === 0) return connectionsOf([]);
  const sdk = await loadMcpClientSdk();
  throwIfAborted(options.signal);
  const segments = serverNameSegments(entries.map(([name]) => name));
  const clientInfo = {
    name: options.clientName ?? DEFAULT_MCP_CLIENT_NAME,
    version: options.clientVersion ?? DEFAULT_MCP_CLIENT_VERSION,
  };
  const onToolsChanged = () => options.onToolsChanged?.();
  const open = (index: number) => {
    const [name, config] = entries[index]!;
    return ServerConnection.open({
      name,
      segment: segments[index]!,
      config,
      sdk,
      clientInfo,
      signal: options.signal,
      onToolsChanged,
      onElicitation: options.onElicitation,
      pauseForInput: options.pauseForInput,
    });
  };
  const connections = await Promise.all(entries.map((_, index) => open(index)));
  if (options.signal?.aborted) {
    await Promise.all(connections.map((connection) => connection.close()));
    throwIfAborted(options.signal);
  }
  return connectionsOf(connections, open, onToolsChanged);
}

function connectionsOf(
  connections: ServerConnection[],
  open?: (index: number) => Promise<ServerConnection>,
  onToolsChanged?: () => void,
): McpConnections {
  let closing: Promise<void> | undefined;
  const reconnectPaused = async (servers?: readonly string[]) => {
    const paused = connections.flatMap((connection, index) =>
      connection.pausedAuthorization() && (!servers || servers.includes(connection.name)) ? [index] : [],
    );
    if (paused.length === 0 || !open) return;
    const reopened = await Promise.all(paused.map((index) => open(index)));
    if (closing) {
      await Promise.all(reopened.map((connection) => connection.close()));
      return;
    }
    paused.forEach((index, position) => {
      connections[index] = reopened[position]!;
    });
    if (reopened.some((connection) => connection.connected)) onToolsChanged?.();
  };
  return {
    ...createCatalog(connections),
    tools: () => connections.flatMap((connection) => connection.tools()),
    statuses: () => connections.map((connection) => connection.status()),
    pendingAuthorizations: () =>
      connections.flatMap((connection) => {
        const paused = connection.pausedAuthorization();
        return paused ? [{ server: connection.name, ...paused }] : [];
      }),
    reconnectPaused,
    close: () => {
      closing ??= Promise.all(connections.map((connection) => connection.close())).then(() => undefined);
      return closing;
    },
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError(signal.reason);
}
