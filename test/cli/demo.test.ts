import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDemoModel, IMMEDIATE_PACING } from "../../src/cli/demo-model";
import { DEMO_PROJECT_FILES } from "../../src/cli/demo-workspace";
import { startMockAnthropicServer } from "../../src/testing/index";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, runCli } from "./helpers";

const folders: string[] = [];

function workspaceOf(stderr: string): string {
  const folder = /workspace: (\S+)/.exec(stderr)?.[1];
  expect(folder).toBeDefined();
  folders.push(folder!);
  return folder!;
}

describe("agent-lattice --demo (real tools on a temporary folder; offline without a key)", () => {
  beforeAll(ensureBuiltCli, 300_000);
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("lists, reads, greps, writes and edits for real, streams the answer, and exits 0", async () => {
    const run = await runCli(["--demo"], { env: cleanEnvironment() });
    expect(run.code).toBe(0);

    const root = workspaceOf(run.stderr);
    const summary = readFileSync(path.join(root, "SUMMARY.md"), "utf8");
    expect(summary).toContain("# Lighthouse — summary");
    expect(summary).toContain("Status: reviewed");
    expect(summary).not.toContain("Status: draft");
    for (const file of Object.keys(DEMO_PROJECT_FILES)) expect(summary).toContain(`- ${file}`);
    expect(summary).toContain(
      "- calibrate the humidity sensor against a reference hygrometer (src/station.ts:10)",
    );
    expect(summary).toContain("- round temperatures to one decimal in the daily report (src/report.ts:4)");

    for (const line of [
      "  ✓ list_files(.) → 6 lines",
      "  ✓ read_file(README.md) → 6 lines",
      "  ✓ grep(TODO) → 2 lines",
      "  ✓ write_file(SUMMARY.md) → Wrote",
      '  ✓ edit_file(SUMMARY.md) → Replaced 1 occurrence in "SUMMARY.md" (line 3).',
    ])
      expect(run.stderr).toContain(line);
    expect(run.stderr).toMatch(
      /✓ done · 5 turns · [\d,]+ in (\([\d,]+ cached\) )?\/ [\d,]+ out tokens · \$0\.\d{4} · /,
    );
    expect(run.stdout).toContain(
      "Done. SUMMARY.md describes Lighthouse, a tiny logger for a backyard weather station.\n",
    );
    expect(run.stdout).toContain("It lists the 4 files and 2 open TODOs:");
    expect(run.stdout + run.stderr).not.toContain("\u001b");
  });

  it("with ANTHROPIC_API_KEY set, sends the same task to the API at ANTHROPIC_BASE_URL (live), with that key", async () => {
    // The "real API" here is a mock server answering like the demo's model, reached over HTTP.
    const api = await startMockAnthropicServer({ handler: createDemoModel(IMMEDIATE_PACING) });
    try {
      const run = await runCli(["--demo"], {
        env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY, ANTHROPIC_BASE_URL: api.url }),
      });
      expect(run.code).toBe(0);
      expect(run.stderr.split("\n")[0]).toMatch(/^Demo, live: /);
      const root = workspaceOf(run.stderr);
      expect(readFileSync(path.join(root, "SUMMARY.md"), "utf8")).toContain("Status: reviewed");
      expect(api.requests.length).toBe(5);
      const headers = api.requests[0]!.headers;
      expect(`${headers.authorization ?? ""} ${headers["x-api-key"] ?? ""}`).toContain(DUMMY_KEY);
      expect(run.stdout + run.stderr).not.toContain(DUMMY_KEY);
    } finally {
      await api.close();
    }
  });

  it("--offline keeps the demo on its own mock server even with a key set", async () => {
    const api = await startMockAnthropicServer({ handler: createDemoModel(IMMEDIATE_PACING) });
    try {
      const run = await runCli(["--demo", "--offline"], {
        env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY, ANTHROPIC_BASE_URL: api.url }),
      });
      expect(run.code).toBe(0);
      expect(run.stderr.split("\n")[0]).toMatch(/^Demo, offline: /);
      workspaceOf(run.stderr);
      expect(api.requests).toEqual([]);
    } finally {
      await api.close();
    }
  });

  it("--ask-before-writes, piped: the write waits (exit 3), and the closing line names no file it never wrote", async () => {
    const run = await runCli(["--demo", "--ask-before-writes"], { env: cleanEnvironment() });
    expect(run.code).toBe(3);
    const root = workspaceOf(run.stderr);
    expect(run.stderr).toContain(
      `The demo folder is kept (${root}); the agent wrote no SUMMARY.md this time.`,
    );
    expect(run.stderr).not.toContain("cat ");
  });

  it("--offline without --demo is a usage error", async () => {
    const run = await runCli(["--offline", "hi"], {
      env: cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY }),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--offline goes with --demo");
  });

  it("--demo --json prints the demo's messages as NDJSON", async () => {
    const run = await runCli(["--demo", "--json"], { env: cleanEnvironment() });
    expect(run.code).toBe(0);
    workspaceOf(run.stderr);
    const messages = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(messages[0]).toMatchObject({ type: "system", subtype: "init" });
    expect(messages.at(-1)).toMatchObject({ type: "result", subtype: "success", num_turns: 5 });
    const calls = messages
      .filter((message) => message.type === "assistant")
      .flatMap((message) => message.message.content)
      .filter((block: { type: string }) => block.type === "tool_use")
      .map((block: { name: string }) => block.name);
    expect(calls).toEqual(["list_files", "read_file", "grep", "write_file", "edit_file"]);
  });
});
