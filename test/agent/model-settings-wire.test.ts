/**
 * The agent's model settings on the wire, as the mock server received the body through the
 * built-in client: the agent's values, a query's override, an onModelRequest hook's temperature,
 * cache markers on by default and none with promptCaching: false.
 */
import { describe, expect, it } from "vitest";
import { createAgent, createAnthropicClient } from "../../src/index";
import { MODEL } from "../loop/support";
import { mockServerPerTest } from "../support/mock-server";

describe("model settings over HTTP", () => {
  const server = mockServerPerTest();
  const client = () => createAnthropicClient({ apiKey: "sk-wire-settings-key", baseURL: server.url });

  it("sends the agent's settings, a query's override for that query only, and cache markers by default", async () => {
    server.enqueue({ content: "one" }, { content: "two" });
    const agent = createAgent({
      model: MODEL,
      client: client(),
      systemPrompt: "Be brief.",
      temperature: 0.3,
      topP: 0.9,
      stopSequences: ["END"],
      metadata: { userId: "user-1" },
      serviceTier: "standard_only",
    });
    await agent.prompt("First", { temperature: 0.1, effort: "low" });
    await agent.prompt("Second");
    const [first, second] = server.requests.map((request) => request.body);
    expect(first).toMatchObject({
      temperature: 0.1,
      top_p: 0.9,
      stop_sequences: ["END"],
      metadata: { user_id: "user-1" },
      service_tier: "standard_only",
      output_config: { effort: "low" },
    });
    expect(second.temperature).toBe(0.3);
    expect(second).not.toHaveProperty("output_config");
    expect(JSON.stringify(first)).toContain('"cache_control":{"type":"ephemeral"}');
    expect(server.requests[1]!.body.messages.length).toBe(3);
  });

  it("a temperature added by an onModelRequest hook reaches the wire", async () => {
    server.enqueue({ content: "ok" });
    const agent = createAgent({
      model: MODEL,
      client: client(),
      onModelRequest: (request) => ({ ...request, temperature: 0.65 }),
    });
    await agent.prompt("Hi");
    expect(server.requests[0]!.body.temperature).toBe(0.65);
  });

  it("promptCaching: false sends no cache marker at all", async () => {
    server.enqueue({ content: "ok" });
    const agent = createAgent({ model: MODEL, client: client(), systemPrompt: "Sys.", promptCaching: false });
    await agent.prompt("Hi");
    expect(JSON.stringify(server.requests[0]!.body)).not.toContain("cache_control");
  });
});
