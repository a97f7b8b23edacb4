/**
 * Reading a plain JSON response of the Messages API (`stream: false`, or an endpoint that answers a
 * streaming request with one JSON body): the message, an API error body, or a body that is no
 * message at all — each failure a {@link ProviderError} that names what came instead.
 * @module
 */
import { ProviderError } from "../errors";
import type { AssistantModelMessage } from "../messages/types";
import { redact } from "../shared/redact";
import { type AnthropicResponseBody, toAssistantMessage } from "./anthropic-response";
import { toProviderError } from "./errors";

/**
 * Reads a JSON response as the message; the request id is known before the body is read, so a
 * body cut mid-way still fails with the id of the request it belonged to. `source` names the
 * service in errors ("Anthropic API", "Model provider host:port").
 */
export async function readJsonMessage(
  response: Response,
  progress: { requestId?: string },
  secrets: readonly string[],
  source: string,
): Promise<AssistantModelMessage> {
  const requestId = response.headers.get("request-id") ?? undefined;
  progress.requestId = requestId;
  const body = await readJsonBody(response, requestId, secrets, source);
  return messageFromJsonBody(body, requestId, secrets, source);
}

/**
 * The parsed JSON body. A body that is no JSON at all (a proxy's HTML page, a web application
 * behind a wrong `baseURL`) is a non-retryable ProviderError naming the content type and showing
 * the start of the body; a body cut by the network still fails as the connection error it is.
 */
export async function readJsonBody(
  response: Response,
  requestId: string | undefined,
  secrets: readonly string[],
  source: string,
): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    throw notAMessageError("not JSON", response, { start: text, requestId }, secrets, source);
  }
}

/**
 * A 200 whose body is not what was asked for: a non-retryable ProviderError saying what came
 * instead (`body.start`: the start of the body), naming the service as `source`.
 */
export function notAMessageError(
  what: string,
  response: Response,
  { start, requestId }: { start: string; requestId: string | undefined },
  secrets: readonly string[],
  source: string,
): ProviderError {
  const contentType = response.headers.get("content-type");
  const body = start.trim() ? snippet(start, secrets) : "an empty body";
  return new ProviderError(
    `${source}: the response is ${what} (${contentType ? `content-type ${redact(contentType, secrets)}` : "no content-type"}): ${body}${requestId ? ` (request-id ${requestId})` : ""}`,
    { status: response.status, requestId, retryable: false },
  );
}

/**
 * A JSON response body as a message; an API error body or a body that is no message is a failure
 * naming the service as `source`.
 */
export function messageFromJsonBody(
  parsed: unknown,
  requestId: string | undefined,
  secrets: readonly string[],
  source: string,
): AssistantModelMessage {
  if (isRecord(parsed) && parsed.type === "error") {
    // An endpoint that answers 200 with the Messages API error body: the same failure as the
    // stream's `error` event (an overloaded_error is retried).
    throw toProviderError({ ...parsed, requestID: requestId }, { label: source });
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.content)) {
    throw new ProviderError(
      `${source}: the response is not a message (no content array): ${snippet(JSON.stringify(parsed) ?? "", secrets)}${requestId ? ` (request-id ${requestId})` : ""}`,
      { requestId, retryable: false },
    );
  }
  return toAssistantMessage(parsed as AnthropicResponseBody);
}

/** Whether the response says its body is JSON (`application/json`, `application/…+json`). */
export function isJsonResponse(response: Response): boolean {
  return /^application\/(?:[\w.+-]*\+)?json\b/i.test(response.headers.get("content-type") ?? "");
}

/** The start of a response text for an error message: redacted first, so no secret is cut in two. */
export function snippet(text: string, secrets: readonly string[]): string {
  return redact(text, secrets).replace(/\s+/g, " ").trim().slice(0, 80);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
