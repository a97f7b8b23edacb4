/**
 * Handoffs on the UI message stream (validated against `ai`'s chunk schema): the transfer call is a
 * tool part like any other, followed by a `data-handoff` part naming who answers next — live, and
 * rebuilt from history by `historyToUIMessages`.
 */
import { describe, expect, it } from "vitest";
import { createAgent, createAnthropicClient, defineHandoff } from "../../src/index";
import { historyToUIMessages, toUIMessageStream } from "../../src/ui/index";
import { toolUse } from "../support/content";
import { mockServerPerTest } from "../support/mock-server";
import { readChunks } from "./ui-test-kit";

describe("handoffs on the UI stream", () => {
  const server = mockServerPerTest();

  it("shows the transfer as a tool part and the handoff as a data-handoff part, live and from history", async () => {
    server.enqueue(
      { content: [toolUse("h1", "transfer_to_billing", { reason: "invoice" })] },
      { content: "Billing here." },
    );
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: createAnthropicClient({ apiKey: "sk-ant-test-0123456789", baseURL: server.url, stream: true }),
      name: "triage",
      includePartialMessages: true,
      handoffs: [defineHandoff({ name: "billing", description: "Invoices." })],
    });
    const chunks = await readChunks(toUIMessageStream(agent.query("invoice?")));
    const types = chunks.map((chunk) => chunk.type);
    const handoff = chunks.find((chunk) => chunk.type === "data-handoff");
    expect(handoff).toMatchObject({ data: { from: "triage", to: "billing" } });
    const output = types.indexOf("tool-output-available");
    expect(output).toBeGreaterThan(-1);
    expect(types.indexOf("data-handoff")).toBeGreaterThan(output);
    expect(types.lastIndexOf("text-delta")).toBeGreaterThan(types.indexOf("data-handoff"));
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });

    const [, answer] = historyToUIMessages(await agent.getHistory());
    expect(answer!.parts.map((part) => part.type)).toEqual([
      "step-start",
      "dynamic-tool",
      "data-handoff",
      "step-start",
      "text",
    ]);
    expect(answer!.parts[2]).toMatchObject({ data: { from: "triage", to: "billing" } });
  });
});
