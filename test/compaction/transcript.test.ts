import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_COMPACTION_PROMPT, wrapSummary } from "../../src/compaction/prompt";
import {
  buildCompactionRequestMessages,
  rebuildHistory,
  renderTranscript,
  summaryText,
} from "../../src/compaction/transcript";
import { AgentLatticeError } from "../../src/errors";
import type { AssistantModelMessage, ModelMessage, TextBlock } from "../../src/messages/types";
import { calls, prompt, reply, results, wellFormedHistory } from "./history-fixtures";

const conversation: ModelMessage[] = [
  prompt("Rename the config loader."),
  {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "private reasoning", signature: "sig-abc123" },
      { type: "redacted_thinking", data: "opaque-redacted-data" },
      { type: "text", text: "Let me look." },
      { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "src/config.ts" } },
      { type: "tool_use", id: "toolu_2", name: "bash", input: { command: "ls missing" } },
    ],
  },
  {
    role: "user",
    content: [
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: [
          { type: "text", text: "export function loadConfig() {}" },
          { type: "image", source: { type: "url", url: "https://example.test/diagram.png" } },
        ],
      },
      { type: "tool_result", tool_use_id: "toolu_2", content: "ls: missing: No such file", is_error: true },
    ],
  },
  reply("Renamed loadConfig to readConfig."),
];

describe("renderTranscript", () => {
  it("renders roles, text, tool calls with JSON inputs, results with their tool and an error marker", () => {
    const transcript = renderTranscript(conversation);
    expect(transcript).toContain("[user]\nRename the config loader.");
    expect(transcript).toContain("[assistant]\nLet me look.");
    expect(transcript).toContain('[tool call read_file id=toolu_1]\n{"path":"src/config.ts"}');
    expect(transcript).toContain('[tool call bash id=toolu_2]\n{"command":"ls missing"}');
    expect(transcript).toContain(
      "[tool result of read_file id=toolu_1]\nexport function loadConfig() {}\n[image]",
    );
    expect(transcript).toContain("[tool result of bash id=toolu_2, error]\nls: missing: No such file");
    expect(transcript).toContain("Renamed loadConfig to readConfig.");
  });

  it("leaves out thinking, its signatures and redacted thinking", () => {
    const transcript = renderTranscript(conversation);
    expect(transcript).not.toContain("private reasoning");
    expect(transcript).not.toContain("sig-abc123");
    expect(transcript).not.toContain("opaque-redacted-data");
    expect(transcript).not.toContain("example.test");
  });

  it("renders images in user messages and marks a message with nothing visible", () => {
    const transcript = renderTranscript([
      {
        role: "user",
        content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "QUJD" } }],
      },
      { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "s" }] },
    ]);
    expect(transcript).toBe("[user]\n[image]\n\n[assistant]\n(no visible content)");
  });

  it("names an unknown tool for a result whose call is not in the transcript", () => {
    expect(renderTranscript([results("toolu_9")])).toContain("[tool result of an unknown tool id=toolu_9]");
  });

  it("renders an input JSON cannot express by its string form", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const message: ModelMessage = {
      role: "assistant",
      content: [
        { type: "tool_use", id: "a", name: "odd", input: circular },
        { type: "tool_use", id: "b", name: "none", input: undefined },
      ],
    };
    const transcript = renderTranscript([message]);
    expect(transcript).toContain("[tool call odd id=a]\n[object Object]");
    expect(transcript).toContain("[tool call none id=b]\nundefined");
  });

  it("shortens the longest bodies to fit maxChars and keeps the short ones whole", () => {
    const big = `HEAD${"x".repeat(50_000)}TAIL`;
    const transcript = renderTranscript(
      [
        prompt("the task"),
        calls("t1"),
        { ...results("t1"), content: [{ type: "tool_result", tool_use_id: "t1", content: big }] },
      ],
      { maxChars: 1_000 },
    );
    expect(transcript).toContain("the task");
    expect(transcript).toContain('{"path":"t1.txt"}');
    expect(transcript).toContain("HEAD");
    expect(transcript).toContain("TAIL");
    expect(transcript).toMatch(/\[… \d+ characters omitted …\]/);
    expect(transcript.length).toBeLessThanOrEqual(1_000);
  });

  it("leaves out the middle of the transcript when headers and labels alone exceed maxChars", () => {
    const history: ModelMessage[] = [prompt("the original task")];
    for (let round = 0; round < 200; round += 1) history.push(calls(`t${round}`), results(`t${round}`));
    history.push(reply("the latest answer"));
    const transcript = renderTranscript(history, { maxChars: 2_000 });
    expect(transcript.length).toBeLessThanOrEqual(2_000);
    expect(transcript.startsWith("[user]\nthe original task")).toBe(true);
    expect(transcript.endsWith("[assistant]\nthe latest answer")).toBe(true);
  });

  it("never exceeds maxChars, and is untouched when it fits (property)", () => {
    fc.assert(
      fc.property(wellFormedHistory, fc.nat(3_000), (messages, maxChars) => {
        const whole = renderTranscript(messages, { maxChars: Number.POSITIVE_INFINITY });
        const bounded = renderTranscript(messages, { maxChars });
        expect(bounded.length).toBeLessThanOrEqual(maxChars);
        if (whole.length <= maxChars) expect(bounded).toBe(whole);
      }),
    );
  });

  it("includes every tool name, input and result, and no thinking (property)", () => {
    fc.assert(
      fc.property(wellFormedHistory, (messages) => {
        const transcript = renderTranscript(messages);
        for (const message of messages) {
          if (typeof message.content === "string") {
            expect(transcript).toContain(message.content);
            continue;
          }
          for (const block of message.content) {
            if (block.type === "text") expect(transcript).toContain(block.text);
            if (block.type === "tool_use") {
              expect(transcript).toContain(`[tool call ${block.name} id=${block.id}]`);
              expect(transcript).toContain(JSON.stringify(block.input));
            }
            if (block.type === "tool_result") {
              const output =
                typeof block.content === "string" ? block.content : (block.content[0] as TextBlock).text;
              const marker = block.is_error ? ", error" : "";
              expect(transcript).toContain(`id=${block.tool_use_id}${marker}]\n${output}`);
            }
            if (block.type === "thinking") {
              expect(transcript).not.toContain(block.signature);
              expect(transcript).not.toContain(block.thinking);
            }
            if (block.type === "redacted_thinking") expect(transcript).not.toContain(block.data);
          }
        }
      }),
    );
  });
});

describe("buildCompactionRequestMessages", () => {
  it("builds one user message: the transcript, then the prompt verbatim in a block of its own", () => {
    const request = buildCompactionRequestMessages(conversation, DEFAULT_COMPACTION_PROMPT);
    expect(request).toHaveLength(1);
    const [message] = request;
    expect(message!.role).toBe("user");
    const blocks = message!.content as TextBlock[];
    expect(blocks).toHaveLength(2);
    expect(blocks[0]!.text).toBe(`<conversation>\n${renderTranscript(conversation)}\n</conversation>`);
    expect(blocks[1]).toEqual({ type: "text", text: DEFAULT_COMPACTION_PROMPT });
    expect(JSON.stringify(request)).toContain(DEFAULT_COMPACTION_PROMPT);
  });

  it("carries a custom prompt verbatim and adds custom instructions after it", () => {
    const request = buildCompactionRequestMessages(
      conversation,
      "Summarise in French.",
      "Mention every file path.",
    );
    const blocks = request[0]!.content as TextBlock[];
    expect(blocks[1]!.text).toBe("Summarise in French.");
    expect(blocks[2]!.text).toContain("Mention every file path.");
    const withoutInstructions = buildCompactionRequestMessages(conversation, "Summarise.", "  ");
    expect(withoutInstructions[0]!.content).toHaveLength(2);
  });

  it("passes the transcript budget through", () => {
    const long = prompt("y".repeat(10_000));
    const request = buildCompactionRequestMessages([long], "Summarise.", undefined, { maxChars: 100 });
    expect((request[0]!.content as TextBlock[])[0]!.text.length).toBeLessThan(300);
  });
});

describe("rebuildHistory", () => {
  it("puts the wrapped summary first and the kept messages after it, by reference", () => {
    const kept = [calls("t1"), results("t1"), reply("done")];
    const rebuilt = rebuildHistory("We renamed the loader.", kept);
    expect(rebuilt[0]).toEqual({ role: "user", content: wrapSummary("We renamed the loader.") });
    expect(rebuilt).toHaveLength(4);
    for (const [index, message] of kept.entries()) expect(rebuilt[index + 1]).toBe(message);
  });

  it("builds a summary-only history when nothing is kept", () => {
    expect(rebuildHistory("all of it", [])).toEqual([{ role: "user", content: wrapSummary("all of it") }]);
  });
});

describe("summaryText", () => {
  const answer = (content: AssistantModelMessage["content"]): AssistantModelMessage => ({
    role: "assistant",
    content,
  });

  it("joins the text blocks and trims them, ignoring thinking", () => {
    const message = answer([
      { type: "thinking", thinking: "plan", signature: "s" },
      { type: "text", text: "  Part one." },
      { type: "text", text: "Part two.\n" },
    ]);
    expect(summaryText(message)).toBe("Part one.\nPart two.");
  });

  it("throws a clear error when the answer holds no text", () => {
    for (const content of [
      [],
      [{ type: "text" as const, text: "  \n" }],
      [{ type: "thinking" as const, thinking: "t", signature: "s" }],
    ]) {
      expect(() => summaryText(answer(content))).toThrow(AgentLatticeError);
      expect(() => summaryText(answer(content))).toThrow("the compaction model returned no summary text");
    }
  });
});
