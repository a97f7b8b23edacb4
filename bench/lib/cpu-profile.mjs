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
 * Reads a profile and returns its functions by self time: `{ name, location, selfMs, share }`,
 * heaviest first, plus the total sampled time.
 */
export async function summariseCpuProfile(file, top = 15) {
  const profile = JSON.parse(await readFile(file, "utf8"));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map();
  profile.samples.forEach((nodeId, index) => {
    selfMicros.set(nodeId, (selfMicros.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const byFunction = new Map();
  let total = 0;
  for (const [nodeId, micros] of selfMicros) {
    const { functionName, url, lineNumber } = nodes.get(nodeId).callFrame;
    const name = functionName || "(anonymous)";
    const key = `${name} ${shortLocation(url, lineNumber)}`;
    const entry = byFunction.get(key) ?? { name, location: shortLocation(url, lineNumber), selfMs: 0 };
    entry.selfMs += micros / 1000;
    byFunction.set(key, entry);
    total += micros / 1000;
  }
  const functions = [...byFunction.values()]
    .sort((a, b) => b.selfMs - a.selfMs)
    .slice(0, top)
    .map((entry) => ({ ...entry, share: entry.selfMs / total }));
  return { totalMs: total, functions };
}
