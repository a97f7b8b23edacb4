/**
 * MCP server configuration (types and defaults only: the root entry never loads the MCP SDK).
 * @module
 */
import type { McpHttpAuth, McpOAuthClientProvider } from "./oauth/auth-options";

/**
 * How long connecting to one server (start + `initialize` + `tools/list`) may take, by default. An
 * `http` server whose `auth` may ask a person to authorize in a browser gets
 * `DEFAULT_MCP_AUTHORIZATION_TIMEOUT_MS` (5 minutes) instead.
 */
export const DEFAULT_MCP_CONNECT_TIMEOUT_MS = 30_000;

/**
 * How long one `tools/call` may take by default. A progress notification from the server restarts
 * the clock; the agent's own abort signal ends the call sooner.
 */
export const DEFAULT_MCP_TOOL_TIMEOUT_MS = 600_000;

/** Settings every kind of server accepts. */
export interface McpServerTimeouts {
  /**
   * How long connecting (spawn + initialize + tools/list, and an authorization) may take.
   * @default 30000 (300000 for an `http` server whose `auth` may ask a person)
   */
  connectTimeoutMs?: number;
  /** How long one tool call may take; server progress notifications restart the clock. @default 600000 */
  toolTimeoutMs?: number;
  /**
   * Defer every tool of this server: left out of the requests until the model finds it with tool
   * search (`AgentOptions.toolSearch`). For servers with many tools. @default false
   */
  deferLoading?: boolean;
  /**
   * Offer the model two read-only tools for this server's resources, `mcp__<server>__list_resources`
   * and `mcp__<server>__read_resource` (when the server offers resources). @default false
   */
  resourceTools?: boolean;
  /**
   * Receives the server's log messages (`notifications/message`), configured secrets redacted.
   * Must not throw (errors are ignored).
   */
  onLog?: (entry: McpLogEntry) => void;
  /**
   * Receives the progress a server reports during a tool call (each report also restarts the
   * call's `toolTimeoutMs`). Must not throw (errors are ignored).
   */
  onProgress?: (progress: McpProgress) => void;
}

/** A server's log message. */
export interface McpLogEntry {
  server: string;
  /** The syslog level the server gave: `debug`, `info`, `notice`, `warning`, `error`, … */
  level: string;
  logger?: string;
  /** What the server logged: a string or any JSON value. */
  data: unknown;
}

/** A progress report of a running tool call. */
export interface McpProgress {
  server: string;
  /** The exposed tool name, `mcp__<server>__<tool>`. */
  tool: string;
  progress: number;
  total?: number;
  message?: string;
}

/**
 * A server started as a child process, spoken to over stdio. The child gets a small safe
 * environment (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`) with `env` merged over it — never
 * the whole environment of this process. Its stderr is captured, and the last lines are quoted when
 * the server fails.
 */
export interface McpStdioServerConfig extends McpServerTimeouts {
  type: "stdio";
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** A server over Streamable HTTP. */
export interface McpHttpServerConfig extends McpServerTimeouts {
  type: "http";
  url: string;
  /** Sent with every request (e.g. `Authorization`). Values never appear in reported errors. */
  headers?: Record<string, string>;
  /**
   * OAuth 2.1, as the MCP authorization spec has it (see {@link McpHttpAuth}), or an object
   * implementing the MCP SDK's `OAuthClientProvider`, used as it is. Tokens and secrets never
   * appear in reported errors, history or messages.
   */
  auth?: McpHttpAuth | McpOAuthClientProvider;
}

/** A server over the legacy HTTP+SSE transport. */
export interface McpSseServerConfig extends McpServerTimeouts {
  type: "sse";
  url: string;
  /** Sent with the event stream request and every message. Values never appear in reported errors. */
  headers?: Record<string, string>;
}

/** One entry of `mcpServers`. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig | McpSseServerConfig;
