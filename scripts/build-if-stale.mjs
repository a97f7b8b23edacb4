#!/usr/bin/env node
/**
 * Builds the package (tsup) only when dist/ is missing or older than what it is built from: the
 * sources (src/), the build configuration (tsup.config.ts, tsconfig.json) and package.json. The
 * `prepare` script (run by `npm install` in a clone, `npm ci`, `npm pack` and installs from a git
 * URL or a folder), `npm run demo` and `npm test` use it, so a fresh build happens once, not on
 * every run.
 *
 * Stale means: one of the files package.json names as an entry (exports, bin) is missing, or the
 * newest input was modified after the oldest of them. `--force` builds anyway.
 *
 * `--cli` builds and checks only the command (dist/cli/, no declarations: seconds) — what
 * `npm run demo` needs. `--prepare` (the `prepare` script) does that for a developer's own
 * `npm install` / `npm ci` in the clone, and the whole package for everything that ships it: `npm
 * pack`, an install from a git URL, a folder or a link (see {@link isDevelopmentInstall}); the
 * library is then built by the next `npm run build`, `npm test` or `npm run test:quick`.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const INPUTS = ["src", "tsup.config.ts", "tsconfig.json", "package.json", "scripts/build-studio-page.mjs"];

/** The newest modification time under `path` (a file or a folder), in milliseconds. */
function newest(path) {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs; // a file deleted from the folder changes the folder's own time
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/**
 * Every built file package.json points at: the exports' files and types, and the command (with
 * `cliOnly`, the command alone).
 */
function entryFiles(packageJson, cliOnly = false) {
  const files = new Set(Object.values(packageJson.bin ?? {}));
  if (cliOnly) return [...files].map((file) => join(root, file));
  const walk = (value) => {
    if (typeof value === "string") {
      if (value.startsWith("./dist/")) files.add(value);
    } else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(packageJson.exports);
  return [...files].map((file) => join(root, file));
}

/** Why dist/ (with `cliOnly`: dist/cli/) needs a build, or `undefined` when it is up to date. */
export function staleReason(cliOnly = false) {
  const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const outputs = entryFiles(packageJson, cliOnly);
  const missing = outputs.find((file) => !existsSync(file));
  if (missing) return `${missing.slice(root.length + 1)} is missing`;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const changed = Math.max(...INPUTS.filter((input) => existsSync(join(root, input))).map((input) => newest(join(root, input))));
  return changed > built ? "the sources changed since the last build" : undefined;
}

/**
 * Whether npm runs `prepare` for a developer's own `npm install` or `npm ci` in this clone, where
 * nothing is shipped: started in the clone's root, not packing (`npm pack`, `npm publish`), not an
 * install of this folder from elsewhere (a link's `prepare` runs with the installing project as
 * `INIT_CWD`; a folder installed with --install-links and a git dependency are prepared by npm's
 * fetcher, which sets `npm_package_resolved`, and a git dependency's own install runs with
 * `_PACOTE_NO_PREPARE_`). Anything not recognised builds the whole package.
 */
export function isDevelopmentInstall(env = process.env) {
  if (env.npm_command !== "install" && env.npm_command !== "ci") return false;
  if (env.npm_package_resolved || env._PACOTE_NO_PREPARE_ !== undefined || !env.INIT_CWD) return false;
  try {
    return realpathSync(env.INIT_CWD) === realpathSync(root);
  } catch {
    return false;
  }
}

function main() {
  const force = process.argv.includes("--force");
  const cliOnly =
    process.argv.includes("--cli") || (process.argv.includes("--prepare") && isDevelopmentInstall());
  const reason = force ? "--force" : staleReason(cliOnly);
  if (!reason) return;
  const tsup = join(root, "node_modules", ".bin", "tsup");
  if (!existsSync(tsup)) {
    console.error(
      `agent-lattice: dist/ needs a build (${reason}), but tsup is not installed in ${root}: run \`npm install\` there first.`,
    );
    process.exit(1);
  }
  console.error(`agent-lattice: building ${cliOnly ? "the command, dist/cli/" : "dist/"} (${reason})…`);
  const env = cliOnly ? { ...process.env, AGENT_LATTICE_BUILD: "cli" } : process.env;
  const result = spawnSync(tsup, ["--silent"], { cwd: root, stdio: "inherit", env });
  process.exit(result.status ?? 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
