/**
 * Answering a server's `elicitation/create` with the user's `onElicitation`: the request as the
 * handler reads it, its answer checked, the schema's defaults applied (by the SDK, which the
 * declared `applyDefaults` asks for) and a handler that throws or pauses answered `cancel`.
 * @module
 */
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpElicitationAnswer, McpElicitationHandler, McpElicitationRequest } from "./elicitation-types";

/** The client capability declared when elicitations are answered: both modes, defaults applied. */
export const ELICITATION_CAPABILITY = { elicitation: { form: { applyDefaults: true }, url: {} } };

/** The request as `onElicitation` gets it. */
export function elicitationRequestOf(server: string, request: ElicitRequest): McpElicitationRequest {
  const params = request.params as Record<string, unknown>;
  const mode = params.mode === "url" ? "url" : "form";
  const asked: McpElicitationRequest = { server, message: String(params.message ?? ""), mode };
  if (params.requestedSchema !== undefined) asked.requestedSchema = params.requestedSchema;
  if (typeof params.url === "string") asked.url = params.url;
  if (typeof params.elicitationId === "string") asked.elicitationId = params.elicitationId;
  return asked;
}

/** Asks `handler`; anything but a well-formed answer (a pause, a throw, a malformed value) is `cancel`. */
export async function answerElicitation(
  handler: McpElicitationHandler,
  asked: McpElicitationRequest,
  context: { signal: AbortSignal; toolName?: string },
): Promise<ElicitResult> {
  let answer: McpElicitationAnswer | "pause";
  try {
    answer = await handler(asked, context);
  } catch {
    return { action: "cancel" };
  }
  if (answer === "pause" || typeof answer !== "object" || answer === null) return { action: "cancel" };
  if (answer.action === "decline" || answer.action === "cancel") return { action: answer.action };
  if (answer.action !== "accept") return { action: "cancel" };
  if (asked.mode === "url") return { action: "accept" };
  const content = answer.content;
  const fields = typeof content === "object" && content !== null && !Array.isArray(content) ? content : {};
  return { action: "accept", content: { ...fields } as ElicitResult["content"] };
}
