import { describe, expect, it } from "vitest";
import {
  DEFAULT_COMPACTION_PROMPT,
  DEFAULT_TOOL_RESULT_SUMMARY_PROMPT,
  wrapSummary,
} from "../../src/compaction/prompt";

describe("DEFAULT_COMPACTION_PROMPT", () => {
  it("asks for each part the summary must keep", () => {
    const prompt = DEFAULT_COMPACTION_PROMPT.toLowerCase();
    for (const part of [
      "requests",
      "goals",
      "word for word",
      "decisions",
      "files",
      "commands",
      "errors",
      "current state",
      "next steps",
    ]) {
      expect(prompt).toContain(part);
    }
  });

  it("says the summary must stand on its own because the messages are deleted", () => {
    expect(DEFAULT_COMPACTION_PROMPT).toMatch(/deleted/);
    expect(DEFAULT_COMPACTION_PROMPT).toMatch(/stand on its own/);
    expect(DEFAULT_COMPACTION_PROMPT).toMatch(/earlier summary/);
  });

  it("reads the same as text and inside JSON (no character JSON escapes)", () => {
    for (const prompt of [DEFAULT_COMPACTION_PROMPT, DEFAULT_TOOL_RESULT_SUMMARY_PROMPT]) {
      expect(JSON.stringify(prompt)).toBe(`"${prompt}"`);
    }
  });
});

describe("DEFAULT_TOOL_RESULT_SUMMARY_PROMPT", () => {
  it("asks to keep identifiers, numbers, paths and errors, and to say what was left out", () => {
    const prompt = DEFAULT_TOOL_RESULT_SUMMARY_PROMPT.toLowerCase();
    for (const part of ["identifiers", "numbers", "paths", "error", "left out"])
      expect(prompt).toContain(part);
  });
});

describe("wrapSummary", () => {
  it("says compaction just happened and to continue, not restart or greet, with the summary after it", () => {
    const wrapped = wrapSummary("The user wants X; step 2 of 3 is done.");
    expect(wrapped).toMatch(/compacted just now/);
    expect(wrapped).toMatch(/Continue the task from exactly where it stopped/);
    expect(wrapped).toMatch(/Do not restart the task/);
    expect(wrapped).toMatch(/do not greet the user/);
    expect(wrapped.endsWith("<summary>\nThe user wants X; step 2 of 3 is done.\n</summary>")).toBe(true);
  });
});
