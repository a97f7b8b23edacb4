/**
 * The error of finishing a paused authorization (`finishMcpAuthorization`).
 * @module
 */
import { AgentLatticeError } from "../../../errors";

/** Why a paused authorization could not be finished. */
export type McpAuthorizationFailure =
  /**
   * The callback carries no `state`, or one no paused authorization has: forged, already used, or
   * expired and since deleted from the token store (the built-in stores delete expired pauses).
   */
  | "unknown_state"
  /** The paused authorization was older than `auth.stateTtlMs` (and still in the token store). */
  | "expired"
  /** The authorization server redirected with an `error` (the person declined, or it refused). */
  | "refused"
  /** The callback names a server that `mcpServers` does not configure with `redirect: "pause"` at that URL. */
  | "unknown_server"
  /** The token request failed (the code was already used or expired, the client was refused…). */
  | "exchange_failed";

/**
 * Thrown by `finishMcpAuthorization`. Its message never holds the code, the state, the verifier,
 * a token or a client secret: only what went wrong, in the authorization server's short words.
 */
export class McpAuthorizationError extends AgentLatticeError {
  constructor(
    /** What went wrong. */
    readonly reason: McpAuthorizationFailure,
    message: string,
    /** The server's name in `mcpServers`, once known. */
    readonly server?: string,
  ) {
    super(message);
  }
}
