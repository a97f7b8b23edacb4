/**
 * Vitest global setup: links the test-only dependencies of test/extras (better-sqlite3) into the
 * root node_modules before a run — a root `npm install` removes the links that
 * `npm run setup:tests` made. It never installs (`--link-only`); when test/extras is not installed
 * it says to run `npm run setup:tests`.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function linkTestExtras(): void {
  const script = fileURLToPath(new URL("../../scripts/setup-tests.mjs", import.meta.url));
  execFileSync(process.execPath, [script, "--link-only"], { stdio: "inherit" });
}
