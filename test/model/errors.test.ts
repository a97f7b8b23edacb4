import { inspect } from "node:util";
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  RateLimitError,
} from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AbortError, ProviderError, TimeoutError } from "../../src/errors";
import { isAbortError, toProviderError } from "../../src/model/errors";
import { isPromptTooLongError } from "../../src/model/prompt-too-long";

const SECRET = "custom-secret-7Hq2Zp9Lm4";

afterEach(() => {
  vi.useRealTimers();
});

/** An error whose cause chain ends in a socket-level code, as undici's fetch throws them. */
function fetchFailure(code: string): TypeError {
  return new TypeError("fetch failed", {
    cause: Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code }),
  });
}

describe("toProviderError — what is transient", () => {
  it.each([408, 409, 429, 500, 502, 503, 504, 529, 599])("status %i is retryable", (status) => {
    const error = toProviderError(Object.assign(new Error("failed"), { status }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.status).toBe(status);
    expect(error.retryable).toBe(true);
  });

  it.each([400, 401, 403, 404, 413, 422])("status %i is not retryable", (status) => {
    expect(toProviderError({ status, message: "no" }).retryable).toBe(false);
  });

  it("reads statusCode and response.status from custom clients", () => {
    expect(toProviderError({ statusCode: 503 })).toMatchObject({ status: 503, retryable: true });
    expect(toProviderError({ response: { status: 429 } })).toMatchObject({ status: 429, retryable: true });
  });

  it.each([
    ["type", { type: "overloaded_error", message: "busy" }],
    ["error.type", { error: { type: "overloaded_error", message: "busy" } }],
    ["error.error.type", { error: { type: "error", error: { type: "overloaded_error", message: "busy" } } }],
  ])("an overloaded_error in %s is retryable without a status", (_where, error) => {
    expect(toProviderError(error)).toMatchObject({
      errorType: "overloaded_error",
      retryable: true,
      status: undefined,
    });
  });

  it("rate_limit_error and api_error are retryable; invalid_request_error is not", () => {
    expect(toProviderError({ error: { type: "rate_limit_error" } }).retryable).toBe(true);
    expect(toProviderError({ error: { type: "api_error" } }).retryable).toBe(true);
    expect(toProviderError({ error: { type: "invalid_request_error" } }).retryable).toBe(false);
  });

  it.each(["ECONNRESET", "ECONNREFUSED", "EPIPE", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT"])(
    "a network failure with %s along the cause chain is retryable",
    (code) => {
      const error = toProviderError(fetchFailure(code));
      expect(error.retryable).toBe(true);
      expect(error.message).toContain(code);
    },
  );

  it("a cut stream ('terminated') and an SDK APIConnectionError are retryable", () => {
    expect(toProviderError(new TypeError("terminated")).retryable).toBe(true);
    const sdkError = new APIConnectionError({ cause: fetchFailure("ECONNRESET") });
    const error = toProviderError(sdkError);
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(/^Anthropic API connection error: Connection error: fetch failed/);
    expect(toProviderError(new APIConnectionTimeoutError()).retryable).toBe(true);
  });

  it("ENOTFOUND is a configuration error, not retried, even inside an SDK connection error", () => {
    expect(toProviderError(fetchFailure("ENOTFOUND")).retryable).toBe(false);
    expect(toProviderError(new APIConnectionError({ cause: fetchFailure("ENOTFOUND") })).retryable).toBe(
      false,
    );
  });

  it("our own timeouts and aborts are never retryable", () => {
    expect(toProviderError(new TimeoutError(1000)).retryable).toBe(false);
    expect(toProviderError(new DOMException("The operation was aborted.", "AbortError")).retryable).toBe(
      false,
    );
    expect(toProviderError(new AbortError()).retryable).toBe(false);
    expect(toProviderError(new APIUserAbortError()).retryable).toBe(false);
  });

  it("a client's own boolean retryable or nonRetryable wins", () => {
    expect(toProviderError({ status: 500, retryable: false }).retryable).toBe(false);
    expect(toProviderError({ message: "flaky backend", retryable: true }).retryable).toBe(true);
    expect(
      toProviderError(Object.assign(new Error("bad"), { status: 503, nonRetryable: true })).retryable,
    ).toBe(false);
  });

  it("anything else is not retryable and keeps its message", () => {
    const plain = toProviderError(new Error("boom"));
    expect(plain).toMatchObject({
      retryable: false,
      status: undefined,
      errorType: undefined,
      partial: false,
    });
    expect(plain.message).toBe("Model provider: boom");
    expect(toProviderError("a thrown string").message).toBe("Model provider: a thrown string");
    expect(toProviderError(undefined).retryable).toBe(false);
  });
});

describe("toProviderError — what it keeps", () => {
  it("keeps an SDK APIError's status, type, API message and request id in a readable message", () => {
    const headers = new Headers({ "request-id": "req_123" });
    const body = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
    const error = toProviderError(APIError.generate(529, body, undefined, headers));
    expect(error).toMatchObject({
      status: 529,
      errorType: "overloaded_error",
      requestId: "req_123",
      retryable: true,
    });
    expect(error.message).toBe("Anthropic API 529 overloaded_error: Overloaded (request-id req_123)");
  });

  it("reads retry-after in seconds, retry-after-ms first, and an HTTP date", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
    const seconds = new RateLimitError(429, undefined, "slow", new Headers({ "retry-after": "3" }));
    expect(toProviderError(seconds).retryAfterMs).toBe(3000);
    const both = new Headers({ "retry-after": "3", "retry-after-ms": "250" });
    expect(toProviderError({ status: 429, headers: both }).retryAfterMs).toBe(250);
    const date = { status: 429, headers: { "Retry-After": "Thu, 01 Jan 2026 00:00:30 GMT" } };
    expect(toProviderError(date).retryAfterMs).toBe(30_000);
    const past = { status: 429, response: { headers: { "retry-after": "Wed, 31 Dec 2025 23:59:00 GMT" } } };
    expect(toProviderError(past).retryAfterMs).toBe(0);
    expect(toProviderError({ status: 429, headers: { "retry-after": "soon" } }).retryAfterMs).toBeUndefined();
    expect(toProviderError({ status: 503, retryAfterMs: 1200 }).retryAfterMs).toBe(1200);
  });

  it("finds the request id in headers, SDK fields and the error body", () => {
    expect(toProviderError({ status: 500, headers: { "x-request-id": "req_x" } }).requestId).toBe("req_x");
    expect(toProviderError({ status: 500, requestId: "req_field" }).requestId).toBe("req_field");
    expect(
      toProviderError({
        status: 500,
        error: { type: "error", error: { type: "api_error" }, request_id: "req_body" },
      }).requestId,
    ).toBe("req_body");
  });

  it("keeps a clean original error as cause, and passes a ProviderError through", () => {
    const original = Object.assign(new Error("upstream"), { status: 503 });
    expect(toProviderError(original).cause).toBe(original);
    const already = new ProviderError("Anthropic API 529 overloaded_error: Overloaded", {
      retryable: true,
      status: 529,
    });
    expect(toProviderError(already)).toBe(already);
    expect(toProviderError(already, { partial: true }).partial).toBe(true);
  });
});

describe("toProviderError — secrets", () => {
  function expectClean(error: ProviderError, secret: string): void {
    for (const view of [
      String(error),
      error.stack ?? "",
      JSON.stringify(error),
      inspect(error, { depth: 10, showHidden: true }),
    ]) {
      expect(view).not.toContain(secret);
    }
  }

  it("scrubs every given secret from the message", () => {
    const error = toProviderError(new Error(`401 invalid key ${SECRET} (key ${SECRET})`), {
      secrets: [SECRET],
    });
    expect(error.message).toBe("Model provider: 401 invalid key [redacted] (key [redacted])");
    expectClean(error, SECRET);
  });

  it("scrubs Anthropic-shaped keys and bearer tokens even when not told about them", () => {
    const error = toProviderError(
      new Error("bad key sk-ant-api03-abcDEF_123-xyz and Authorization: Bearer abcdef123456789"),
    );
    expect(error.message).not.toMatch(/sk-ant-api03|abcdef123456789/);
    expect(error.message).toContain("Bearer [redacted]");
  });

  it("drops a cause that holds a secret anywhere, like an HTTP client error keeping its request config", () => {
    const axiosLike = Object.assign(new Error("Request failed with status code 500"), {
      status: 500,
      config: { url: "https://api.example/v1/messages", headers: { "x-api-key": SECRET } },
    });
    const error = toProviderError(axiosLike, { secrets: [SECRET] });
    expect(error.cause).toBeUndefined();
    expect(error.retryable).toBe(true);
    expectClean(error, SECRET);
  });

  it("finds a secret inside Headers, Maps, non-enumerable properties and cause chains", () => {
    const inHeaders = {
      status: 500,
      request: { headers: new Headers({ authorization: `Bearer ${SECRET}` }) },
    };
    expect(toProviderError(inHeaders, { secrets: [SECRET] }).cause).toBeUndefined();
    const inMap = { status: 500, extra: new Map([["key", SECRET]]) };
    expect(toProviderError(inMap, { secrets: [SECRET] }).cause).toBeUndefined();
    const hidden = new Error("fine");
    Object.defineProperty(hidden, "apiKey", { value: SECRET, enumerable: false });
    expect(toProviderError(hidden, { secrets: [SECRET] }).cause).toBeUndefined();
    const deep = new Error("outer", { cause: new Error("middle", { cause: new Error(`inner ${SECRET}`) }) });
    const error = toProviderError(deep, { secrets: [SECRET] });
    expect(error.cause).toBeUndefined();
    expectClean(error, SECRET);
  });

  it("rebuilds a ProviderError whose message carries a secret", () => {
    const leaky = new ProviderError(`failed with ${SECRET}`, { retryable: true, status: 503 });
    const clean = toProviderError(leaky, { secrets: [SECRET] });
    expect(clean).not.toBe(leaky);
    expect(clean).toMatchObject({ retryable: true, status: 503, message: "failed with [redacted]" });
    expectClean(clean, SECRET);
  });
});

describe("isPromptTooLongError", () => {
  const apiError = (status: number, type: string, message: string) => ({
    status,
    error: { type: "error", error: { type, message } },
  });
  const openAiError = (message: string, code: unknown = "invalid_request_error") => ({
    status: 400,
    error: { message, type: "invalid_request_error", param: null, code },
  });

  it.each([
    [
      "Anthropic",
      apiError(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"),
    ],
    [
      "DeepSeek",
      openAiError(
        "This model's maximum context length is 131072 tokens. However, you requested 141980 tokens (133980 in the messages, 8000 in the completion). Please reduce the length of the messages or completion.",
      ),
    ],
    ["OpenAI code", openAiError("Too long.", "context_length_exceeded")],
    [
      "xAI",
      {
        status: 400,
        message: "This model's maximum prompt length is 131072 but the request contains 136973 tokens.",
      },
    ],
    [
      "Moonshot / Kimi",
      apiError(
        400,
        "invalid_request_error",
        "Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)",
      ),
    ],
    ["Zhipu GLM", { status: 400, error: { code: "1261", message: "Prompt exceeds max length" } }],
    ["Zhipu code only", { status: 400, error: { error: { code: 1261, message: "请求参数错误" } } }],
    [
      "MiniMax",
      apiError(400, "invalid_request_error", "invalid params, context window exceeds limit (2013)"),
    ],
    ["Bedrock-style", { status: 400, message: "Input is too long for requested model." }],
    ["generic", new Error("too many tokens in the request")],
    ["413", apiError(413, "invalid_request_error", "prompt is too long: 1000000 tokens > 200000 maximum")],
  ])("recognises %s", (_provider, error) => {
    expect(isPromptTooLongError(error)).toBe(true);
    expect(isPromptTooLongError(toProviderError(error))).toBe(true);
  });

  it.each([
    [
      "a rate limit counted in tokens",
      apiError(
        429,
        "rate_limit_error",
        "This request would exceed the rate limit of 40,000 input tokens per minute",
      ),
    ],
    [
      "Groq's TPM 413",
      {
        status: 413,
        message: "Request too large for model on tokens per minute (TPM): Limit 10000, Requested 21247",
      },
    ],
    ["a server error", apiError(500, "api_error", "prompt is too long")],
    [
      "a bad max_tokens",
      apiError(400, "invalid_request_error", "max_tokens: 100000 > 64000, which is the maximum allowed"),
    ],
    [
      "a bad request",
      apiError(400, "invalid_request_error", "messages.1.content: tool_use ids must be unique"),
    ],
    ["nothing", undefined],
    ["a string", "prompt is too long"],
  ])("rejects %s", (_case, error) => {
    expect(isPromptTooLongError(error)).toBe(false);
  });
});

describe("isAbortError", () => {
  it("recognises cancellations of every origin", () => {
    expect(isAbortError(new DOMException("aborted", "AbortError"))).toBe(true);
    expect(isAbortError(new APIUserAbortError())).toBe(true);
    expect(isAbortError(new AbortError("stop"))).toBe(true);
    const controller = new AbortController();
    controller.abort();
    expect(isAbortError(controller.signal.reason)).toBe(true);
  });

  it("rejects failures and timeouts", () => {
    expect(isAbortError(new Error("AbortError"))).toBe(false);
    expect(isAbortError(new TimeoutError(5))).toBe(false);
    expect(isAbortError({ status: 499 })).toBe(false);
    expect(isAbortError(null)).toBe(false);
  });
});
