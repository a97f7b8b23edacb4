/**
 * `agent-lattice/mcp`: connect to MCP servers (the client side behind `mcpServers`) and serve our
 * own tools as an MCP server. Needs the optional peer dependency `@modelcontextprotocol/sdk`.
 *
 * Any new export added here becomes public API: named exports only.
 * @module
 */

import { registerRunTimeModule } from "../../shared/run-time-import";
import { connectMcpServers as connect } from "./connect";

export type { McpServerStatus } from "../../messages/sdk-messages";
export type {
  McpCatalog,
  McpPromptInfo,
  McpPromptResult,
  McpResourceContents,
  McpResourceInfo,
  McpResourceTemplateInfo,
} from "./catalog-types";
export {
  DEFAULT_MCP_CONNECT_TIMEOUT_MS,
  DEFAULT_MCP_TOOL_TIMEOUT_MS,
  type McpHttpServerConfig,
  type McpLogEntry,
  type McpProgress,
  type McpServerConfig,
  type McpServerTimeouts,
  type McpSseServerConfig,
  type McpStdioServerConfig,
} from "./config";
export {
  type ConnectMcpServersOptions,
  connectMcpServers,
  DEFAULT_MCP_CLIENT_NAME,
  DEFAULT_MCP_CLIENT_VERSION,
  type McpConnections,
  type McpPendingAuthorization,
} from "./connect";
export type {
  McpElicitationAnswer,
  McpElicitationContext,
  McpElicitationHandler,
  McpElicitationRequest,
} from "./elicitation-types";
export {
  DEFAULT_MCP_AUTHORIZATION_STATE_TTL_MS,
  DEFAULT_MCP_AUTHORIZATION_TIMEOUT_MS,
  type McpHttpAuth,
  type McpOAuthClientProvider,
  type McpPausedAuthorizationRecord,
  type McpPrivateKeyJwt,
  type McpStoredCredentials,
  type McpTokenStore,
} from "./oauth/auth-options";
export { McpAuthorizationError, type McpAuthorizationFailure } from "./oauth/authorization-error";
export {
  type FinishedMcpAuthorization,
  type FinishMcpAuthorizationOptions,
  finishMcpAuthorization,
} from "./oauth/finish-authorization";
export {
  createMcpTokenStore,
  DEFAULT_MCP_TOKEN_KEY_PREFIX,
  DEFAULT_MCP_TOKEN_TABLE,
  type McpTokenPostgresClient,
  type McpTokenRedisClient,
  type McpTokenSqliteDatabase,
  type McpTokenStoreOptions,
} from "./oauth/token-stores";
export {
  type CreateMcpServerOptions,
  createMcpServer,
  DEFAULT_MCP_SESSION_IDLE_TIMEOUT_MS,
  type McpHttpListener,
  type McpListenOptions,
  type McpToolServer,
} from "./server";

// An agent's `mcpServers` load this entry at run time (see shared/run-time-import.ts); importing
// it registers it, so a bundle that imports it (one file, no node_modules) needs no import then.
registerRunTimeModule("agent-lattice/mcp", { connectMcpServers: connect });
