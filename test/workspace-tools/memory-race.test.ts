/**
 * The memory tool's folder under the workspace tools' race: another process swaps folders of the
 * memory root for symbolic links to outside it, in a tight loop, while the tool views and writes.
 * A read must never return a file from outside, a write never create or change anything there.
 */

import { describe, expect, it } from "vitest";
import { createToolContext } from "../../src/index";
import type { ToolOutput } from "../../src/tools/tool";
import { createMemoryTool, type MemoryInput } from "../../src/workspace-tools/index";
import { createRaceSandbox, OUTSIDE_MARK, snapshotFolder, startSwapper } from "./race-helpers";

const ATTEMPTS = 2_000;
const SWAPPED_FOLDERS = 8;

describe("the memory folder under a concurrent folder ↔ symbolic link swap", { timeout: 240_000 }, () => {
  it(`never reads, creates or changes anything outside the folder (${ATTEMPTS} attempts)`, async () => {
    const { sandbox, folders } = createRaceSandbox(SWAPPED_FOLDERS);
    const before = snapshotFolder(sandbox.outside);
    const tool = createMemoryTool({ root: sandbox.root });
    const call = async (input: MemoryInput) => {
      const output: ToolOutput = await tool.execute(
        input,
        createToolContext({
          signal: new AbortController().signal,
          toolUseId: "race",
          toolName: "memory",
        }),
      );
      return typeof output === "string"
        ? { text: output, isError: false }
        : { text: String(output.content), isError: output.isError === true };
    };
    const swapper = await startSwapper(sandbox.outside, folders);
    let escapes = 0;
    let succeeded = 0;
    let next = 0;
    const lane = async () => {
      while (next < ATTEMPTS) {
        const index = next++;
        const folder = `/memories/f${index % SWAPPED_FOLDERS}`;
        const input: MemoryInput =
          index % 3 === 0
            ? { command: "create", path: `${folder}/notes.md`, file_text: `state=${index}\n` }
            : index % 3 === 1
              ? { command: "view", path: `${folder}/secret.txt` }
              : { command: "view", path: "/memories" };
        const result = await call(input).catch((error: unknown) => ({ text: String(error), isError: true }));
        if (result.text.includes(OUTSIDE_MARK) || result.text.includes("only-outside-the-root")) escapes++;
        if (!result.isError) succeeded++;
      }
    };
    let swaps = -1;
    try {
      await Promise.all([lane(), lane(), lane(), lane()]);
    } finally {
      swaps = await swapper.stop();
    }
    expect(escapes).toBe(0);
    expect(snapshotFolder(sandbox.outside)).toBe(before);
    expect(swaps).toBeGreaterThan(0);
    expect(succeeded).toBeGreaterThan(0);
  });
});
