/**
 * Folder memory across processes (`createMemoryTool({ root })`): real child processes write to one
 * memory file at once through the memory tool — each insert a read-modify-write of the file, kept
 * exclusive across processes by the folder's lock file — and no update is lost; the lock file is
 * gone afterwards and never listed as a memory.
 */

import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createToolContext } from "../../src/index";
import { createMemoryTool } from "../../src/workspace-tools/index";
import { MEMORY_LOCK_FILE } from "../../src/workspace-tools/memory/memory-folder";
import { temporaryFolder } from "../support/temporary-folders";

const ROOT = path.resolve(__dirname, "../..");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");
const WRITER = path.join(ROOT, "test/fixtures/memory/memory-writer.ts");
const WRITERS = 3;
const INSERTS = 60;

/** Runs one writer process to its end; rejects with its stderr when it fails. */
function runWriter(root: string, signals: string, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [WRITER, root, signals, name, String(WRITERS), String(INSERTS)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`writer ${name} exited ${code}: ${stderr}`)),
    );
  });
}

describe("a memory folder written by several processes at once", { timeout: 180_000 }, () => {
  it(`loses no update (${WRITERS} processes × ${INSERTS} inserts into one file)`, async () => {
    const root = temporaryFolder("memory-processes-");
    const signals = temporaryFolder("memory-signals-");
    writeFileSync(path.join(root, "log.md"), "log");
    const outputs = await Promise.all(
      Array.from({ length: WRITERS }, (_, index) => runWriter(root, signals, `writer-${index}`)),
    );
    expect(outputs).toEqual(Array.from({ length: WRITERS }, () => "done\n"));
    const lines = readFileSync(path.join(root, "log.md"), "utf8").split("\n");
    expect(lines).toHaveLength(1 + WRITERS * INSERTS);
    for (let writer = 0; writer < WRITERS; writer++)
      for (let index = 0; index < INSERTS; index++) expect(lines).toContain(`writer-${writer} ${index}`);
    // Each process's own inserts keep their order (each went on top of the file when it ran).
    for (let writer = 0; writer < WRITERS; writer++) {
      const own = lines.filter((line) => line.startsWith(`writer-${writer} `));
      expect(own).toEqual(
        Array.from({ length: INSERTS }, (_, index) => `writer-${writer} ${INSERTS - 1 - index}`),
      );
    }
    expect(existsSync(path.join(root, MEMORY_LOCK_FILE))).toBe(false);
    // A memory read in this process sees every process's writes, and no lock file among the memories.
    const view = await createMemoryTool({ root }).execute(
      { command: "view", path: "/memories" },
      createToolContext({ signal: new AbortController().signal, toolUseId: "call_view", toolName: "memory" }),
    );
    expect(String(typeof view === "string" ? view : view.content)).not.toContain(MEMORY_LOCK_FILE);
  });
});
