// Counting machine instructions with Valgrind's callgrind, instrumentation switched on only after
// the measured process has warmed up. The parent runs `countInstructions(script, args)`; the script,
// started under callgrind as `node script ...args folder`, calls `warmedUp(folder)` after its
// warm-up and then runs the measured part. The folder is made and removed here.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when `valgrind` can be run here. */
export function hasValgrind() {
  return spawnSync("valgrind", ["--version"]).status === 0;
}

/**
 * Runs `node script ...args <folder>` under callgrind and returns the instructions it ran after it
 * called `warmedUp`. Prints callgrind's log and exits the process with 1 when the run fails.
 * `nodeFlags` go to node before the script (`--predictable-gc-schedule`, say).
 */
export async function countInstructions(script, args, { nodeFlags = [] } = {}) {
  const folder = mkdtempSync(join(tmpdir(), "agent-lattice-callgrind-"));
  try {
    const child = spawn(
      "valgrind",
      [
        "--tool=callgrind",
        "--instr-atstart=no",
        `--callgrind-out-file=${join(folder, "callgrind.out")}`,
        process.execPath,
        "--single-threaded",
        ...nodeFlags,
        script,
        ...args,
        folder,
      ],
      { stdio: ["ignore", "inherit", "pipe"] },
    );
    let log = "";
    child.stderr.on("data", (chunk) => {
      log += chunk;
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    while (!existsSync(join(folder, "warm")) && child.exitCode === null) await sleep(200);
    spawnSync("callgrind_control", ["-i", "on", String(child.pid)], { stdio: "ignore" });
    writeFileSync(join(folder, "go"), "");
    const code = await exited;
    const collected = /Collected : ([\d,]+)/.exec(log);
    if (code !== 0 || !collected) {
      console.error(log);
      process.exit(1);
    }
    return Number(collected[1].replaceAll(",", ""));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** In the measured process: says the warm-up is done, and waits until instrumentation is on. */
export async function warmedUp(folder) {
  writeFileSync(join(folder, "warm"), "");
  while (!existsSync(join(folder, "go"))) await sleep(50);
}

/**
 * Starts `node ...args` under callgrind with instrumentation off, for a parent that decides when to
 * count (several processes at once, say). Returns the child, `countFromNow()` (switches
 * instrumentation on) and `instructions`, which resolves with the count once the child has exited.
 */
export function startUnderCallgrind(args, { stdio = ["pipe", "pipe", "inherit"] } = {}) {
  const folder = mkdtempSync(join(tmpdir(), "agent-lattice-callgrind-"));
  const child = spawn(
    "valgrind",
    ["--tool=callgrind", "--instr-atstart=no", `--callgrind-out-file=${join(folder, "callgrind.out")}`, "--log-file=" + join(folder, "log"), process.execPath, "--single-threaded", ...args],
    { stdio },
  );
  const instructions = new Promise((resolve, reject) => {
    child.once("exit", (code) => {
      const log = existsSync(join(folder, "log")) ? readFileSync(join(folder, "log"), "utf8") : "";
      rmSync(folder, { recursive: true, force: true });
      const collected = /Collected : ([\d,]+)/.exec(log);
      if (code !== 0 || !collected) reject(new Error(`callgrind run failed (exit ${code}):\n${log}`));
      else resolve(Number(collected[1].replaceAll(",", "")));
    });
  });
  const countFromNow = () => spawnSync("callgrind_control", ["-i", "on", String(child.pid)], { stdio: "ignore" });
  return { child, countFromNow, instructions };
}
