/**
 * Connection failures of the built-in client: the error names the endpoint (host and port, never
 * credentials) and the cause, says "Anthropic API" only for the Anthropic API, and is retryable
 * only when a retry can help.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { ProviderError } from "../../src/errors";
import { createAgent } from "../../src/index";
import { createAnthropicClient } from "../../src/model/anthropic";
import type { ModelRequest } from "../../src/model/client";
import { isNoResponseFailure, toProviderError } from "../../src/model/errors";
import { closedPort } from "./closed-port";

const SECRET = "lattice-conn-secret-5Tq8Wz";

afterEach(() => {
  vi.unstubAllGlobals();
});

function request(): ModelRequest {
  return {
    model: "claude-conn-1",
    messages: [{ role: "user", content: "Hello" }],
    maxTokens: 64,
    signal: new AbortController().signal,
  };
}

async function failureOf(baseURL: string, fetchImpl?: typeof fetch): Promise<ProviderError> {
  const client = createAnthropicClient({
    apiKey: SECRET,
    baseURL,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
  const error = await client.createMessage(request()).then(
    () => {
      throw new Error("expected a failure");
    },
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  expect(String((error as Error).message)).not.toContain(SECRET);
  return error as ProviderError;
}

/** A fetch that fails as undici does: a TypeError "fetch failed" whose cause carries the code. */
function failingFetch(code: string, message = `connect ${code}`): typeof fetch {
  return async () => {
    throw new TypeError("fetch failed", { cause: Object.assign(new Error(message), { code }) });
  };
}

describe("connection failures of the built-in client", () => {
  it("a refused connection: the endpoint, the cause, retryable", async () => {
    const port = await closedPort();
    const error = await failureOf(`http://127.0.0.1:${port}/anthropic`);
    expect(error.message).toBe(`Model provider at 127.0.0.1:${port}: connection refused (ECONNREFUSED)`);
    expect(error).toMatchObject({ retryable: true, status: undefined, partial: false });
  });

  it("a port fetch refuses: 'invalid port', not retried", async () => {
    const error = await failureOf("http://127.0.0.1:1");
    expect(error.message).toBe(
      "Model provider at 127.0.0.1:1: invalid port (fetch refuses to connect to it)",
    );
    expect(error.retryable).toBe(false);
  });

  it("an unknown host: 'DNS lookup failed', not retried", async () => {
    const error = await failureOf(
      "http://no-such-host.invalid:8080",
      failingFetch("ENOTFOUND", "getaddrinfo ENOTFOUND no-such-host.invalid"),
    );
    expect(error.message).toBe(
      "Model provider at no-such-host.invalid:8080: DNS lookup failed (host not found) (ENOTFOUND)",
    );
    expect(error.retryable).toBe(false);
  });

  it("a temporary DNS failure is retried", async () => {
    const error = await failureOf("https://gateway.example", failingFetch("EAI_AGAIN"));
    expect(error.message).toBe(
      "Model provider at gateway.example:443: DNS lookup failed (temporary failure) (EAI_AGAIN)",
    );
    expect(error.retryable).toBe(true);
  });

  it("says 'Anthropic API' for the Anthropic API, and only for it", async () => {
    const anthropic = await failureOf("https://api.anthropic.com", failingFetch("ECONNRESET"));
    expect(anthropic.message).toBe("Anthropic API at api.anthropic.com:443: connection reset (ECONNRESET)");
    const deepseek = await failureOf("https://api.deepseek.com/anthropic", failingFetch("ECONNRESET"));
    expect(deepseek.message).toBe("Model provider at api.deepseek.com:443: connection reset (ECONNRESET)");
  });

  it("never shows credentials of the base URL, and says why fetch refused them", async () => {
    const port = await closedPort();
    const error = await failureOf(`http://user:${SECRET}@127.0.0.1:${port}/?key=${SECRET}`);
    expect(error.message).toBe(
      `Model provider at 127.0.0.1:${port}: the URL includes credentials, which fetch refuses to send (pass them in a header instead)`,
    );
    expect(error.retryable).toBe(false);
  });

  it("does not double 'connection error'", async () => {
    const port = await closedPort();
    const error = await failureOf(`http://127.0.0.1:${port}`);
    expect(error.message.match(/connection error/gi) ?? []).toEqual([]);
  });

  it("an IPv6 endpoint keeps its brackets", async () => {
    const error = await failureOf("http://[::1]:9931", failingFetch("ECONNREFUSED"));
    expect(error.message).toBe("Model provider at [::1]:9931: connection refused (ECONNREFUSED)");
  });

  it("through the agent: a refused connection is retried, an invalid port is not", async () => {
    const port = await closedPort();
    for (const [baseURL, attempts] of [
      [`http://127.0.0.1:${port}`, 3],
      ["http://127.0.0.1:1", 1],
    ] as const) {
      let calls = 0;
      const agent = createAgent({
        model: "claude-conn-1",
        client: createAnthropicClient({
          apiKey: SECRET,
          baseURL,
          fetch: (input, init) => {
            calls++;
            return fetch(input, init);
          },
        }),
        retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 },
      });
      const result = await agent.prompt("Hi");
      expect(result.subtype).toBe("error_during_execution");
      expect(calls, baseURL).toBe(attempts);
      expect(result.error?.message).toContain(baseURL.replace("http://", ""));
    }
  });
});

describe("toProviderError with an endpoint", () => {
  it("describes an SDK connection error by its cause, not as 'Connection error'", () => {
    const sdkError = Object.assign(new Error("Connection error."), {
      name: "APIConnectionError",
      cause: new TypeError("fetch failed", {
        cause: Object.assign(new Error("connect"), { code: "ETIMEDOUT" }),
      }),
    });
    const error = toProviderError(sdkError, { endpoint: "llm.internal:8443" });
    expect(error.message).toBe("Model provider at llm.internal:8443: connection timed out (ETIMEDOUT)");
    expect(error.retryable).toBe(true);
  });

  it("a TLS certificate problem is permanent", () => {
    const error = toProviderError(failingTls(), { endpoint: "proxy.corp:443" });
    expect(error.message).toBe(
      "Model provider at proxy.corp:443: self-signed TLS certificate in the chain (SELF_SIGNED_CERT_IN_CHAIN)",
    );
    expect(error.retryable).toBe(false);
  });
});

function failingTls(): Error {
  return new TypeError("fetch failed", {
    cause: Object.assign(new Error("self-signed certificate in certificate chain"), {
      code: "SELF_SIGNED_CERT_IN_CHAIN",
    }),
  });
}

describe("isNoResponseFailure", () => {
  it("is true for a connection that never produced a response, false once the provider answered", async () => {
    const port = await closedPort();
    const refused = await failureOf(`http://127.0.0.1:${port}`);
    expect(isNoResponseFailure(refused)).toBe(true);
    const answered = toProviderError({
      status: 529,
      error: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    });
    expect(isNoResponseFailure(answered)).toBe(false);
    expect(isNoResponseFailure(toProviderError({ type: "overloaded_error", message: "busy" }))).toBe(false);
    expect(isNoResponseFailure(new Error("not a provider error"))).toBe(false);
  });
});
