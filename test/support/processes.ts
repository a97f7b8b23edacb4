/** Process state for tests that check nothing they started is left running. */
import { readFileSync } from "node:fs";

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
