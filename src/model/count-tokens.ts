/**
 * Counting a request's input tokens with the Messages API's `POST /v1/messages/count_tokens`, over
 * `fetch` or through an SDK client's `messages.countTokens`: the measured half of
 * `agent.getContextUsage()`.
 * @module
 */
import type { FetchLike } from "./anthropic-http";
import { toCountTokensBody } from "./anthropic-request";
import type { AnthropicSdkClient } from "./anthropic-sdk-client";
import { withBetaHeader } from "./anthropic-tool-search";
import type { ModelRequest } from "./client";
import { CONTEXT_MANAGEMENT_BETA } from "./context-management";

/** The counting URL beside a messages URL: `…/v1/messages?q` → `…/v1/messages/count_tokens?q`. */
export function countTokensUrlOf(messagesUrl: string): string {
  const url = new URL(messagesUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/count_tokens`;
  return url.toString();
}

/**
 * Counts over `fetch`. Throws when the endpoint does not count (a non-2xx answer, a body without
 * `input_tokens`): the caller estimates instead.
 */
export async function countTokensOverFetch(
  transport: { url: string; headers: Readonly<Record<string, string>>; fetch: FetchLike },
  request: ModelRequest,
): Promise<number> {
  const body = toCountTokensBody(request);
  const response = await transport.fetch(countTokensUrlOf(transport.url), {
    method: "POST",
    headers: withBetaHeader(transport.headers, betasOfCount(body)),
    body: JSON.stringify(body),
    signal: request.signal,
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`token counting is not available (status ${response.status})`);
  }
  return inputTokensOf(await response.json());
}

/** Counts through an SDK client's `messages.countTokens`; throws when it has none or it fails. */
export async function countTokensOverSdk(sdk: AnthropicSdkClient, request: ModelRequest): Promise<number> {
  const messages = sdk.messages as {
    countTokens?: (body: unknown, options?: unknown) => PromiseLike<unknown>;
  };
  if (typeof messages.countTokens !== "function")
    throw new Error("the SDK client has no messages.countTokens");
  const body = toCountTokensBody(request);
  const betas = betasOfCount(body);
  return inputTokensOf(
    await messages.countTokens(body, {
      signal: request.signal,
      maxRetries: 0,
      ...(betas.length > 0 && { headers: { "anthropic-beta": betas.join(",") } }),
    }),
  );
}

/** The beta a counting body needs: context management's, when it carries edits. */
function betasOfCount(body: Record<string, unknown>): string[] {
  return body.context_management !== undefined ? [CONTEXT_MANAGEMENT_BETA] : [];
}

function inputTokensOf(body: unknown): number {
  const tokens = (body as { input_tokens?: unknown } | null)?.input_tokens;
  if (typeof tokens !== "number" || !Number.isFinite(tokens) || tokens < 0)
    throw new Error("token counting answered without input_tokens");
  return tokens;
}
