/**
 * Resources and prompts of connected MCP servers, as `agent.mcp` and `connectMcpServers` expose
 * them (types only: the root entry's `Agent` names them without loading the MCP SDK).
 * @module
 */

/** A resource a server lists. */
export interface McpResourceInfo {
  /** The server's name in `mcpServers`. */
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}

/** A resource template (RFC 6570 `uriTemplate`) a server lists. */
export interface McpResourceTemplateInfo {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One part of a read resource: `text`, or base64 `blob`. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** A prompt a server lists. */
export interface McpPromptInfo {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

/** A prompt filled in with its arguments: the messages as the server wrote them (MCP content blocks). */
export interface McpPromptResult {
  description?: string;
  messages: Array<{ role: "user" | "assistant"; content: unknown }>;
}

/**
 * Resources and prompts of the connected servers. A list covers every page the server returns
 * (`server` names one server; without it, every connected server that offers the feature, in
 * config order). Failures reject with an `Error` whose message never holds a configured secret.
 */
export interface McpCatalog {
  listResources(server?: string): Promise<McpResourceInfo[]>;
  listResourceTemplates(server?: string): Promise<McpResourceTemplateInfo[]>;
  readResource(server: string, uri: string): Promise<McpResourceContents[]>;
  listPrompts(server?: string): Promise<McpPromptInfo[]>;
  getPrompt(server: string, name: string, args?: Record<string, string>): Promise<McpPromptResult>;
}
