#!/usr/bin/env node
/**
 * Builds the package (tsup) only when dist/ is missing or older than what it is built from: the
 * sources (src/), the build configuration (tsup.config.ts, tsconfig.json) and package.json. The
 * `prepare` script (run by `npm install` in a clone, `npm ci`, `npm pack` and installs from a git
 * URL or a folder) and `npm run demo` use it, so a fresh build happens once, not on every run.
 *
 * Stale means: one of the files package.json names as an entry (exports, bin) is missing, or the
 * newest input was modified after the oldest of them. `--force` builds anyway.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const INPUTS = ["src", "tsup.config.ts", "tsconfig.json", "package.json"];

/** The newest modification time under `path` (a file or a folder), in milliseconds. */
function newest(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs; // a file deleted from the folder changes the folder's own time
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Every built file package.json points at: the exports' files and types, and the command. */
function entryFiles(packageJson) {
  const files = new Set(Object.values(packageJson.bin ?? {}));
  const walk = (value) => {
    if (typeof value === "string") {
      if (value.startsWith("./dist/")) files.add(value);
    } else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(packageJson.exports);
  return [...files].map((file) => join(root, file));
}

/** Why dist/ needs a build, or `undefined` when it is up to date. */
export function staleReason() {
  const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const outputs = entryFiles(packageJson);
  const missing = outputs.find((file) => !existsSync(file));
  if (missing) return `${missing.slice(root.length + 1)} is missing`;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const changed = Math.max(...INPUTS.filter((input) => existsSync(join(root, input))).map((input) => newest(join(root, input))));
  return changed > built ? "the sources changed since the last build" : undefined;
}

function main() {
  const force = process.argv.includes("--force");
  const reason = force ? "--force" : staleReason();
  if (!reason) return;
  const tsup = join(root, "node_modules", ".bin", "tsup");
  if (!existsSync(tsup)) {
    console.error(
      `agent-lattice: dist/ needs a build (${reason}), but tsup is not installed in ${root}: run \`npm install\` there first.`,
    );
    process.exit(1);
  }
  console.error(`agent-lattice: building dist/ (${reason})…`);
  const result = spawnSync(tsup, ["--silent"], { cwd: root, stdio: "inherit" });
  process.exit(result.status ?? 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
