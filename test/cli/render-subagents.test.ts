/** The terminal renderer shows a subagent's work indented under the call that started it. */
import { describe, expect, it } from "vitest";
import { createRedactor } from "../../src/cli/redact";
import { TerminalRenderer } from "../../src/cli/render";
import { createStyle } from "../../src/cli/terminal";
import type { AssistantModelMessage, SDKMessage, ToolUseBlock } from "../../src/index";

function setup() {
  const answer = { text: "", write: (chunk: string) => void (answer.text += chunk) };
  const status = { text: "", write: (chunk: string) => void (status.text += chunk) };
  const renderer = new TerminalRenderer({
    answer,
    status,
    style: createStyle(false),
    spinner: { start: () => {}, stop: () => {} },
    redact: createRedactor(["sk-secret-value-123"]),
  });
  return { renderer, answer, status };
}

const call = (id: string, name: string, input: unknown): ToolUseBlock => ({
  type: "tool_use",
  id,
  name,
  input,
});
const assistant = (content: AssistantModelMessage["content"]): AssistantModelMessage => ({
  role: "assistant",
  content,
  stop_reason: "tool_use",
  usage: { input_tokens: 1, output_tokens: 1 },
});

describe("TerminalRenderer with subagents", () => {
  it("indents a child's text, calls and ending under the call, a grandchild one level further", () => {
    const { renderer, answer, status } = setup();
    renderer.handle({ type: "assistant", message: assistant([call("t1", "researcher", { prompt: "q" })]) });
    const tagged = (message: SDKMessage, id: string): SDKMessage => ({ ...message, parent_tool_use_id: id });
    renderer.handle(tagged({ type: "stream_event", event: { type: "message_start", message: {} } }, "t1"));
    renderer.handle(
      tagged(
        {
          type: "assistant",
          message: assistant([
            { type: "text", text: "Looking, key sk-secret-value-123" },
            call("c1", "deep", { prompt: "more" }),
          ]),
        },
        "t1",
      ),
    );
    renderer.handle(
      tagged({ type: "assistant", message: assistant([{ type: "text", text: "Deep answer." }]) }, "c1"),
    );
    renderer.handle(
      tagged(
        {
          type: "user",
          message: {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "c1", content: "Deep answer." }],
          },
        },
        "t1",
      ),
    );
    expect(answer.text).toBe(""); // none of it is the parent's answer
    const lines = status.text.split("\n");
    expect(lines).toContain("    Looking, key [redacted]");
    expect(lines).toContain("        Deep answer.");
    expect(lines.some((line) => line.startsWith("    ✓ deep"))).toBe(true);
    expect(status.text).not.toContain("sk-secret-value-123");
  });
});
