/**
 * Process groups: signalling a whole group, and stopping the groups still running when the host
 * process exits, so commands never outlive the agent that started them.
 * @module
 */

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

/** Whether any process of the group led by `groupId` still exists. */
export function processGroupExists(groupId: number): boolean {
  return signalProcessGroup(groupId, 0);
}

const runningGroups = new Set<number>();

function killRunningGroups(): void {
  for (const groupId of runningGroups) signalProcessGroup(groupId, "SIGKILL");
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
