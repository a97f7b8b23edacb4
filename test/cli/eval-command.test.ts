/**
 * `agent-lattice eval`, the built command in a child process: the example replays offline with 3
 * trials and exits 0 with its reports written; the seeded regression (a system prompt that makes
 * the agent skip its tools) exits 1 naming the cases, in replay and live against the mock model,
 * and against a baseline names each regression; usage and input errors exit 2; Ctrl-C writes a
 * partial report and leaves no half-written file.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ruleModel } from "../../examples/evals/rule-model.mjs";
import { createSqliteHistoryStore } from "../../src/integrations/stores/sqlite";
import { startMockAnthropicServer } from "../../src/testing/index";
import { cleanEnvironment, ensureBuiltCli, eventually, ROOT, runCli, scratchFolder } from "./helpers";

const EXAMPLE = path.join(ROOT, "examples/evals");
const SLOW = { timeout: 240_000 };
const REGRESSION = { EVAL_SYSTEM_PROMPT: "Answer without tools." };
let scratch: ReturnType<typeof scratchFolder>;

beforeAll(() => ensureBuiltCli(), 600_000);
afterEach(() => scratch?.remove());

function report(out: string) {
  return JSON.parse(readFileSync(path.join(out, "report.json"), "utf8"));
}

describe("agent-lattice eval", () => {
  it("replays the example offline (3 trials, no key, no server) and writes every report", SLOW, async () => {
    scratch = scratchFolder();
    const run = await runCli([
      "eval",
      EXAMPLE,
      "--replay",
      "--trials",
      "3",
      "--out",
      scratch.root,
      "--reporter",
      "terminal,json,md,junit",
    ]);
    expect(run.stderr).not.toContain("Error");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/PASS: 34\/34 cases passed, 102\/102 trials run/);
    const written = report(scratch.root);
    expect(written).toMatchObject({
      format: "agent-lattice-eval-report",
      passed: true,
      complete: true,
      mode: "replay",
    });
    expect(written.totals.judgeCostUsd).toBeGreaterThan(0);
    expect(readFileSync(path.join(scratch.root, "report.md"), "utf8")).toContain("34/34 cases passed");
    expect(readFileSync(path.join(scratch.root, "junit.xml"), "utf8")).toContain(
      '<testsuite name="workspace-edit" tests="48" failures="0" errors="0"',
    );
    // Every trial's conversation and scores are kept in results.db, which the studio reads.
    const database = new Database(path.join(scratch.root, "results.db"), { readonly: true });
    const trials = database.prepare("SELECT * FROM agent_lattice_eval_trials").all() as Array<{
      conversation_id: string;
      scores: string;
    }>;
    expect(trials).toHaveLength(102);
    expect(JSON.parse(trials[0]!.scores).map((score: { scorer: string }) => score.scorer)).toContain("judge");
    const stored = await createSqliteHistoryStore({
      database,
      conversationId: trials[0]!.conversation_id,
    }).load();
    expect(stored.length).toBeGreaterThanOrEqual(4);
    expect(database.prepare("SELECT passed, complete FROM agent_lattice_eval_runs").all()).toEqual([
      { passed: 1, complete: 1 },
    ]);
    database.close();
    const files = readdirSync(scratch.root);
    expect(files).toEqual(expect.arrayContaining(["junit.xml", "report.json", "report.md", "results.db"]));
    expect(files.filter((file) => file.endsWith(".tmp"))).toEqual([]);
  });

  it(
    "exits 1 on the seeded regression, naming the cases, and names regressions against a baseline",
    SLOW,
    async () => {
      scratch = scratchFolder();
      const baselineOut = path.join(scratch.root, "baseline");
      const good = await runCli([
        "eval",
        EXAMPLE,
        "--replay",
        "--filter",
        "smoke",
        "--out",
        baselineOut,
        "--no-store",
      ]);
      expect(good.code).toBe(0);
      const out = path.join(scratch.root, "after");
      const bad = await runCli(
        [
          "eval",
          EXAMPLE,
          "--replay",
          "--filter",
          "smoke",
          "--out",
          out,
          "--baseline",
          path.join(baselineOut, "report.json"),
          "--no-store",
        ],
        { env: cleanEnvironment(REGRESSION) },
      );
      expect(bad.code).toBe(1);
      for (const id of ["read-readme", "search-todo", "create-todo"]) {
        expect(bad.stdout).toContain(
          `${id} #1 error: replay: the agent's request #1 differs from its recording at $.system`,
        );
        expect(bad.stdout).toMatch(new RegExp(`regression: workspace-\\w+ / ${id} \\(passed → failed\\)`));
      }
      expect(report(out).comparison.regressions).toHaveLength(3);
    },
  );

  it(
    "exits 1 live against the mock model when the agent skips its tools, with the scorers' reasons",
    SLOW,
    async () => {
      scratch = scratchFolder();
      const server = await startMockAnthropicServer({ handler: ruleModel() });
      try {
        const env = cleanEnvironment({
          ...REGRESSION,
          ANTHROPIC_BASE_URL: server.url,
          ANTHROPIC_API_KEY: "mock-offline-key",
        });
        const run = await runCli(
          ["eval", EXAMPLE, "--live", "--filter", "smoke", "--out", scratch.root, "--no-store"],
          { env },
        );
        expect(run.code).toBe(1);
        expect(run.stdout).toContain("create-todo #1 failed: toolCalls: call 1: expected write_file");
        expect(run.stdout).toContain("filesMatch: todo.txt is missing");
      } finally {
        await server.close();
      }
    },
  );

  it("exits 2 on a usage or input error", SLOW, async () => {
    scratch = scratchFolder({
      "bad.eval.mjs":
        'import { defineEval } from "agent-lattice/evals";\nexport default defineEval({ name: "bad", agent: () => ({ model: "m" }), cases: "cases.jsonl", scorers: [] });\n',
      "cases.jsonl": '{"id":"a","input":"hi"}\n{"id":"b"}\n',
      "not-an-eval.eval.mjs": "export default 42;\n",
    });
    // The scratch folder is outside the package: link it so that "agent-lattice/evals" resolves.
    writeFileSync(path.join(scratch.root, "package.json"), "{}");
    const link = path.join(scratch.root, "node_modules");
    (await import("node:fs")).mkdirSync(link);
    (await import("node:fs")).symlinkSync(ROOT, path.join(link, "agent-lattice"));
    expect((await runCli(["eval", "--trials", "0"], { cwd: scratch.root })).code).toBe(2);
    expect((await runCli(["eval", "--record", "--replay"], { cwd: scratch.root })).stderr).toContain(
      "choose one of",
    );
    const badCase = await runCli(["eval", "bad.eval.mjs", "--out", "out"], { cwd: scratch.root });
    expect(badCase.code).toBe(2);
    expect(badCase.stderr).toMatch(/cases\.jsonl:2: case "b": `input` must be/);
    const notEval = await runCli(["eval", "not-an-eval.eval.mjs"], { cwd: scratch.root });
    expect(notEval.code).toBe(2);
    expect(notEval.stderr).toContain("the default export must be a defineEval(…) definition");
  });

  it("on Ctrl-C stops, writes a partial report and leaves no half-written file", SLOW, async () => {
    scratch = scratchFolder();
    const server = await startMockAnthropicServer({ handler: () => ({ fault: "hang" }) });
    try {
      const env = cleanEnvironment({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: "mock-offline-key" });
      const run = await runCli(["eval", EXAMPLE, "--live", "--out", scratch.root], {
        env,
        onSpawn: (child) => {
          void eventually(
            "a request in flight",
            () => (server.requests.length > 0 ? true : undefined),
            120_000,
          ).then(() => child.kill("SIGINT"));
        },
      });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("interrupted; the partial report is written");
      const partial = report(scratch.root);
      expect(partial.complete).toBe(false);
      expect(partial.evals[0].notRun.length).toBeGreaterThan(0);
      expect(readdirSync(scratch.root).filter((file) => file.endsWith(".tmp"))).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
