/**
 * MCP server configuration (types only: the root entry never loads the MCP SDK).
 * @module
 */

/** A server started as a child process, spoken to over stdio. */
export interface McpStdioServerConfig {
  type: "stdio";
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** How long connecting (spawn + initialize + tools/list) may take. @default 30000 */
  connectTimeoutMs?: number;
}

/** A server over Streamable HTTP. */
export interface McpHttpServerConfig {
  type: "http";
  url: string;
  headers?: Record<string, string>;
  connectTimeoutMs?: number;
}

/** A server over the legacy HTTP+SSE transport. */
export interface McpSseServerConfig {
  type: "sse";
  url: string;
  headers?: Record<string, string>;
  connectTimeoutMs?: number;
}

/** One entry of `mcpServers`. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig | McpSseServerConfig;
