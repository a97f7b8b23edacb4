/**
 * A client declares its endpoint's provider profile (`providerProfile`): a gateway on a host of
 * its own (the loopback mock server here) declared `"anthropic"` gets the provider's context
 * editing, native memory tool and tool search, as the Anthropic API's host would; `"portable"`
 * on the Anthropic API's own host gets the fallbacks; a feature named alone overrides only itself.
 * Both forms — `createAnthropicClient` and `createAgent`'s `baseURL` — over the real HTTP client.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, createAnthropicClient, defineTool, InvalidOptionError } from "../../src/index";
import { mockServerPerTest } from "../support/mock-server";

const KEY = "sk-profile-test-0001";
const lookup = defineTool({
  name: "lookup",
  description: "Looks a key up.",
  inputSchema: z.object({ key: z.string() }),
  readOnly: true,
  deferLoading: true,
  execute: ({ key }) => `value of ${key}`,
});
const memory = { name: "memory", input_schema: { type: "object" }, native_type: "memory_20250818" };

describe("providerProfile", () => {
  const server = mockServerPerTest();

  /** The body and beta header of the one request a query of `agent` made. */
  async function requestOf(agent: ReturnType<typeof createAgent>) {
    server.enqueue({ content: "ok" });
    await agent.prompt("Hi");
    await agent.close();
    const request = server.requests.at(-1)!;
    return {
      body: request.body as Record<string, unknown>,
      betas: String(request.headers["anthropic-beta"] ?? ""),
    };
  }

  const features = {
    model: "claude-sonnet-4-6",
    tools: [lookup],
    toolSearch: "auto" as const,
    contextManagement: { clearToolUses: true, where: "auto" as const },
  };

  it("by host: a loopback endpoint gets the portable fallbacks", async () => {
    const client = createAnthropicClient({ apiKey: KEY, baseURL: server.url });
    expect(client.endpoint?.features).toBeUndefined();
    const { body, betas } = await requestOf(createAgent({ ...features, client }));
    expect(body.context_management).toBeUndefined();
    expect(JSON.stringify(body.tools)).toContain('"search_tools"');
    expect(JSON.stringify(body.tools)).not.toContain("tool_search_tool_");
    expect(betas).toBe("");
  });

  it('"anthropic" on createAnthropicClient: context editing and tool search on the provider', async () => {
    const client = createAnthropicClient({ apiKey: KEY, baseURL: server.url, providerProfile: "anthropic" });
    expect(client.endpoint?.features).toEqual({ contextManagement: true, toolSearch: true });
    const { body, betas } = await requestOf(createAgent({ ...features, client }));
    expect(body.context_management).toMatchObject({ edits: [{ type: "clear_tool_uses_20250919" }] });
    expect(body.tools).toContainEqual(expect.objectContaining({ name: "lookup", defer_loading: true }));
    expect(JSON.stringify(body.tools)).toContain("tool_search_tool_");
    expect(betas).toContain("context-management-2025-06-27");
    expect(betas).toContain("advanced-tool-use-2025-11-20");
  });

  it('"anthropic" on createAgent\'s baseURL form does the same', async () => {
    const agent = createAgent({
      ...features,
      apiKey: KEY,
      baseURL: server.url,
      providerProfile: "anthropic",
    });
    const { body } = await requestOf(agent);
    expect(body.context_management).toBeDefined();
    expect(JSON.stringify(body.tools)).toContain("tool_search_tool_");
  });

  it("the native memory tool follows the declared profile", async () => {
    for (const [profile, sent] of [
      ["anthropic", { type: "memory_20250818", name: "memory" }],
      ["portable", expect.objectContaining({ name: "memory", input_schema: { type: "object" } })],
    ] as const) {
      const client = createAnthropicClient({ apiKey: KEY, baseURL: server.url, providerProfile: profile });
      server.enqueue({ content: "ok" });
      await client.createMessage({
        model: "m",
        maxTokens: 10,
        signal: new AbortController().signal,
        messages: [{ role: "user", content: "hi" }],
        tools: [memory],
      });
      expect(server.requests.at(-1)!.body.tools, profile).toEqual([sent]);
    }
  });

  it('"portable" on the Anthropic API\'s own host gets the fallbacks; one feature named overrides only it', async () => {
    // The Anthropic API's URL, the requests taken to the mock server by the client's fetch.
    const toMock = (input: string | URL | Request, init?: RequestInit) =>
      fetch(String(input).replace("https://api.anthropic.com", server.url), init);
    const portable = createAnthropicClient({
      apiKey: KEY,
      baseURL: "https://api.anthropic.com",
      fetch: toMock,
      providerProfile: "portable",
    });
    const plain = await requestOf(createAgent({ ...features, client: portable }));
    expect(plain.body.context_management).toBeUndefined();
    expect(JSON.stringify(plain.body.tools)).toContain('"search_tools"');

    const searchOnly = createAnthropicClient({
      apiKey: KEY,
      baseURL: "https://api.anthropic.com",
      fetch: toMock,
      providerProfile: { toolSearch: false },
    });
    expect(searchOnly.endpoint?.features).toEqual({ toolSearch: false });
    const mixed = await requestOf(createAgent({ ...features, client: searchOnly }));
    expect(mixed.body.context_management).toBeDefined(); // the host's profile: api.anthropic.com
    expect(JSON.stringify(mixed.body.tools)).toContain('"search_tools"');
  });

  it("a profile that is none of these is refused, naming the choices", () => {
    for (const profile of ["gateway", { memory: true }, { toolSearch: "yes" }, null]) {
      expect(() =>
        createAnthropicClient({ apiKey: KEY, baseURL: server.url, providerProfile: profile as never }),
      ).toThrow(InvalidOptionError);
    }
    expect(() =>
      createAgent({ model: "m", apiKey: KEY, baseURL: server.url, providerProfile: "gateway" as never }),
    ).toThrow(/providerProfile must be "anthropic", "portable"/);
  });
});
