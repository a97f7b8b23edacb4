/**
 * Issue 17: whitespace-only text blocks are dropped from history (the API refuses them), but the
 * result text is what the model wrote; and a refusal without content is still yielded.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { collect, MODEL } from "./support";

describe("the result text", () => {
  it("keeps the whitespace-only blocks the model wrote between its text blocks", async () => {
    const client = createScriptedClient([
      {
        content: [
          { type: "text", text: "It is 9:00 JST." },
          { type: "text", text: " " },
          { type: "text", text: "Opened in 1958." },
          { type: "text", text: "\n\n" },
          { type: "text", text: "Second paragraph." },
        ],
      },
    ]);
    const agent = createAgent({ model: MODEL, client });

    const result = await agent.prompt("When?");

    expect(result.result).toBe("It is 9:00 JST. Opened in 1958.\n\nSecond paragraph.");
    const history = await agent.getHistory();
    const last = history[history.length - 1]!;
    expect(last.content).toEqual([
      { type: "text", text: "It is 9:00 JST." },
      { type: "text", text: "Opened in 1958." },
      { type: "text", text: "Second paragraph." },
    ]);
  });

  it("is the concatenation of every text block, whatever blocks are blank (property)", async () => {
    const piece = fc.oneof(
      fc.constantFrom(" ", "\n", "\n\n", "\t", ""),
      fc.string({ minLength: 1, maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { minLength: 1, maxLength: 8 }), async (pieces) => {
        fc.pre(pieces.some((text) => text.trim() !== ""));
        const client = createScriptedClient([
          { content: pieces.map((text) => ({ type: "text" as const, text })) },
        ]);
        const agent = createAgent({ model: MODEL, client });
        const result = await agent.prompt("Go.");
        expect(result.result).toBe(pieces.join(""));
      }),
      { numRuns: 50 },
    );
  });
});

describe("a refusal without content", () => {
  it("is yielded with its providerResponseId and model, and does not enter history", async () => {
    const client = createScriptedClient([
      { content: [], stop_reason: "refusal", id: "msg_refused_1", model: "claude-refuser-1" },
    ]);
    const agent = createAgent({ model: MODEL, client });

    const messages = await collect(agent.query("Do something bad."));

    const assistants = messages.filter((message) => message.type === "assistant");
    expect(assistants).toHaveLength(1);
    const message = (
      assistants[0] as { message: { providerResponseId?: string; model?: string; stop_reason?: string } }
    ).message;
    expect(message.providerResponseId).toBe("msg_refused_1");
    expect(message.model).toBe("claude-refuser-1");
    expect(message.stop_reason).toBe("refusal");
    expect(await agent.getHistory()).toEqual([{ role: "user", content: "Do something bad." }]);
  });

  it("an empty end_turn response is still neither yielded nor recorded", async () => {
    const client = createScriptedClient([{ content: [] }]);
    const agent = createAgent({ model: MODEL, client });
    const messages = await collect(agent.query("Hi"));
    expect(messages.filter((message) => message.type === "assistant")).toHaveLength(0);
  });
});
