#!/usr/bin/env node
/**
 * `npm run setup:tests`: installs the test-only dependencies kept out of the root install
 * (test/extras/package.json — better-sqlite3, which compiles from source when no prebuilt binary can
 * be downloaded, most of a fresh `npm install`'s time) and links each into the root node_modules,
 * where the sources, the tests and the built package resolve them. `npm test`, `npm run test:quick`
 * and .ci/run run it first; vitest's global setup re-links (never installs) before each run, since
 * every root `npm install` removes links it did not make.
 *
 * Steps: a package the root node_modules already has as a real install is left alone; else
 * test/extras is installed (`npm ci --prefix test/extras`) when its node_modules lacks a package or
 * is older than its lock; then each package is linked. `--link-only` skips the install (and says
 * what is missing).
 */
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const extras = join(root, "test", "extras");

/** The packages test/extras/package.json lists. */
export function extraPackages() {
  const manifest = JSON.parse(readFileSync(join(extras, "package.json"), "utf8"));
  return Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
}

/** Whether root node_modules has `name` as a real folder (installed there, not linked by us). */
function installedAtRoot(name) {
  const path = join(root, "node_modules", name);
  return existsSync(path) && !lstatSync(path).isSymbolicLink();
}

/**
 * Whether every package of the lock is installed at its locked version, read from npm's hidden
 * lockfile (node_modules/.package-lock.json) — by content, not by dates: a fresh checkout or a
 * worktree has a newer lock file than its install without being out of date.
 */
function installedAsLocked(lockPath, hiddenLockPath) {
  try {
    const locked = JSON.parse(readFileSync(lockPath, "utf8")).packages ?? {};
    const installed = JSON.parse(readFileSync(hiddenLockPath, "utf8")).packages ?? {};
    return Object.entries(locked).every(
      ([path, entry]) => path === "" || entry.optional || installed[path]?.version === entry.version,
    );
  } catch {
    return false;
  }
}

/** Whether test/extras needs `npm ci`: a package missing, or not at the version its lock says. */
function needsInstall(names) {
  const installed = join(extras, "node_modules", ".package-lock.json");
  if (!existsSync(installed)) return true;
  if (!installedAsLocked(join(extras, "package-lock.json"), installed)) return true;
  return names.some((name) => !existsSync(join(extras, "node_modules", name, "package.json")));
}

/**
 * Links root node_modules/`name` to test/extras/node_modules/`name` (relative), replacing a link
 * that points elsewhere or nowhere. Another process linking at the same time is no failure.
 */
function link(name) {
  const path = join(root, "node_modules", name);
  const target = relative(dirname(path), join(extras, "node_modules", name));
  let current;
  try {
    current = lstatSync(path).isSymbolicLink() ? readlinkSync(path) : "(a folder)";
  } catch {
    current = undefined;
  }
  if (current === target || current === "(a folder)") return;
  if (current !== undefined) rmSync(path, { force: true });
  mkdirSync(dirname(path), { recursive: true });
  try {
    symlinkSync(target, path, "dir");
  } catch (error) {
    if (error.code !== "EEXIST") throw error;
  }
}

/** Installs (unless `linkOnly`) and links; returns the packages still missing. */
export function setUpTestExtras({ linkOnly = false } = {}) {
  const wanted = extraPackages().filter((name) => !installedAtRoot(name));
  if (wanted.length === 0) return [];
  if (!linkOnly && needsInstall(wanted)) {
    console.error(`agent-lattice: installing the test-only dependencies (${wanted.join(", ")}) into test/extras…`);
    const result = spawnSync("npm", ["ci", "--prefix", extras, "--no-audit", "--no-fund"], {
      cwd: root,
      stdio: "inherit",
    });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  const missing = wanted.filter((name) => !existsSync(join(extras, "node_modules", name, "package.json")));
  for (const name of wanted) if (!missing.includes(name)) link(name);
  return missing;
}

/**
 * The MCP conformance suite's runner and the Node 22 it needs (tools/mcp-conformance): installed
 * there (`npm ci --prefix tools/mcp-conformance`) when missing or older than its lock, never linked.
 * Returns whether it is installed (true for a tree without that folder: nothing to install).
 */
export function setUpMcpConformance({ linkOnly = false } = {}) {
  const folder = join(root, "tools", "mcp-conformance");
  if (!existsSync(join(folder, "package.json"))) return true;
  const installed = join(folder, "node_modules", ".package-lock.json");
  const runner = join(folder, "node_modules", "@modelcontextprotocol", "conformance", "package.json");
  const stale =
    !existsSync(installed) || !existsSync(runner) || !installedAsLocked(join(folder, "package-lock.json"), installed);
  if (!stale || linkOnly) return !stale;
  console.error("agent-lattice: installing the MCP conformance runner into tools/mcp-conformance…");
  const result = spawnSync("npm", ["ci", "--prefix", folder, "--no-audit", "--no-fund"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const linkOnly = process.argv.includes("--link-only");
  if (!setUpMcpConformance({ linkOnly })) {
    console.error("agent-lattice: the MCP conformance runner is not installed: run `npm run setup:tests`.");
  }
  const missing = setUpTestExtras({ linkOnly });
  if (missing.length > 0) {
    console.error(
      `agent-lattice: ${missing.join(", ")} not installed: run \`npm run setup:tests\` (the tests that use it fail without it).`,
    );
  }
}
