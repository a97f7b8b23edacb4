// Profiles one contender of a scenario with `node --cpu-prof` and summarises where its time went.
import { mkdir, readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { runChild, scenarioScript, startMockServerProcess } from "./child-process.mjs";
import { summariseCpuProfile } from "./cpu-profile.mjs";
import { formatNumber } from "./stats.mjs";

const PROFILES_FOLDER = fileURLToPath(new URL("../results/profiles/", import.meta.url));

/**
 * Runs scenario `scenario` ("a" to "d") for contender `id` under the V8 sampling profiler and
 * returns the summary (see summariseCpuProfile) with the profile's path. (a)/(b): 3 conversations
 * of 1,000 tool turns after 12 warm-up conversations; (c): 3 conversations of 200 streamed turns; (d): one batch.
 */
export async function profileContender(scenario, id, { env = process.env, top = 15 } = {}) {
  const folder = `${PROFILES_FOLDER}${scenario}-${id}-${Date.now()}`;
  await mkdir(folder, { recursive: true });
  const nodeArguments = ["--cpu-prof", `--cpu-prof-dir=${folder}`, "--cpu-prof-interval=100"];
  if (scenario === "a" || scenario === "b") {
    const bytes = scenario === "a" ? 0 : 2048;
    await runChild(scenarioScript("in-process.mjs"), [id, bytes, 1000, 3, 1000, 12], { nodeArguments, env });
  } else if (scenario === "c" || scenario === "d") {
    const server = await startMockServerProcess(env);
    try {
      if (scenario === "c")
        await runChild(scenarioScript("streaming.mjs"), [id, server.url, 200, 3, 20], { nodeArguments, env });
      else await runChild(scenarioScript("concurrent.mjs"), [id, server.url, 100, 10], { nodeArguments, env });
    } finally {
      await server.stop();
    }
  } else {
    throw new Error(`profiling supports scenarios a, b, c and d, not "${scenario}"`);
  }
  const [file] = (await readdir(folder)).filter((name) => name.endsWith(".cpuprofile"));
  const summary = await summariseCpuProfile(`${folder}/${file}`, top);
  return { scenario, id, path: `${folder}/${file}`, ...summary };
}

/** A profile summary as plain text: self time by package, then the heaviest functions. */
export function profileText(summary) {
  const lines = [
    `CPU profile of (${summary.scenario}) ${summary.id}: ${formatNumber(summary.totalMs, 0)} ms sampled (${summary.path})`,
    "  self time by package:",
    ...summary.files.map((entry) => `    ${formatNumber(entry.selfMs, 0).padStart(7)} ms ${(entry.share * 100).toFixed(1).padStart(5)}%  ${entry.file}`),
    "  heaviest functions (self time):",
    ...summary.functions.map(
      (entry) => `    ${formatNumber(entry.selfMs, 0).padStart(7)} ms ${(entry.share * 100).toFixed(1).padStart(5)}%  ${entry.name}  ${entry.location}`,
    ),
  ];
  return lines.join("\n");
}
