// Describes the machine and the software a benchmark ran on.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
import { createRequire } from "node:module";
import { join } from "node:path";

const fromBench = createRequire(new URL("../package.json", import.meta.url));
const fromRoot = createRequire(new URL("../../package.json", import.meta.url));

/** The version of `name` that `require` would load (found by walking its node_modules folders). */
function installedVersion(name, require) {
  for (const folder of require.resolve.paths(name) ?? []) {
    try {
      return JSON.parse(readFileSync(join(folder, name, "package.json"), "utf8")).version;
    } catch {
      // not in this folder: look further up
    }
  }
  return "not installed";
}

function commandOutput(command, parameters) {
  try {
    return execFileSync(command, parameters, { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trimEnd();
  } catch {
    return undefined;
  }
}

/**
 * How busy the machine is without us: the share of all cores' time spent outside idle over
 * `milliseconds`, read from the kernel's CPU counters while the benchmark runs nothing.
 */
export async function busyShare(milliseconds = 1000) {
  const total = () => cpus().reduce((sum, cpu) => {
    const { user, nice, sys, idle, irq } = cpu.times;
    return { busy: sum.busy + user + nice + sys + irq, all: sum.all + user + nice + sys + idle + irq };
  }, { busy: 0, all: 0 });
  const before = total();
  await new Promise((resolve) => setTimeout(resolve, milliseconds));
  const after = total();
  const all = after.all - before.all;
  return all > 0 ? Number(((after.busy - before.busy) / all).toFixed(2)) : 0;
}

/** The three load averages, rounded. */
export function loadAverages() {
  return loadavg().map((value) => Number(value.toFixed(2)));
}

/** Machine, Node and package versions, for the report. */
export function describeMachine() {
  const root = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  return {
    cores: availableParallelism(),
    cpu: cpus()[0]?.model ?? "unknown",
    memoryGiB: Number((totalmem() / 2 ** 30).toFixed(1)),
    free: commandOutput("free", ["-h"]),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    gitCommit: commandOutput("git", ["rev-parse", "--short", "HEAD"]),
    packages: {
      "agent-lattice": root.version,
      "@anthropic-ai/sdk (root dev dependency; the built-in client does not use it)": installedVersion("@anthropic-ai/sdk", fromRoot),
      "@anthropic-ai/sdk (raw loops)": installedVersion("@anthropic-ai/sdk", fromBench),
      ai: installedVersion("ai", fromBench),
      "@ai-sdk/anthropic": installedVersion("@ai-sdk/anthropic", fromBench),
      "@openai/agents-core": installedVersion("@openai/agents-core", fromBench),
      openai: installedVersion("openai", fromBench),
    },
  };
}
