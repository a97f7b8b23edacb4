/**
 * Installable from the repository, as a new user does it: a fresh clone has no `dist/`, so the
 * `prepare` script (scripts/build-if-stale.mjs) must build it for `npm pack`, `npm install <folder>`
 * and `npm install <git url>`. The test copies the working tree as a clone holds it (tracked and
 * new files, no dist/, no node_modules — those are linked, as after `npm ci`), packs it (prepare
 * builds), installs the tarball into an empty folder, and runs a tool-using agent from the
 * installed package against the mock server in ESM and in CommonJS; then installs the folder
 * itself (`npm install <path> --install-links`, npm packs it the same way) and runs it again; then
 * commits the clone to git and installs it from a real git URL twice — `git://` served by `git
 * daemon` on loopback, and `git+file://` — where npm clones it, installs its devDependencies, runs
 * `prepare` (a whole build each time) and installs only the dependencies beside it.
 * Installs prefer npm's cache (`--prefer-offline`): only what the cache lacks is fetched. Slow by
 * nature: one file, so that the builds run one after the other.
 *
 * The git installs cost about three times the rest of the file (measured under load: pack and two
 * installs 157 s; git:// 159 s and git+file:// 296 s, each a devDependency install and a whole
 * build), so they run only with AGENT_LATTICE_TEST_GIT_INSTALL=1 — as CI does (.ci/run).
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
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
/** Whether to install from git URLs too (minutes each): CI does, a plain `npx vitest run` does not. */
const GIT_INSTALLS = process.env.AGENT_LATTICE_TEST_GIT_INSTALL === "1";

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

/** An empty project with `package.json` (and `fields` in it), the ESM and CJS scripts. */
function emptyProject(name: string, fields: Record<string, unknown> = {}): string {
  const folder = join(scratch, name);
  mkdirSync(folder);
  writeFileSync(
    join(folder, "package.json"),
    JSON.stringify({ name, version: "1.0.0", private: true, ...fields }),
  );
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

/** Makes the copied clone a git repository with its files in one commit; returns the commit's id. */
function commitClone(): string {
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=install test", "-c", "user.email=install@test", ...args], {
      cwd: clone,
      encoding: "utf8",
    }).trim();
  git("init", "--quiet");
  // node_modules is a link here, which .gitignore's `node_modules/` (folders only) does not match.
  git("add", "--all", "--", ".", ":(exclude)node_modules");
  git("commit", "--quiet", "--no-gpg-sign", "--no-verify", "--message", "agent-lattice as a clone holds it");
  return git("rev-parse", "HEAD");
}

/** A free TCP port on loopback, as the system hands one out. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address() as { port: number };
  await new Promise((done) => probe.close(done));
  return port;
}

/** `git daemon` serving the scratch folder on loopback, once it says it is ready to serve. */
async function startGitDaemon(port: number): Promise<ChildProcess> {
  const daemon = spawn(
    "git",
    [
      "daemon",
      "--verbose",
      "--export-all",
      `--base-path=${scratch}`,
      `--port=${port}`,
      "--listen=127.0.0.1",
      scratch,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let said = "";
  await new Promise<void>((ready, failed) => {
    daemon.stderr?.on("data", (chunk: Buffer) => {
      said += chunk;
      if (said.includes("Ready to rumble")) ready();
    });
    daemon.on("exit", (code) => failed(new Error(`git daemon exited (${code}): ${said}`)));
  });
  return daemon;
}

describe.runIf(GIT_INSTALLS)(
  "installing agent-lattice from a git URL: npm clones it, installs its devDependencies and runs prepare",
  () => {
    let commit: string;
    let daemon: ChildProcess;
    let gitURL: string;

    beforeAll(async () => {
      commit = commitClone();
      const port = await freePort();
      daemon = await startGitDaemon(port);
      gitURL = `git://127.0.0.1:${port}/agent-lattice`;
    });

    afterAll(() => daemon?.kill());

    /**
     * `npm install <url>` into an empty project that approves the package's `prepare` by its URL
     * (`allowScripts`; npm 12 skips unapproved dependency scripts, which `--strict-allow-scripts`
     * turns into an error on npm 11), then the agent in ESM and CJS.
     */
    async function installFromGit(url: string, name: string): Promise<void> {
      const project = emptyProject(name, { allowScripts: { [url]: true } });
      await run("npm", ["install", url, "--strict-allow-scripts", ...NPM_FLAGS], {
        cwd: project,
        // A liveness bound: a devDependency install and a whole build, minutes on a busy machine.
        timeout: 900_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"));
      expect(lock.packages["node_modules/agent-lattice"].resolved).toBe(`${url}#${commit}`);
      // The build's devDependencies stayed in npm's clone: the project has the dependencies only.
      expect(existsSync(join(project, "node_modules/tsup"))).toBe(false);
      for (const script of ["agent.mjs", "agent.cjs"])
        expect(await runAgent(project, script), script).toEqual({ result: "2 + 3 = 5.", toolResult: "5" });
    }

    it("git:// (git daemon on loopback): builds dist/ and runs a tool-using agent, ESM and CJS", async () => {
      await installFromGit(gitURL, "from-git-daemon");
    }, 920_000);

    it("git+file://: the same", async () => {
      await installFromGit(`git+file://${clone}`, "from-git-file");
    }, 920_000);
  },
);
