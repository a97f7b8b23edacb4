import { open } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { readTextLines } from "../../src/workspace-tools/text-file";
import { keepHead, TailBuffer } from "../../src/workspace-tools/truncation";
import { createSandbox } from "./helpers";

async function linesOf(content: string | Buffer, maxLineChars?: number) {
  const sandbox = createSandbox();
  const handle = await open(sandbox.write("file.txt", content), "r");
  try {
    const lines = [];
    for await (const line of readTextLines(handle, { maxLineChars })) lines.push(line);
    return lines;
  } finally {
    await handle.close();
  }
}

describe("readTextLines", () => {
  it("splits on \\n and \\r\\n, keeps a last line without ending, adds none after a final ending", async () => {
    expect(await linesOf("a\r\nb\n\nc")).toEqual([
      { number: 1, text: "a", length: 1 },
      { number: 2, text: "b", length: 1 },
      { number: 3, text: "", length: 0 },
      { number: 4, text: "c", length: 1 },
    ]);
    expect(await linesOf("a\n")).toEqual([{ number: 1, text: "a", length: 1 }]);
    expect(await linesOf("lone\rcarriage\n")).toEqual([{ number: 1, text: "lone\rcarriage", length: 13 }]);
  });

  it("handles a \\r\\n split across the 64 KiB read chunks", async () => {
    const first = "a".repeat(65_535);
    expect(await linesOf(`${first}\r\nnext\n`)).toEqual([
      { number: 1, text: first, length: 65_535 },
      { number: 2, text: "next", length: 4 },
    ]);
  });

  it("keeps only maxLineChars of a line but counts its full length", async () => {
    expect(await linesOf(`${"x".repeat(200_000)}\r\nend`, 10)).toEqual([
      { number: 1, text: "x".repeat(10), length: 200_000 },
      { number: 2, text: "end", length: 3 },
    ]);
  });

  it("decodes multi-byte characters split across chunks", async () => {
    const text = `${"a".repeat(65_535)}€b`;
    expect(await linesOf(text)).toEqual([{ number: 1, text, length: 65_537 }]);
  });
});

describe("TailBuffer", () => {
  it("keeps exactly the last characters and counts the dropped ones", () => {
    const buffer = new TailBuffer(10);
    for (const chunk of ["0123", "456789", "abcdef", "", "ghi"]) buffer.append(chunk);
    expect(buffer.droppedChars).toBe(9);
    expect(buffer.toString()).toBe(
      "[Output truncated: the first 9 characters were dropped; showing the last 10.]\n9abcdefghi",
    );
  });

  it("adds no notice when nothing was dropped", () => {
    const buffer = new TailBuffer(10);
    buffer.append("short");
    expect(buffer.toString()).toBe("short");
  });
});

describe("keepHead", () => {
  it("returns short text unchanged and cuts long text at a line end with a notice", () => {
    expect(keepHead("abc", 3)).toBe("abc");
    const text = ["line one", "line two", "line three"].join("\n");
    expect(keepHead(text, 20, "Ask for less.")).toBe(
      "line one\nline two\n[Output truncated: 11 of 28 characters omitted. Ask for less.]",
    );
  });
});
