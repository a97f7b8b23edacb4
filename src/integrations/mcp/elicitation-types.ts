/**
 * Elicitation: an MCP server asking the user something in the middle of a tool call (types only:
 * the root entry's `AgentOptions.onElicitation` names them without loading the MCP SDK).
 * @module
 */

/** What a server asks. */
export interface McpElicitationRequest {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The question, in the server's words. */
  message: string;
  /** `form`: answer with `content` matching `requestedSchema`; `url`: the person visits `url`. */
  mode: "form" | "url";
  /** Form mode: a flat JSON Schema object of the fields wanted (with `default`s the client fills in). */
  requestedSchema?: unknown;
  /** URL mode: the page the person should open (out of band; the answer says only whether they agreed). */
  url?: string;
  /** URL mode: the server's id of this elicitation. */
  elicitationId?: string;
}

/** Where the question comes from: the tool call running when the server asked (when one alone was). */
export interface McpElicitationContext {
  /** Aborted when the server gives up on the question or the connection closes. */
  signal: AbortSignal;
  /** The exposed name of the tool call running (`mcp__<server>__<tool>`), when one alone was. */
  toolName?: string;
}

/** An answer: `accept` with `content` (form mode), or `decline` / `cancel`. */
export interface McpElicitationAnswer {
  action: "accept" | "decline" | "cancel";
  /**
   * Form mode, with `accept`: the fields. Fields left out get the schema's `default` values before
   * the answer is sent.
   */
  content?: Record<string, unknown>;
}

/**
 * Answers a server's question. Return `"pause"` to leave it unanswered (the server is told
 * `cancel`). Errors thrown are answered `cancel` too. Must settle: the tool call waits for it.
 */
export type McpElicitationHandler = (
  request: McpElicitationRequest,
  context: McpElicitationContext,
) => Promise<McpElicitationAnswer | "pause">;
