/**
 * History's redaction skips only the meta the loop built from its own clock and arithmetic: a
 * response whose client gave it a `meta` of its own, or tool results whose meta carries more than
 * the loop's durations, are walked — a secret there is neither yielded nor kept in history.
 */
import { describe, expect, it } from "vitest";
import { createAgent, defineTool, type ModelClient, type SDKMessage } from "../../src/index";
import { REDACTED } from "../../src/shared/redact";
import { collect, toolUse } from "./support";

const KEY = "tenant-7f3a9c-credential-5b21d8e4f0";

/** A client answering a tool call then "done", each response with a `meta` that holds the key. */
function clientWithMeta(): ModelClient {
  let call = 0;
  return {
    createMessage: async () => {
      call += 1;
      const content =
        call === 1 ? [toolUse("toolu_1", "echo", { n: 1 })] : [{ type: "text" as const, text: "done" }];
      return {
        role: "assistant",
        content,
        stop_reason: call === 1 ? "tool_use" : "end_turn",
        usage: { input_tokens: 1, output_tokens: 1 },
        meta: { created_at: `stamped by ${KEY}` },
      };
    },
  };
}

describe("turn meta and redaction", () => {
  it("redacts a secret in a response's own meta, beside the loop's times and cost", async () => {
    const echo = defineTool({
      name: "echo",
      inputSchema: { parse: (input: unknown) => input as { n: number }, jsonSchema: { type: "object" } },
      execute: ({ n }) => String(n),
    });
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: clientWithMeta(),
      apiKey: KEY,
      tools: [echo],
    });
    const messages: SDKMessage[] = await collect(agent.query("go"));
    const assistants = messages.filter((message) => message.type === "assistant");
    expect(assistants).toHaveLength(2);
    for (const message of assistants) {
      expect(message.message.meta?.created_at).toBe(`stamped by ${REDACTED}`);
      expect(typeof message.message.meta?.started_at).toBe("string");
      expect(typeof message.message.meta?.cost_usd).toBe("number");
    }
    expect(JSON.stringify(await agent.getHistory())).not.toContain(KEY);
    expect(JSON.stringify(messages)).not.toContain(KEY);
    // The tool results' meta is the loop's alone: kept as built.
    const results = messages.find((message) => message.type === "user");
    expect(Object.keys(results?.message.meta?.tool_durations_ms ?? {})).toEqual(["toolu_1"]);
    await agent.close();
  });
});
