/**
 * Guardrails on the UI message stream (validated against `ai`'s chunk schema): an answer the
 * output guardrails trip on never reaches the stream — its text was held back — and the stream
 * ends with an `error` chunk and the `content-filter` finish naming the guardrail; an allowed
 * answer streams as usual.
 */
import { describe, expect, it } from "vitest";
import { createAgent, createAnthropicClient, piiGuardrail } from "../../src/index";
import { toUIMessageStream } from "../../src/ui/index";
import { mockServerPerTest } from "../support/mock-server";
import { readChunks } from "./ui-test-kit";

describe("guardrails on the UI stream", () => {
  const server = mockServerPerTest();
  const agent = () =>
    createAgent({
      model: "claude-sonnet-4-6",
      client: createAnthropicClient({ apiKey: "sk-ant-test-0123456789", baseURL: server.url, stream: true }),
      includePartialMessages: true,
      guardrails: [piiGuardrail({ stage: "output" })],
    });

  it("a tripped answer never streams: an error chunk and a content-filter finish instead", async () => {
    server.enqueue({ content: "Sure, mail jane.doe@example.com about it.", eventDelayMs: 2 });
    const chunks = await readChunks(toUIMessageStream(agent().query("email?")));
    expect(JSON.stringify(chunks)).not.toContain("jane.doe");
    expect(chunks.some((chunk) => chunk.type === "text-delta")).toBe(false);
    expect(chunks.find((chunk) => chunk.type === "error")).toMatchObject({
      errorText: expect.stringContaining("guardrail"),
    });
    expect(chunks.at(-1)).toMatchObject({
      type: "finish",
      finishReason: "content-filter",
      messageMetadata: { end: "guardrail_tripwire", guardrail: { name: "pii", stage: "output" } },
    });
  });

  it("an allowed answer streams its text", async () => {
    server.enqueue({ content: "All clear.", eventDelayMs: 2 });
    const chunks = await readChunks(toUIMessageStream(agent().query("hi")));
    const text = chunks
      .filter((chunk) => chunk.type === "text-delta")
      .map((chunk) => (chunk as { delta: string }).delta)
      .join("");
    expect(text).toBe("All clear.");
    expect(chunks.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
  });
});
