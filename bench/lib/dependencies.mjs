// Installs the peers (bench/package.json devDependencies) from bench/package-lock.json when they
// are missing or not at the pinned versions. They never enter agent-lattice's own dependencies.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const BENCH_FOLDER = fileURLToPath(new URL("..", import.meta.url));

/** Names of pinned packages that are missing or at another version in bench/node_modules. */
function outdatedPeers() {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  return Object.entries(manifest.devDependencies).filter(([name, version]) => {
    const installed = new URL(`../node_modules/${name}/package.json`, import.meta.url);
    if (!existsSync(installed)) return true;
    return JSON.parse(readFileSync(installed, "utf8")).version !== version;
  });
}

/** Runs `npm ci` in bench/ when needed; returns an error message when the peers are unusable. */
export function ensurePeersInstalled(log) {
  const outdated = outdatedPeers();
  if (outdated.length === 0) return undefined;
  log(`installing the peers into bench/node_modules (npm ci --prefix bench): ${outdated.map(([name, version]) => `${name}@${version}`).join(", ")}`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const install = spawnSync(npm, ["ci", "--prefix", BENCH_FOLDER, "--no-audit", "--no-fund"], {
    stdio: ["ignore", process.stderr, process.stderr],
  });
  if (install.status !== 0) return `npm ci --prefix bench failed (exit ${install.status ?? install.signal})`;
  const still = outdatedPeers();
  return still.length ? `still missing after npm ci: ${still.map(([name]) => name).join(", ")}` : undefined;
}
