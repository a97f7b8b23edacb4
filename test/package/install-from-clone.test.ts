/**
 * Installable from the repository, as a new user does it: a fresh clone has no `dist/`, so the
 * `prepare` script (scripts/build-if-stale.mjs) must build it for `npm pack`, `npm install <folder>`
 * and `npm install <git url>`. The test copies the working tree as a clone holds it (tracked and
 * new files, no dist/, no node_modules — those are linked, as after `npm ci`), packs it (prepare
 * builds), installs the tarball into an empty folder, and runs a tool-using agent from the
 * installed package against the mock server in ESM and in CommonJS; then installs the folder
 * itself (`npm install <path> --install-links`, npm packs it the same way) and runs it again.
 * Installs prefer npm's cache (`--prefer-offline`): only the four dependencies are fetched, and
 * only when the cache lacks them. Slow by nature (one full build, two installs): one file.
 */
import { execFile, execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";
import { sharedTemporaryFolder } from "../support/temporary-folders";

const run = promisify(execFile);
const root = resolve(__dirname, "../..");
const scratch = sharedTemporaryFolder("lattice-install-");
const clone = join(scratch, "agent-lattice");
const NPM_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

const AGENT = (load: string) => `${load}
const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const main = async () => {
  const agent = createAgent({ model: "claude-install-1", apiKey: "install-key-42", baseURL: process.argv[2], tools: [add] });
  const result = await agent.prompt("What is 2 + 3?");
  const history = await agent.getHistory();
  console.log(JSON.stringify({ result: result.result, toolResult: history[2].content[0].content }));
};
main();
`;
const ESM = AGENT(`import { createAgent, defineTool } from "agent-lattice";\nimport { z } from "zod";`);
const CJS = AGENT(
  `const { createAgent, defineTool } = require("agent-lattice");\nconst { z } = require("zod");`,
);

let server: MockAnthropicServer;

/** The working tree as a fresh clone has it: tracked and untracked-but-not-ignored files, as they are now. */
function copyWorkingTree(): void {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter((file) => file && existsSync(join(root, file)));
  for (const file of files) {
    mkdirSync(dirname(join(clone, file)), { recursive: true });
    copyFileSync(join(root, file), join(clone, file));
  }
  symlinkSync(join(root, "node_modules"), join(clone, "node_modules"), "dir");
}

/** An empty project with `package.json`, the ESM and CJS scripts. */
function emptyProject(name: string): string {
  const folder = join(scratch, name);
  mkdirSync(folder);
  writeFileSync(join(folder, "package.json"), JSON.stringify({ name, version: "1.0.0", private: true }));
  writeFileSync(join(folder, "agent.mjs"), ESM);
  writeFileSync(join(folder, "agent.cjs"), CJS);
  return folder;
}

/** Runs one of the project's scripts against the mock server; returns what it printed. */
async function runAgent(folder: string, script: string): Promise<{ result: string; toolResult: string }> {
  server.enqueue(
    { content: [{ type: "tool_use", id: "toolu_install", name: "add", input: { a: 2, b: 3 } }] },
    { content: "2 + 3 = 5." },
  );
  const { stdout } = await run(process.execPath, [script, server.url], { cwd: folder, timeout: 60_000 });
  return JSON.parse(stdout);
}

beforeAll(async () => {
  server = await startMockAnthropicServer({ responses: [] });
  copyWorkingTree();
}, 60_000);

afterAll(() => server.close());

describe("installing agent-lattice from its repository", () => {
  let tarball: string;

  it("npm pack of a fresh clone builds dist/ (prepare) and ships it", async () => {
    expect(existsSync(join(clone, "dist"))).toBe(false);
    const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", scratch], {
      cwd: clone,
      // A liveness bound: the whole build takes about a minute alone, over six with the machine's
      // two cores shared by several busy builds.
      timeout: 900_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const [packed] = JSON.parse(stdout.slice(stdout.indexOf("[")));
    const paths = packed.files.map((file: { path: string }) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining(["dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/cli/main.js"]),
    );
    tarball = join(scratch, packed.filename);
  }, 920_000);

  it("the tarball installs into an empty folder and runs a tool-using agent, ESM and CJS", async () => {
    const project = emptyProject("from-tarball");
    await run("npm", ["install", tarball, ...NPM_FLAGS], { cwd: project, timeout: 300_000 });
    expect(existsSync(join(project, "node_modules/agent-lattice/dist/index.js"))).toBe(true);
    for (const script of ["agent.mjs", "agent.cjs"])
      expect(await runAgent(project, script), script).toEqual({ result: "2 + 3 = 5.", toolResult: "5" });
    const installed = JSON.parse(
      readFileSync(join(project, "node_modules/agent-lattice/package.json"), "utf8"),
    );
    expect(installed.name).toBe("agent-lattice");
  }, 320_000);

  it("npm install <folder> of the clone installs a working package", async () => {
    const project = emptyProject("from-folder");
    await run("npm", ["install", clone, "--install-links", ...NPM_FLAGS], { cwd: project, timeout: 300_000 });
    expect(await runAgent(project, "agent.mjs")).toEqual({ result: "2 + 3 = 5.", toolResult: "5" });
  }, 320_000);

  it("the build step says what to do when dist/ is stale and tsup is not installed", async () => {
    const bare = join(scratch, "bare");
    mkdirSync(join(bare, "scripts"), { recursive: true });
    for (const file of ["package.json", "tsconfig.json", "tsup.config.ts", "scripts/build-if-stale.mjs"])
      copyFileSync(join(clone, file), join(bare, file));
    const failure = await run(process.execPath, [join(bare, "scripts/build-if-stale.mjs")], {
      cwd: bare,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toMatch(
      /dist\/.* is missing.*run `npm install` there first/,
    );
  });
});
