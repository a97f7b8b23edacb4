/**
 * What the loop knows of MCP servers that paused for authorization (`auth.redirect: "pause"`): the
 * agent's MCP attachment sets it on the conversation; the loop pauses a query on it before the
 * model is called, and tells it what the person answered. Types only: the loop never imports MCP.
 * @module
 */

/** A server waiting for a person to authorize it. */
export interface WaitingAuthorization {
  /** The server's name in `mcpServers`. */
  server: string;
  /** The authorization URL the person should open. */
  url: string;
}

/** The MCP servers waiting for authorization, and where the person's answers go. */
export interface AuthorizationGate {
  /** The servers waiting now (none declined in this agent), in config order. */
  waiting(): WaitingAuthorization[];
  /**
   * The person answered `decline` or `cancel` for `server`: it stays unavailable for this agent
   * (its status says so) and is not asked about again.
   */
  decline(server: string, action: "decline" | "cancel"): void;
}
