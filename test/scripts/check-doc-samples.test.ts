import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const SCRIPT = path.resolve(__dirname, "../../scripts/check-doc-samples.mjs");

/** Runs the docs check on a tree of its own holding `files` (no TypeScript blocks: no tsc run). */
function checkTree(files: Record<string, string>) {
  const root = mkdtempSync(path.join(tmpdir(), "agent-lattice-docs-check-"));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return spawnSync(process.execPath, [SCRIPT, "--root", root], { encoding: "utf8" });
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("docs:check and models the SDK deprecates", () => {
  it("fails on a deprecated model id in a code block of any language, naming page and line", () => {
    const run = checkTree({
      "docs/en/page.md":
        "# Page\n\nProse may name `claude-sonnet-4-5`.\n\n```sh\nagent-lattice --model claude-sonnet-4-5 Hi\n```\n",
      "docs/zh/page.md": '```json\n{ "model": "claude-opus-4-5@20251101" }\n```\n',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'docs/en/page.md:6: "claude-sonnet-4-5" is deprecated (end of life November 30th, 2026)',
    );
    expect(run.stderr).toContain('docs/zh/page.md:2: "claude-opus-4-5" is deprecated');
    expect(run.stderr).not.toContain("page.md:3");
  });

  it("fails on one in an example program, dated snapshots included", () => {
    const run = checkTree({
      "examples/old.ts": 'const model = "claude-sonnet-4-5-20250929";\n',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('examples/old.ts:1: "claude-sonnet-4-5" is deprecated');
  });

  it("passes current models, and longer ids that merely start like a deprecated one", () => {
    const run = checkTree({
      "docs/en/page.md":
        "```sh\nagent-lattice --model claude-sonnet-4-6 Hi\nagent-lattice --model claude-sonnet-4-50\n```\n",
      "README.md": "```text\nclaude-opus-4-5x\n```\n",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
