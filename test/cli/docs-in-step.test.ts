/**
 * The CLI's docs kept in step with the command: the demo transcript of cli.md (en and zh) has the
 * shape of a real run's output, line by line (numbers, durations and the temporary folder may
 * differ; the words and the order may not), and `--help` describes `--tools bash` as it behaves
 * (sandboxed where bubblewrap works) and lists `--mock`.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { cleanEnvironment, ensureBuiltCli, runCli } from "./helpers";

const ROOT = path.resolve(__dirname, "../..");

/** A line with its variable parts (numbers, the demo folder's random suffix) blanked. */
function shapeOf(line: string): string {
  return line.replace(/agent-lattice-demo-\w+/g, "agent-lattice-demo-*").replace(/\d[\d,.]*/g, "#");
}

function documentedDemo(language: "en" | "zh"): string[] {
  const page = readFileSync(path.join(ROOT, "docs", language, "cli.md"), "utf8");
  const block = /```\n\$ npm run demo\n([\s\S]*?)\n```/.exec(page)?.[1];
  expect(block, `docs/${language}/cli.md has the demo transcript`).toBeDefined();
  return block!.split("\n");
}

describe("the CLI docs match the command", () => {
  beforeAll(ensureBuiltCli, 300_000);

  it("cli.md's demo transcript (en, zh) has the shape of a real offline run", async () => {
    // One pipe for both streams, as a terminal shows them: the notices and the answer interleaved.
    const cli = path.join(ROOT, "dist/cli/main.js");
    const { stdout } = await promisify(execFile)("sh", ["-c", `"${process.execPath}" "${cli}" --demo 2>&1`], {
      env: cleanEnvironment({ NO_COLOR: "1" }),
      timeout: 100_000,
    });
    const real = stdout.trimEnd().split("\n").map(shapeOf);
    for (const language of ["en", "zh"] as const)
      expect(documentedDemo(language).map(shapeOf), `docs/${language}/cli.md`).toEqual(real);
  }, 120_000);

  it("--help says bash runs sandboxed where it can, and lists --mock", async () => {
    const help = await runCli(["--help"], { env: cleanEnvironment() });
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/bash {2}= bash \(sandboxed with bubblewrap where it works/);
    expect(help.stdout).not.toMatch(/bash {2}= bash \(runs commands with your privileges\)/);
    expect(help.stdout).toMatch(/^ {2}--mock {2,}run your prompt/m);
  });
});
