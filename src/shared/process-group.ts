/**
 * Process groups: signalling a whole group, and stopping the groups still running when the host
 * process exits, so commands never outlive the agent that started them.
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";

/**
 * Sends `signal` to every process of the group led by `groupId`. Never throws.
 * @returns whether the signal was delivered: `false` when the group is gone (`ESRCH`) or holds only
 * processes that can no longer be signalled (`EPERM`, as macOS answers for a group of zombies)
 */
export function signalProcessGroup(groupId: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-groupId, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any process of the group led by `groupId` is still running. Zombies do not count: where
 * the init process does not reap orphans (many containers), dead members linger as zombies, and
 * on Linux `/proc` tells them apart.
 */
export function processGroupExists(groupId: number): boolean {
  if (!signalProcessGroup(groupId, 0)) return false;
  return process.platform !== "linux" || linuxGroupHasLivingMember(groupId);
}

function linuxGroupHasLivingMember(groupId: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const status = readProcessStatus(entry);
    if (status && status.groupId === groupId && status.state !== "Z" && status.state !== "X") return true;
  }
  return false;
}

/** State and process group of a process, from `/proc/<pid>/stat` (after the parenthesised name). */
function readProcessStatus(pid: string): { state: string; groupId: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", groupId: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

const runningGroups = new Set<number>();

function killRunningGroups(): void {
  for (const groupId of runningGroups) signalProcessGroup(groupId, "SIGKILL");
}

/**
 * Kills (SIGKILL) every group recorded with {@link trackProcessGroup} that is still running. For a
 * host about to exit without the `exit` event's guarantee (a signal handler calls it before
 * `process.exit`, the `exit` listener kills them again anyway).
 */
export function killTrackedProcessGroups(): void {
  killRunningGroups();
}

/**
 * Records a running group so that it is killed if the host process exits first. Returns the
 * function that forgets it again.
 */
export function trackProcessGroup(groupId: number): () => void {
  if (runningGroups.size === 0) process.on("exit", killRunningGroups);
  runningGroups.add(groupId);
  return () => {
    if (!runningGroups.delete(groupId)) return;
    if (runningGroups.size === 0) process.off("exit", killRunningGroups);
  };
}
