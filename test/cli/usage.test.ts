import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { cleanEnvironment, ensureBuiltCli, ROOT, runCli } from "./helpers";

describe("agent-lattice: usage, help, version and exit code 2", () => {
  beforeAll(ensureBuiltCli, 300_000);

  it("without ANTHROPIC_API_KEY, --base-url or --demo: one clear line pointing to --demo, exit 2", async () => {
    const run = await runCli(["Hello"], { env: cleanEnvironment() });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(/^agent-lattice: ANTHROPIC_API_KEY is not set\..*agent-lattice --demo\n$/);
  });

  it("a wrong option is reported on one line with a pointer to --help, exit 2", async () => {
    const run = await runCli(["--max-turns", "zero", "Hello"], {
      env: cleanEnvironment({ ANTHROPIC_API_KEY: "k" }),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'agent-lattice: --max-turns must be a positive integer, got "zero" (see agent-lattice --help)\n',
    );
  });

  it("a password in a refused --base-url, or in an unreachable ANTHROPIC_BASE_URL, is never printed", async () => {
    const secret = "pw-SeCrEt-91a7c3";
    const refused = await runCli(["--base-url", `ftp://user:${secret}@host/`, "Hello"], {
      env: cleanEnvironment({ ANTHROPIC_API_KEY: "k" }),
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--base-url must be an http(s) URL");
    expect(refused.stderr).not.toContain(secret);

    const unreachable = await runCli(["--max-turns", "1", "Hello"], {
      env: cleanEnvironment({
        ANTHROPIC_API_KEY: "k",
        ANTHROPIC_BASE_URL: `http://user:${secret}@127.0.0.1:1/`,
      }),
    });
    expect(unreachable.code).toBe(1);
    expect(`${unreachable.stdout}${unreachable.stderr}`).not.toContain(secret);
  });

  it("--help prints the usage on stdout and exits 0", async () => {
    const run = await runCli(["--help"], { env: cleanEnvironment() });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: agent-lattice \[options\] \[prompt\.\.\.\]/);
    for (const option of [
      "--model",
      "--base-url",
      "--system",
      "--max-turns",
      "--budget",
      "--price",
      "--pricing",
      "--tools",
      "--session",
      "--output-schema",
      "--json",
      "--demo",
    ])
      expect(run.stdout).toContain(option);
  });

  it("--version prints the package version", async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const run = await runCli(["--version"], { env: cleanEnvironment() });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
  });

  it("the built binary starts with a shebang and is executable", () => {
    const { bin } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const file = path.join(ROOT, bin["agent-lattice"]);
    expect(readFileSync(file, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(readFileSync(file).length).toBeGreaterThan(0);
  });
});
