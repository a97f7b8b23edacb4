/**
 * A turn's `meta` and the client's message: copied onto a new object unless the client says its
 * messages are fresh (`ModelClient.freshMessages`: nobody else holds them), then added in place.
 * A client that keeps what it returned never sees it changed; a script's own objects never either.
 */
import { describe, expect, it } from "vitest";
import { type AssistantModelMessage, createAgent, type ModelClient } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL } from "./support";

/** A client that keeps every message it returned (a cache, a recorder). */
function keepingClient(fresh: boolean): ModelClient & { returned: AssistantModelMessage[] } {
  const returned: AssistantModelMessage[] = [];
  return {
    returned,
    ...(fresh ? { freshMessages: true } : {}),
    createMessage: async () => {
      const message: AssistantModelMessage = {
        role: "assistant",
        content: [{ type: "text", text: "done" }],
        stop_reason: "end_turn",
        usage: { input_tokens: 3, output_tokens: 2 },
      };
      returned.push(message);
      return message;
    },
  };
}

describe("turn meta on the client's message", () => {
  it("a client that does not say its messages are fresh gets them back unchanged", async () => {
    const client = keepingClient(false);
    const agent = createAgent({ model: MODEL, client });
    await agent.prompt("hi");
    const [entry] = (await agent.getHistory()).filter((message) => message.role === "assistant");
    expect(entry).not.toBe(client.returned[0]);
    expect(typeof entry?.meta?.cost_usd).toBe("number");
    expect(client.returned[0]).not.toHaveProperty("meta");
    await agent.close();
  });

  it("a client whose messages are fresh has the meta added to the message itself", async () => {
    const client = keepingClient(true);
    const agent = createAgent({ model: MODEL, client });
    await agent.prompt("hi");
    const [entry] = (await agent.getHistory()).filter((message) => message.role === "assistant");
    expect(typeof client.returned[0]?.meta?.started_at).toBe("string");
    expect(entry).toEqual(client.returned[0]);
    expect(typeof entry?.meta?.cost_usd).toBe("number");
    await agent.close();
  });

  it("a scripted client's script is never changed", async () => {
    const step = { content: "done", usage: { input_tokens: 1, output_tokens: 1 } };
    const client = createScriptedClient([step]);
    expect(client.freshMessages).toBe(true);
    const agent = createAgent({ model: MODEL, client });
    await agent.prompt("hi");
    expect(step).toEqual({ content: "done", usage: { input_tokens: 1, output_tokens: 1 } });
    const [entry] = (await agent.getHistory()).filter((message) => message.role === "assistant");
    expect(typeof entry?.meta?.cost_usd).toBe("number");
    await agent.close();
  });
});
