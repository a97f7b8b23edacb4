/**
 * The examples of docs/en/hooks-and-permissions.md. Each ```ts block is kept, word for word, as
 * `test/hooks/docs-examples/example-<n>.ts` with the package imports pointed at the sources, so the
 * project's `tsc --noEmit` compiles every example against `src/index`. This test checks the page and
 * the files agree, and runs each example to completion (they use the scripted client: no network).
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { exampleFiles, typescriptBlocks } from "../support/doc-examples";

const ROOT = resolve(import.meta.dirname, "../..");
const PAGE = join(ROOT, "docs/en/hooks-and-permissions.md");
const EXAMPLES = join(ROOT, "test/hooks/docs-examples");

describe("docs/en/hooks-and-permissions.md examples", () => {
  it("are the compiled example files, block for block", () => {
    const blocks = typescriptBlocks(readFileSync(PAGE, "utf8"));
    const files = exampleFiles(EXAMPLES);
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    expect(files.map((file) => readFileSync(file, "utf8"))).toEqual(blocks);
  });

  it("run to completion", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    try {
      for (const file of exampleFiles(EXAMPLES)) await import(file);
      // The hook_error example warns once, about its failing preCompact hook.
      expect(warn.mock.calls).toEqual([
        ["preCompact hook failed:", "preCompact hook #2 failed: metrics endpoint down"],
      ]);
      const logged = log.mock.calls.map((call) => call.map(String).join(" "));
      expect(logged).toContain("Listed the files instead.");
      expect(logged).toContain("error_during_execution true");
      expect(logged).toContain("Here is the plan, with tests. 2");
      expect(logged).toContain("Second answer.");
      expect(logged).toContain(
        "write_file (w1) refused by canUseTool: Only files under src/ may be written (w1).",
      );
      expect(logged).toContain(
        'deploy (d1) refused by disallowedTools: The tool "deploy" is not allowed in this session (disallowedTools).',
      );
      expect(logged).toContain("permissionMode");
    } finally {
      log.mockRestore();
      warn.mockRestore();
    }
  });
});
