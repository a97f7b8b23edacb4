import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const EXAMPLES = path.join(ROOT, "examples");
/** tsx from the repository's dev dependencies: the command docs/en/cli.md gives (`npx tsx …`). */
const TSX = path.join(ROOT, "node_modules/.bin/tsx");

/**
 * Runs one example as a reader would, offline: no ANTHROPIC_API_KEY, and ANTHROPIC_BASE_URL on a
 * port nothing listens on, so an example that reached for the network would fail.
 */
function runExample(file: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [path.join("examples", file)], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        HOME: process.env.HOME ?? "/tmp",
        ANTHROPIC_BASE_URL: "http://127.0.0.1:9",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const deadline = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(deadline);
      resolve({ code, stdout, stderr });
    });
  });
}

const examples = readdirSync(EXAMPLES).filter((name) => /\.(?:ts|mts|js|mjs)$/.test(name));

describe("every example under examples/ runs offline, as the docs say to run it", () => {
  it("finds the examples", () => {
    expect(examples).toContain("quickstart.ts");
  });

  it.each(examples)("%s runs against the mock server and exits 0", async (file) => {
    const run = await runExample(file);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // Each example says it runs offline (on the mock server) when there is no key.
    expect(run.stdout).toMatch(/offline/i);
  });

  it("durable-tool.ts: the worker is killed inside a step, and every payment effect happens once", async () => {
    const run = await runExample("durable-tool.ts");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("worker: SIGKILL");
    expect(run.stdout).toContain("Done: Charged 4200 cents (ch-hold-4200).");
    const effects = run.stdout.split("\n").filter((line) => /^(reserve|capture|receipt) cp_/.test(line));
    expect(effects.map((line) => line.split(" ")[0])).toEqual(["reserve", "capture", "receipt"]);
    expect(new Set(effects.map((line) => line.split(" ")[1])).size).toBe(1);
  });

  it("mcp-oauth.ts authorizes against its own local OAuth server and answers from the protected tool", async () => {
    const run = await runExample("mcp-oauth.ts");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^Authorize at http:\/\/127\.0\.0\.1:\d+\/authorize …$/m);
    expect(run.stdout).toContain("Invoice INV-42: paid on 2026-11-30");
    expect(run.stdout).toContain('Paused: requires_input, authorization of "billing".');
    expect(run.stdout).toContain('Callback: "billing" authorized.');
    expect(run.stdout).toMatch(/^Resumed: .*Invoice INV-42: paid on 2026-11-30/m);
  });

  it("quickstart.ts uses both tools and ends with success", async () => {
    const run = await runExample("quickstart.ts");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Offline, against the mock server at http://127.0.0.1:");
    expect(run.stdout).toContain("  → current_time(");
    expect(run.stdout).toContain("  ← 70.7 °F");
    expect(run.stdout).toMatch(/^success · 2 turns · \$\d+\.\d{4}$/m);
  });

  it("parallel-research.ts runs three researcher subagents, their lines indented under their calls", async () => {
    const run = await runExample("parallel-research.ts");
    expect(run.code).toBe(0);
    for (const id of [1, 2, 3]) {
      expect(run.stdout).toMatch(new RegExp(`^    \\[toolu_research_${id}\\] On .+: the short answer`, "m"));
      expect(run.stdout).toMatch(new RegExp(`^    \\[toolu_research_${id}\\] success · 1 turns`, "m"));
    }
    expect(run.stdout).toContain("Summary of 3 findings:");
    expect(run.stdout).toMatch(/^success · 2 turns · \$\d+\.\d{4}$/m);
  });

  it("guardrails.ts refuses off-topic, redacts a tool result and trips on personal data in an answer", async () => {
    const run = await runExample("guardrails.ts");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Off topic: success\n  I can help with billing questions only.");
    expect(run.stdout).toContain("contact [redacted email], [redacted phone]");
    expect(run.stdout).toContain("Personal data: guardrail_tripwire · pii-in-answers at output");
    expect(run.stdout).not.toContain("ada@example.com");
    expect(run.stdout).toContain(
      "Recorded in history: billing-only reject (input); pii-in-results redact (tool_output); pii-in-answers tripwire (output)",
    );
  });

  it("triage.ts refuses off-topic, hands billing and technical questions to specialists and trips on personal data", async () => {
    const run = await runExample("triage.ts");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "Off topic: success · answered by triage\n  I can help with billing and technical questions only.",
    );
    expect(run.stdout).toContain("Billing: success · answered by billing (requests: triage → billing)");
    expect(run.stdout).toContain("Invoice INV-7 is paid");
    expect(run.stdout).toContain("Technical: success · answered by tech (requests: billing → triage → tech)");
    expect(run.stdout).toContain(
      "Personal data: guardrail_tripwire · pii-in-answers at output · answered by tech",
    );
    expect(run.stdout).not.toContain("ada@example.com");
    expect(run.stdout).toContain(
      "Handoffs recorded in history: triage → billing; billing → triage; triage → tech",
    );
  });

  it("approval-server.ts pauses on one request and resumes on the next, each with a fresh Agent over the JSONL file", async () => {
    const run = await runExample("approval-server.ts");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("POST /conversations/release-42 → 202 waiting");
    expect(run.stdout).toContain('  waiting: deploy({"target":"production"}) [toolu_deploy_1]');
    expect(run.stdout).toContain("POST /conversations/release-42/approvals → 200 success");
    expect(run.stdout).toContain("  Done. Release 4.2.0 is live on production.");
    expect(run.stdout).toContain(
      "POST /conversations/release-42/approvals again → 400 approvals were given, but no tool call is waiting for approval.",
    );
  });
});
