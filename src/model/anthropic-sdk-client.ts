/**
 * The built-in client over an Anthropic SDK client of the caller's — `new Anthropic(…)`,
 * `new AnthropicVertex(…)`, `new AnthropicBedrock(…)`, any 1.x version: requests go through its
 * public `messages.create`, with its own auth, base URL, fetch and middleware; the stream is read
 * through its public async iteration and assembled like the built-in wire's.
 * @module
 */
import type { AssistantModelMessage } from "../messages/types";
import { secretsWorthRedacting, urlSecretsOf } from "../shared/redact";
import { MAX_TIMER_MS } from "../shared/signals";
import { messageFromJsonBody } from "./anthropic-json-response";
import type { AnthropicRequestBody } from "./anthropic-request";
import type { RequestScope } from "./anthropic-request-failure";
import { StreamedResponse } from "./anthropic-streamed-response";
import { betasOf } from "./anthropic-tool-search";
import type { ModelRequest, ModelStreamEvent } from "./client";
import { COMPACT_EDIT, COMPACTION_BETA, CONTEXT_MANAGEMENT_BETA } from "./context-management";
import { sdkSpanParenting } from "./sdk-span-parenting";

/**
 * What the built-in client needs of an Anthropic SDK client: `messages.create(body, options)` as
 * every Anthropic SDK (`@anthropic-ai/sdk`, `@anthropic-ai/vertex-sdk`, `@anthropic-ai/bedrock-sdk`,
 * 1.x) declares it, and, when it has one, its `baseURL`. The parameters are `never` so that any
 * SDK's own request types fit: agent-lattice passes a Messages API body and
 * `{ signal, timeout, maxRetries: 0 }`.
 */
export interface AnthropicSdkClient {
  readonly messages: { create(body: never, options?: never): PromiseLike<unknown> };
  readonly baseURL?: string;
}

/** What `messages.create` is called with, as agent-lattice calls it. */
type CreateMessage = (
  body: AnthropicRequestBody & { stream: boolean },
  options: { signal: AbortSignal; timeout: number; maxRetries: number; headers?: Record<string, string> },
) => PromiseLike<unknown> & {
  withResponse?: () => PromiseLike<{ data: unknown; request_id?: string | null }>;
};

/** The SDK clients' fields that hold credentials (an API key, a token, AWS keys). */
const CREDENTIAL_FIELDS = [
  "apiKey",
  "authToken",
  "accessToken",
  "awsAccessKey",
  "awsSecretKey",
  "awsSessionToken",
];

/** The default `timeout` of the Anthropic SDKs: 10 minutes until the response headers arrive. */
const SDK_DEFAULT_TIMEOUT_MS = 600_000;

/** Whether `value` can serve as {@link AnthropicSdkClient}. */
export function isAnthropicSdkClient(value: unknown): value is AnthropicSdkClient {
  const messages = (value as { messages?: { create?: unknown } } | null | undefined)?.messages;
  return typeof messages?.create === "function";
}

/** The strings an error about this client must not show: its credentials, and those in its base URL. */
export function sdkClientSecrets(sdk: AnthropicSdkClient): string[] {
  const fields = sdk as unknown as Record<string, unknown>;
  return secretsWorthRedacting([
    ...CREDENTIAL_FIELDS.map((field) => fields[field]),
    ...urlSecretsOf(sdk.baseURL),
  ]);
}

/**
 * Sends one request through the SDK client — synchronously, before the first await, so that a
 * span the SDK starts is parented while the agent's `chat` span is current — then reads it:
 * streamed events one by one into the message, or the JSON message whole.
 */
export async function createSdkMessage(
  sdk: AnthropicSdkClient,
  body: AnthropicRequestBody,
  stream: boolean,
  request: ModelRequest,
  scope: RequestScope,
  secrets: readonly string[],
): Promise<AssistantModelMessage> {
  const client = tracedClient(sdk);
  const create = client.messages.create.bind(client.messages) as unknown as CreateMessage;
  const call = create(
    { ...body, stream },
    {
      signal: scope.signal,
      timeout: timeoutOf(client, request),
      maxRetries: 0,
      ...sdkBetaHeaders(body),
    },
  );
  const { data, requestId } = await settle(call);
  scope.progress.requestId = requestId;
  if (!isAsyncIterable(data)) {
    return messageFromJsonBody(data, requestId, secrets, scope.source);
  }
  const streamed = new StreamedResponse(request, scope);
  const events = data[Symbol.asyncIterator]();
  let ended = false;
  try {
    for (;;) {
      const next = await events.next();
      if (next.done) {
        ended = true;
        break;
      }
      if (streamed.accept(next.value as ModelStreamEvent)) break;
    }
  } finally {
    // Leaving the iteration early closes the SDK's stream (and its connection).
    if (!ended) await events.return?.(undefined)?.catch(() => undefined);
  }
  return streamed.finish();
}

/** The response and its request id: through the SDKs' public `withResponse()` when there is one. */
async function settle(
  call: ReturnType<CreateMessage>,
): Promise<{ data: unknown; requestId: string | undefined }> {
  if (typeof call.withResponse === "function") {
    const { data, request_id: requestId } = await call.withResponse();
    return { data, requestId: requestId ?? undefined };
  }
  return { data: await call, requestId: undefined };
}

/** The request's deadline, else the client's own `timeout` (always explicit: see `anthropic.ts`). */
function timeoutOf(sdk: AnthropicSdkClient, request: ModelRequest): number {
  if (request.timeoutMs) return Math.min(request.timeoutMs, MAX_TIMER_MS);
  const own = (sdk as { timeout?: unknown }).timeout;
  return typeof own === "number" && own > 0 ? own : SDK_DEFAULT_TIMEOUT_MS;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function"
  );
}

/** The copies of SDK clients whose spans are parented to the agent's model spans, by original. */
const tracedCopies = new WeakMap<object, AnthropicSdkClient>();

/**
 * The client to send with: once an agent has telemetry on, a copy of `sdk` (made once, with its
 * public `withOptions`) whose tracer starts its spans as children of the agent's `chat` span in
 * progress — never as orphan roots when no OpenTelemetry context manager is registered. A client
 * whose own spans are off (`openTelemetry: false`), or without `withOptions`, is used as it is.
 */
function tracedClient(sdk: AnthropicSdkClient): AnthropicSdkClient {
  const parenting = sdkSpanParenting();
  if (!parenting) return sdk;
  const cached = tracedCopies.get(sdk);
  if (cached) return cached;
  const client = sdk as unknown as {
    openTelemetry?: { traces?: { enabled?: unknown }; tracerProvider?: unknown };
    withOptions?: (options: { openTelemetry: unknown }) => AnthropicSdkClient;
  };
  let copy: AnthropicSdkClient = sdk;
  const settled = client.openTelemetry;
  if (settled?.traces?.enabled === true && typeof client.withOptions === "function") {
    copy = client.withOptions({
      openTelemetry: { ...settled, tracerProvider: parenting.tracerProvider(settled.tracerProvider) },
    });
  }
  tracedCopies.set(sdk, copy);
  return copy;
}

/**
 * The `anthropic-beta` header a body needs, as an SDK request option (the SDKs merge a per-request
 * `anthropic-beta` with their own headers): tool search, context management when the body asks
 * for edits or declares a native tool other than the search tool, compaction when it asks for
 * server compaction.
 */
function sdkBetaHeaders(body: AnthropicRequestBody): { headers?: Record<string, string> } {
  const betas = betasOf(body);
  const nativeTool = body.tools?.some((tool) => "type" in tool && !tool.type.startsWith("tool_search_tool_"));
  const edits = body.context_management?.edits ?? [];
  if (edits.some((edit) => edit.type !== COMPACT_EDIT) || nativeTool) betas.push(CONTEXT_MANAGEMENT_BETA);
  if (edits.some((edit) => edit.type === COMPACT_EDIT)) betas.push(COMPACTION_BETA);
  return betas.length > 0 ? { headers: { "anthropic-beta": betas.join(",") } } : {};
}
