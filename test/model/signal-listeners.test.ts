/**
 * The built-in client must not leave listeners on the caller's signal: a query's signal lives for
 * many requests, and a listener per request would pile up (and warn past ten).
 */
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicClient } from "../../src/index";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";

let server: MockAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each([true, false])("createAnthropicClient (stream: %s)", (stream) => {
  it("leaves no abort listener on the caller's signal after 25 requests", async () => {
    server = await startMockAnthropicServer({
      handler: () => ({ content: "ok", usage: { input_tokens: 1, output_tokens: 1 } }),
    });
    const client = createAnthropicClient({ apiKey: "sk-test-listeners", baseURL: server.url, stream });
    const controller = new AbortController();
    for (let index = 0; index < 25; index++) {
      await client.createMessage({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        maxTokens: 16,
        signal: controller.signal,
      });
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
