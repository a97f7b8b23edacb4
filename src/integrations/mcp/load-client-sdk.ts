/**
 * Loads the client half of `@modelcontextprotocol/sdk` on demand, so that importing the connector
 * costs nothing until a server is configured, and a missing peer dependency is reported clearly.
 * @module
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import type { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { InvalidOptionError } from "../../errors";

/** The parts of the MCP SDK the connector uses. */
export interface McpClientSdk {
  Client: typeof Client;
  StdioClientTransport: typeof StdioClientTransport;
  /** The environment a stdio server starts from (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  getDefaultEnvironment: typeof getDefaultEnvironment;
  /** Newline-delimited JSON-RPC framing of stdio. */
  ReadBuffer: typeof ReadBuffer;
  serializeMessage: typeof serializeMessage;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  SSEClientTransport: typeof SSEClientTransport;
  ToolListChangedNotificationSchema: typeof ToolListChangedNotificationSchema;
  ElicitRequestSchema: typeof ElicitRequestSchema;
  LoggingMessageNotificationSchema: typeof LoggingMessageNotificationSchema;
}

let loading: Promise<McpClientSdk> | undefined;

/**
 * Imports the MCP client SDK once. Rejects with an {@link InvalidOptionError} naming the package to
 * install when it is missing.
 */
export function loadMcpClientSdk(): Promise<McpClientSdk> {
  loading ??= importClientSdk().catch((error: unknown) => {
    loading = undefined;
    throw isSdkNotFound(error)
      ? new InvalidOptionError(
          "mcpServers needs the optional peer dependency @modelcontextprotocol/sdk: npm install @modelcontextprotocol/sdk",
          { cause: error },
        )
      : error;
  });
  return loading;
}

async function importClientSdk(): Promise<McpClientSdk> {
  const [client, stdio, stdioFraming, streamableHttp, sse, types] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/stdio.js"),
    import("@modelcontextprotocol/sdk/shared/stdio.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]);
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    ReadBuffer: stdioFraming.ReadBuffer,
    serializeMessage: stdioFraming.serializeMessage,
    StreamableHTTPClientTransport: streamableHttp.StreamableHTTPClientTransport,
    SSEClientTransport: sse.SSEClientTransport,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    ElicitRequestSchema: types.ElicitRequestSchema,
    LoggingMessageNotificationSchema: types.LoggingMessageNotificationSchema,
  };
}

/** Whether the SDK itself is missing (not one of its own dependencies). */
function isSdkNotFound(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const notFound = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
  return notFound && typeof message === "string" && message.includes("@modelcontextprotocol/sdk");
}
