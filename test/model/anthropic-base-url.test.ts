import { afterEach, describe, expect, it } from "vitest";
import { createAnthropicClient } from "../../src/index";
import { resolveBaseUrl } from "../../src/model/anthropic-base-url";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";

const request = (model = "claude-sonnet-4-6") => ({
  model,
  messages: [{ role: "user" as const, content: "Hi" }],
  maxTokens: 64,
  signal: new AbortController().signal,
});

describe("resolveBaseUrl (parsed once for the last base URL seen)", () => {
  const servers: MockAnthropicServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it("clients made one after another for different base URLs each send to their own", async () => {
    for (let index = 0; index < 2; index++)
      servers.push(await startMockAnthropicServer({ handler: () => ({ content: `from ${index}` }) }));
    const [first, second] = servers as [MockAnthropicServer, MockAnthropicServer];
    // first, second, first again: the remembered URL changes each time.
    const clients = [first, second, first].map((server) =>
      createAnthropicClient({ apiKey: "test-key", baseURL: server.url }),
    );
    for (const client of clients) await client.createMessage(request());
    expect(first.requests.map((recorded) => recorded.path)).toEqual(["/v1/messages", "/v1/messages"]);
    expect(second.requests).toHaveLength(1);
    expect(clients.map((client) => client.endpoint?.port)).toEqual(
      [first, second, first].map((server) => Number(new URL(server.url).port)),
    );
  });

  it("gives each client its own endpoint object, and the credentials of its own URL", () => {
    const a = resolveBaseUrl("https://user:first-secret@proxy.example/");
    const again = resolveBaseUrl("https://user:first-secret@proxy.example/");
    expect(again.endpoint()).toEqual(a.endpoint());
    expect(again.endpoint()).not.toBe(a.endpoint());
    expect(a.urlSecrets).toContain("first-secret");
    const b = resolveBaseUrl("https://proxy.example/?key=second-secret");
    expect(b.urlSecrets).toContain("second-secret");
    expect(b.urlSecrets).not.toContain("first-secret");
    expect(resolveBaseUrl(undefined).messagesUrl).toBe("https://api.anthropic.com/v1/messages");
  });

  it("refuses a malformed base URL every time, not only the first", () => {
    for (let attempt = 0; attempt < 2; attempt++)
      expect(() => createAnthropicClient({ apiKey: "k", baseURL: "not a url" })).toThrow(/not a valid URL/);
  });
});
