/**
 * The tutorial as written (docs/en/tutorial.md), in an empty folder, offline: the package packed
 * (`npm pack`, whose package.json must carry no scripts), the tutorial's install commands run
 * literally with the tarball for `<agent-lattice>`, each sample written to the file its first line
 * names, and each run the tutorial's offline way — `npx agent-lattice mock-server -- npx tsx <file>`
 * — with no key in the environment; the recipes' programs run the same way. Installs prefer npm's
 * cache; every step has a liveness bound sized for a busy 2-core machine.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedTemporaryFolder } from "../support/temporary-folders";

const run = promisify(execFile);
const root = resolve(__dirname, "../..");
const scratch = sharedTemporaryFolder("lattice-tutorial-");
const project = join(scratch, "my-agent");

/** The environment of a newcomer without a key: no provider variables; npm quiet and cache first. */
function newcomerEnvironment(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    npm_config_prefer_offline: "true",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

/** The fenced blocks of `language` in a markdown page, in order. */
function blocks(page: string, language: string): string[] {
  const text = readFileSync(join(root, page), "utf8");
  return [...text.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map(
    (match) => match[1]!,
  );
}

function sh(command: string, timeout: number) {
  return run("sh", ["-c", command], {
    cwd: project,
    env: newcomerEnvironment(),
    timeout,
    maxBuffer: 16 << 20,
  });
}

let tarball: string;
let runLine: string;

beforeAll(async () => {
  const before = readFileSync(join(root, "package.json"), "utf8");
  const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", scratch], {
    cwd: root,
    timeout: 900_000,
    maxBuffer: 64 << 20,
  });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf("[")));
  tarball = join(scratch, packed.filename);
  // postpack put the clone's package.json back as it was.
  expect(readFileSync(join(root, "package.json"), "utf8")).toBe(before);
}, 920_000);

describe("the tutorial, followed literally in an empty folder, offline", () => {
  it("the packed package.json carries no scripts (no install script to review)", async () => {
    const { stdout } = await run("tar", ["-xzOf", tarball, "package/package.json"]);
    const packed = JSON.parse(stdout);
    expect(packed.name).toBe("agent-lattice");
    expect(packed.scripts).toBeUndefined();
    expect(packed.bin).toEqual({ "agent-lattice": "./dist/cli/main.js" });
  });

  it("installs with the tutorial's commands, from the tarball", async () => {
    const [install, running] = blocks("docs/en/tutorial.md", "sh");
    await run("mkdir", ["-p", project]);
    for (const line of install!.split("\n").filter((line) => line.trim() && !line.startsWith("#"))) {
      await sh(line.replace("<agent-lattice>", tarball), 600_000);
    }
    const manifest = JSON.parse(readFileSync(join(project, "package.json"), "utf8"));
    expect(manifest.type).toBe("module");
    expect(existsSync(join(project, "node_modules/agent-lattice/dist/index.js"))).toBe(true);
    runLine = running!
      .split("\n")
      .find((line) => line.includes("mock-server"))!
      .split("#")[0]!
      .trim();
    expect(runLine).toBe("npx agent-lattice mock-server -- npx tsx first.ts");
  }, 620_000);

  const expected: Record<string, RegExp> = {
    "first.ts": /^\[mock model, offline\] You said: "Say hello in five words\."/m,
    "tool.ts": /Here is what the tool returned:\n6\.5$/m,
    "stream.ts": /^\[mock model, offline\] You said: "Count to five\."/m,
    "history.ts": /You said: "What is my name\?"/,
    "approval.ts": /Here is what the tool returned:\ndeployed to production$/m,
  };

  it("runs every sample unchanged with the bundled mock model, no key", async () => {
    expect(runLine, "the install step ran first").toBeDefined();
    const samples = blocks("docs/en/tutorial.md", "ts");
    const files = samples.map((sample) => /^\/\/ (\S+\.ts)\n/.exec(sample)?.[1]);
    expect(files).toEqual(Object.keys(expected));
    for (const [index, file] of files.entries()) {
      writeFileSync(join(project, file!), samples[index]!);
      const { stdout } = await sh(runLine.replace("first.ts", file!), 180_000);
      expect(stdout, file).toMatch(expected[file!]!);
    }
    const stored = readFileSync(join(project, ".agent-sessions/ada.jsonl"), "utf8").trim().split("\n");
    expect(stored).toHaveLength(4);
  }, 900_000);

  it("runs the recipes' programs the same way", async () => {
    expect(runLine, "the install step ran first").toBeDefined();
    const outputs: string[] = [];
    for (const [index, sample] of blocks("docs/en/recipes.md", "ts").entries()) {
      const file = `recipe-${index + 1}.ts`;
      writeFileSync(join(project, file), sample);
      outputs.push((await sh(runLine.replace("first.ts", file), 180_000)).stdout);
    }
    expect(outputs[0]).toMatch(/^Hello!$/m);
    expect(outputs[1]).toMatch(/^success \d/m);
    expect(outputs[2]).toMatch(/^error_abort$/m);
  }, 900_000);
});
