/**
 * The handler's refusals: an HTTP status, a stable code and a sentence, answered as JSON
 * (`{ "error": { "code", "message" } }`) before anything is recorded.
 * @module
 */

/** A request the chat handler refuses (4xx). */
export class ChatRequestError extends Error {
  override readonly name = "ChatRequestError";
  constructor(
    /** The HTTP status answered. */
    readonly status: number,
    /** A stable machine-readable code (`invalid_json`, `no_user_message`, `conversation_busy` …). */
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The JSON response for a refusal. */
export function errorResponse(error: ChatRequestError): Response {
  return Response.json(
    { error: { code: error.code, message: error.message } },
    { status: error.status, headers: { "cache-control": "no-store" } },
  );
}
