/**
 * Answering a server's `elicitation/create` with the user's `onElicitation`: the request as the
 * handler reads it, its answer checked, the schema's defaults applied (by the SDK, which the
 * declared `applyDefaults` asks for) and a handler that throws answered `cancel`. A question asked
 * during a call the agent's loop runs may pause the query instead (`call-questions.ts`): what is
 * recorded for the pause, and compared when the call is issued again, is the question with the
 * server's configured secrets and credential-shaped text redacted ({@link redactedQuestion}).
 * @module
 */
import type { ElicitRequest, ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import type { CallQuestions } from "./call-questions";
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
  const answer = await askHandler(handler, asked, context);
  return answer === "pause" ? { action: "cancel" } : answer;
}

/**
 * Answers a question asked during `call` (a call run by an agent's loop, which may pause): from
 * the answers stored for it, else from `handler`; when that pauses (or there is none), the
 * question is recorded on the call and the server is told `cancel`. Outside such a call a pause
 * is `cancel`. `redact` is the connection's (its configured secrets, tokens it learned, and
 * credential shapes): the question is recorded redacted — it goes to history, the query's result,
 * a web page — and the same question asked again matches it once redacted the same way.
 */
export async function routeElicitation(
  asked: McpElicitationRequest,
  call: CallQuestions | undefined,
  handler: McpElicitationHandler | undefined,
  context: { signal: AbortSignal; toolName?: string },
  redact: (text: string) => string = (text) => text,
): Promise<ElicitResult> {
  const recorded = call ? redactedQuestion(asked, redact) : asked;
  const stored = call?.answerFor(recorded);
  if (stored) return resultOf(stored, asked.mode);
  const answer = handler ? await askHandler(handler, asked, context) : "pause";
  if (answer !== "pause") return answer;
  call?.pause(recorded);
  return { action: "cancel" };
}

/** `asked` with `redact` applied to its message, its URL and every string of its requested schema. */
export function redactedQuestion(
  asked: McpElicitationRequest,
  redact: (text: string) => string,
): McpElicitationRequest {
  const clean: McpElicitationRequest = { ...asked, message: redact(asked.message) };
  if (asked.url !== undefined) clean.url = redact(asked.url);
  if (asked.requestedSchema !== undefined)
    clean.requestedSchema = redactStrings(asked.requestedSchema, redact);
  return clean;
}

/** A JSON value with `redact` applied to each string in it (keys are the fields' names: kept). */
function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactStrings(item, redact);
  return copy;
}

/** The handler's answer as sent to the server, or `"pause"`; a throw or a malformed answer is `cancel`. */
async function askHandler(
  handler: McpElicitationHandler,
  asked: McpElicitationRequest,
  context: { signal: AbortSignal; toolName?: string },
): Promise<ElicitResult | "pause"> {
  let answer: McpElicitationAnswer | "pause";
  try {
    answer = await handler(asked, context);
  } catch {
    return { action: "cancel" };
  }
  if (answer === "pause") return "pause";
  if (typeof answer !== "object" || answer === null) return { action: "cancel" };
  return resultOf(answer, asked.mode);
}

/** An answer as the server gets it: `accept` carries the fields in form mode only; anything unknown is `cancel`. */
function resultOf(answer: McpElicitationAnswer, mode: McpElicitationRequest["mode"]): ElicitResult {
  if (answer.action === "decline" || answer.action === "cancel") return { action: answer.action };
  if (answer.action !== "accept") return { action: "cancel" };
  if (mode === "url") return { action: "accept" };
  const content = answer.content;
  const fields = typeof content === "object" && content !== null && !Array.isArray(content) ? content : {};
  return { action: "accept", content: { ...fields } as ElicitResult["content"] };
}
