/**
 * The port between the tools that change files and `agent.rewind({ files: true })`: a tool that
 * records the prior content of the files it changes exposes its record as `Tool.fileCheckpoints`,
 * and the agent reads and restores it through this interface without knowing where it is kept.
 * @module
 */

/** What a checkpoint's record says about its files. */
export interface CheckpointFiles {
  /** The files (workspace-relative paths) changed under the checkpoint whose prior content is kept. */
  changed: string[];
  /** The files changed under it whose prior content was over the size limit, and so not kept. */
  notKept: string[];
}

/** What restoring files did. */
export interface FileRestoreReport {
  /** Files written back with their prior content (deleted ones re-created). */
  restored: string[];
  /** Files the tools had created since, removed. */
  removed: string[];
  /** Files whose prior content was over the size limit: left as they are. */
  notKept: string[];
  /** Files that could not be restored (confinement refused a path, an I/O error), each with why. */
  failed: Array<{ path: string; error: string }>;
}

/** A record of files' prior content, by checkpoint. */
export interface FileCheckpoints {
  /** The files recorded under `checkpointId` (empty lists when none). */
  files(checkpointId: string): Promise<CheckpointFiles>;
  /**
   * Puts back every file changed under `checkpointIds` (oldest first) as it was before the first of
   * them changed it: the earliest record of each file wins.
   */
  restore(checkpointIds: readonly string[]): Promise<FileRestoreReport>;
}
