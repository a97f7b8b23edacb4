// Summarises a V8 .cpuprofile (from `node --cpu-prof`): self time per function, heaviest first.
import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";

const REPOSITORY = fileURLToPath(new URL("../../", import.meta.url));

/** Shortens a script URL to a path relative to the repository (node internals stay as they are). */
function shortLocation(url, lineNumber) {
  if (!url) return "(native)";
  const path = url.startsWith("file://") ? relative(REPOSITORY, fileURLToPath(url)) : url;
  return `${path}:${lineNumber + 1}`;
}

/**
 * Reads a profile and returns its functions by self time (`{ name, location, selfMs, share }`,
 * heaviest first), self time per package or file group, and the total sampled time.
 */
export async function summariseCpuProfile(file, top = 15) {
  const profile = JSON.parse(await readFile(file, "utf8"));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map();
  profile.samples.forEach((nodeId, index) => {
    selfMicros.set(nodeId, (selfMicros.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const byFunction = new Map();
  const byFile = new Map();
  let total = 0;
  for (const [nodeId, micros] of selfMicros) {
    const { functionName, url, lineNumber } = nodes.get(nodeId).callFrame;
    const name = functionName || "(anonymous)";
    const key = `${name} ${shortLocation(url, lineNumber)}`;
    const entry = byFunction.get(key) ?? { name, location: shortLocation(url, lineNumber), selfMs: 0 };
    entry.selfMs += micros / 1000;
    byFunction.set(key, entry);
    const file = fileGroup(url);
    byFile.set(file, (byFile.get(file) ?? 0) + micros / 1000);
    total += micros / 1000;
  }
  const functions = [...byFunction.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, top)
    .map((entry) => ({ ...entry, share: entry.selfMs / total }));
  const files = [...byFile.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([file, selfMs]) => ({ file, selfMs, share: selfMs / total }));
  return { totalMs: total, functions, files };
}

/** Where a function lives, coarsely: a package in node_modules, the build, a bench file, Node. */
function fileGroup(url) {
  if (!url) return "(native: GC, idle, program)";
  const modules = url.lastIndexOf("/node_modules/");
  if (modules !== -1) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith("node:")) return "node internals";
  if (url.includes("/dist/")) return "agent-lattice (dist)";
  if (url.includes("/bench/")) return "bench harness";
  return url;
}
