/** Process state for tests that check nothing they started is left running. */
import { randomInt } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

/**
 * Whether `pid` is a running process. A zombie counts as gone: an orphan whose parent was killed is
 * left as one where nothing reaps orphans (many containers). Off Linux, existing is running.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== "linux") return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2)[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/**
 * Running processes whose command line holds `marker` (Linux: read from `/proc`). Finds the
 * processes of a command however it was started — also inside a sandbox's PID namespace, where
 * the `$$` the command prints is not its pid on the host.
 */
export function processesWithArgument(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker) && isRunning(Number(entry))) {
        found.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** A `sleep` of about two minutes whose duration is unique to this call, to find its processes by. */
export function uniqueSleep(): { command: string; marker: string } {
  const marker = `120.${randomInt(1e9).toString().padStart(9, "0")}`;
  return { command: `sleep ${marker}`, marker };
}
