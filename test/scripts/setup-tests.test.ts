/**
 * scripts/setup-tests.mjs (`npm run setup:tests`): installs test/extras (the test-only dependencies
 * kept out of the root install) when its node_modules lacks a package or a version its lock names,
 * and links each package into the root node_modules, where sources and tests resolve it. Each case
 * runs on a tree of its own with a fake package, and with a stand-in `npm` first on PATH that
 * records its arguments and installs the fake package, so no registry is needed.
 */
import { execFile } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../support/temporary-folders";

const run = promisify(execFile);
const root = resolve(__dirname, "../..");
const PACKAGE = "fake-native";

/** A tree with the script, test/extras listing PACKAGE, an empty root node_modules and a fake `npm`. */
function tree(): string {
  const folder = temporaryFolder("lattice-setup-tests-");
  cpSync(join(root, "scripts/setup-tests.mjs"), join(folder, "scripts/setup-tests.mjs"));
  const extras = join(folder, "test/extras");
  mkdirSync(extras, { recursive: true });
  writeFileSync(
    join(extras, "package.json"),
    JSON.stringify({ private: true, devDependencies: { [PACKAGE]: "1.0.0" } }),
  );
  writeFileSync(join(extras, "package-lock.json"), "{}");
  mkdirSync(join(folder, "node_modules"));
  // The stand-in npm: records its arguments, then installs PACKAGE where `npm ci --prefix` would.
  const bin = join(folder, "bin");
  mkdirSync(bin);
  writeFileSync(
    join(bin, "npm"),
    `#!/bin/sh
echo "$@" >> "${folder}/npm-calls.txt"
mkdir -p "${extras}/node_modules/${PACKAGE}"
echo '{"name":"${PACKAGE}","version":"1.0.0","main":"index.js"}' > "${extras}/node_modules/${PACKAGE}/package.json"
echo 'module.exports = "from test/extras";' > "${extras}/node_modules/${PACKAGE}/index.js"
cp "${extras}/package-lock.json" "${extras}/node_modules/.package-lock.json"
`,
  );
  chmodSync(join(bin, "npm"), 0o755);
  return folder;
}

async function setUp(folder: string, ...args: string[]) {
  return run(process.execPath, ["scripts/setup-tests.mjs", ...args], {
    cwd: folder,
    env: { ...process.env, PATH: `${join(folder, "bin")}:${process.env.PATH}` },
  });
}

function npmCalls(folder: string): string[] {
  const file = join(folder, "npm-calls.txt");
  return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n") : [];
}

/** What `require(PACKAGE)` gives from the tree's root, as the sources and tests resolve it. */
async function requireFromRoot(folder: string): Promise<string> {
  const { stdout } = await run(process.execPath, ["-e", `process.stdout.write(require("${PACKAGE}"))`], {
    cwd: folder,
  });
  return stdout;
}

describe("npm run setup:tests", () => {
  it("installs test/extras once and links the package into the root node_modules", async () => {
    const folder = tree();
    await setUp(folder);
    expect(npmCalls(folder)).toEqual([`ci --prefix ${join(folder, "test/extras")} --no-audit --no-fund`]);
    const link = join(folder, "node_modules", PACKAGE);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(`../test/extras/node_modules/${PACKAGE}`); // relative: the clone may move
    expect(await requireFromRoot(folder)).toBe("from test/extras");

    await setUp(folder); // installed and linked: nothing to do
    expect(npmCalls(folder)).toHaveLength(1);
  });

  it("installs again when the lock names a version that is not installed", async () => {
    const folder = tree();
    await setUp(folder);
    writeFileSync(
      join(folder, "test/extras/package-lock.json"),
      JSON.stringify({ packages: { "": {}, [`node_modules/${PACKAGE}`]: { version: "1.0.1" } } }),
    );
    await setUp(folder);
    expect(npmCalls(folder)).toHaveLength(2);
    await setUp(folder); // the install now matches its lock
    expect(npmCalls(folder)).toHaveLength(2);
  });

  it("installs nothing when the lock is newer than the install but names what is installed (a fresh checkout, a worktree)", async () => {
    const folder = tree();
    await setUp(folder);
    const later = new Date(Date.now() + 3_600_000);
    utimesSync(join(folder, "test/extras/package-lock.json"), later, later);
    await setUp(folder);
    expect(npmCalls(folder)).toHaveLength(1);
  });

  it("re-links after a root npm install removed the link, or left it pointing elsewhere", async () => {
    const folder = tree();
    await setUp(folder);
    const link = join(folder, "node_modules", PACKAGE);
    await run("rm", [link]);
    await setUp(folder, "--link-only");
    expect(await requireFromRoot(folder)).toBe("from test/extras");
    await run("rm", [link]);
    symlinkSync("../nowhere", link, "dir");
    await setUp(folder, "--link-only");
    expect(readlinkSync(link)).toBe(`../test/extras/node_modules/${PACKAGE}`);
    expect(npmCalls(folder)).toHaveLength(1);
  });

  it("leaves a package installed in the root node_modules itself alone", async () => {
    const folder = tree();
    const own = join(folder, "node_modules", PACKAGE);
    mkdirSync(own);
    writeFileSync(join(own, "package.json"), JSON.stringify({ name: PACKAGE, main: "index.js" }));
    writeFileSync(join(own, "index.js"), 'module.exports = "from the root";');
    await setUp(folder);
    expect(npmCalls(folder)).toEqual([]);
    expect(await requireFromRoot(folder)).toBe("from the root");
  });

  it("--link-only never installs: it says what is missing and how to install it", async () => {
    const folder = tree();
    const { stderr } = await setUp(folder, "--link-only");
    expect(npmCalls(folder)).toEqual([]);
    expect(stderr).toContain(`${PACKAGE} not installed: run \`npm run setup:tests\``);
    expect(existsSync(join(folder, "node_modules", PACKAGE))).toBe(false);
  });
});
