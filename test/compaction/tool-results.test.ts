import { describe, expect, it } from "vitest";
import { DEFAULT_TOOL_RESULT_SUMMARY_PROMPT } from "../../src/compaction/prompt";
import {
  buildToolResultSummaryMessages,
  formatCompactedToolResult,
  toolResultChars,
} from "../../src/compaction/tool-results";
import type { ContentBlock, ImageBlock } from "../../src/messages/types";

const image: ImageBlock = {
  type: "image",
  source: { type: "base64", media_type: "image/png", data: "A".repeat(9_999) },
};

describe("toolResultChars", () => {
  it("counts a string's characters", () => {
    expect(toolResultChars("")).toBe(0);
    expect(toolResultChars("x".repeat(50_001))).toBe(50_001);
  });

  it("sums the text blocks and counts images as nothing", () => {
    expect(toolResultChars([{ type: "text", text: "abc" }, image, { type: "text", text: "de" }])).toBe(5);
    expect(toolResultChars([image])).toBe(0);
  });
});

describe("buildToolResultSummaryMessages", () => {
  it("builds one user message: tool name and input, the output in tags, then the prompt verbatim", () => {
    const output = "line 1\nline 2";
    const messages = buildToolResultSummaryMessages(
      "grep",
      { pattern: "TODO" },
      output,
      DEFAULT_TOOL_RESULT_SUMMARY_PROMPT,
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]!.role).toBe("user");
    const blocks = messages[0]!.content as ContentBlock[];
    expect(blocks).toEqual([
      {
        type: "text",
        text: 'The tool grep was called with this input:\n{"pattern":"TODO"}\n\nIts output follows.\n<tool_output>',
      },
      { type: "text", text: output },
      { type: "text", text: "</tool_output>" },
      { type: "text", text: DEFAULT_TOOL_RESULT_SUMMARY_PROMPT },
    ]);
  });

  it("keeps the output's images and text blocks in order", () => {
    const content = [
      { type: "text" as const, text: "before" },
      image,
      { type: "text" as const, text: "after" },
    ];
    const blocks = buildToolResultSummaryMessages("screenshot", {}, content, "Condense.")[0]!
      .content as ContentBlock[];
    expect(blocks.slice(1, 4)).toEqual(content);
    expect(blocks[4]).toEqual({ type: "text", text: "</tool_output>" });
    expect(blocks[5]).toEqual({ type: "text", text: "Condense." });
  });

  it("shortens an output beyond maxChars in the middle, keeping both ends", () => {
    const output = `START${"z".repeat(20_000)}END`;
    const blocks = buildToolResultSummaryMessages("read", { path: "big.log" }, output, "Condense.", {
      maxChars: 1_000,
    })[0]!.content as Array<{ type: "text"; text: string }>;
    expect(blocks[0]!.text).toContain('{"path":"big.log"}');
    expect(blocks[1]!.text.startsWith("START")).toBe(true);
    expect(blocks[1]!.text.endsWith("END")).toBe(true);
    expect(blocks[1]!.text).toMatch(/\[… \d+ characters omitted …\]/);
    expect(blocks[1]!.text.length).toBeLessThan(1_100);
  });

  it("sends an output within the default budget whole", () => {
    const output = "q".repeat(120_000);
    const blocks = buildToolResultSummaryMessages("read", {}, output, "Condense.")[0]!.content as Array<{
      text: string;
    }>;
    expect(blocks[1]!.text).toBe(output);
  });
});

describe("formatCompactedToolResult", () => {
  it("says how long the original was, that it was summarised, and gives the summary", () => {
    const text = formatCompactedToolResult("Three functions, one TODO at line 12.", 73_512);
    expect(text).toContain("73512 characters");
    expect(text).toContain("summarised");
    expect(text.endsWith("\n\nThree functions, one TODO at line 12.")).toBe(true);
  });
});
