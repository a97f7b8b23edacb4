/**
 * File pre-images for `write_file` and `edit_file`: before a tool changes a file it records the
 * file's prior content (or that it did not exist) under the running query's checkpoint — once per
 * file per checkpoint, content-addressed, in the workspace's `.agent-lattice/checkpoints/` — and
 * `agent.rewind({ files: true })` puts the files back from there, in this process or another.
 * @module
 */
import { lstat, unlink } from "node:fs/promises";
import path from "node:path";
import { isCheckpointId } from "../messages/checkpoint-id";
import { SerialQueue } from "../shared/serial-queue";
import type { CheckpointFiles, FileCheckpoints, FileRestoreReport } from "../tools/file-checkpoints";
import { CheckpointFolder, type CheckpointManifest } from "./checkpoint-folder";
import { createConfined, listingPath, openConfinedDirectory } from "./confined-open";
import type { FileCheckpointLimits } from "./options";
import { writeWholeFile } from "./whole-file";
import type { Workspace, WorkspacePath } from "./workspace";

/** The record of one workspace's file pre-images; shared by its `write_file` and `edit_file`. */
export class WorkspaceFileCheckpoints implements FileCheckpoints {
  private readonly folder: CheckpointFolder;
  /** One record at a time in this process: two tools never interleave a manifest's read and write. */
  private readonly queue = new SerialQueue();

  constructor(
    private readonly workspace: Workspace,
    private readonly limits: FileCheckpointLimits,
  ) {
    this.folder = new CheckpointFolder(workspace);
  }

  /**
   * Records `file`'s prior content under `checkpointId` before a tool changes it, unless this
   * checkpoint recorded it already. `size` is its size now (`undefined`: it does not exist);
   * `read` gives its content and is called only when it is within the limits.
   */
  record(
    checkpointId: string | undefined,
    file: WorkspacePath,
    size: number | undefined,
    read: () => Promise<Uint8Array>,
  ): Promise<void> {
    if (!isCheckpointId(checkpointId)) return Promise.resolve(); // outside an agent's query
    return this.queue.run(() => this.recordNow(checkpointId, file.display, size, read));
  }

  private async recordNow(
    checkpointId: string,
    relative: string,
    size: number | undefined,
    read: () => Promise<Uint8Array>,
  ): Promise<void> {
    const manifest = (await this.folder.manifest(checkpointId)) ?? { files: {}, notKept: [], bytes: 0 };
    if (relative in manifest.files || manifest.notKept.includes(relative)) return;
    if (size === undefined) manifest.files[relative] = null;
    else if (size > this.limits.maxFileBytes || manifest.bytes + size > this.limits.maxCheckpointBytes)
      manifest.notKept.push(relative);
    else {
      const content = await read();
      manifest.files[relative] = await this.folder.keep(content);
      manifest.bytes += content.length;
    }
    await this.folder.writeManifest(checkpointId, manifest);
  }

  async files(checkpointId: string): Promise<CheckpointFiles> {
    const manifest = isCheckpointId(checkpointId) ? await this.folder.manifest(checkpointId) : undefined;
    return {
      changed: Object.keys(manifest?.files ?? {}).sort(),
      notKept: [...(manifest?.notKept ?? [])].sort(),
    };
  }

  async restore(checkpointIds: readonly string[]): Promise<FileRestoreReport> {
    const report: FileRestoreReport = { restored: [], removed: [], notKept: [], failed: [] };
    const earliest = new Map<string, string | null | "not-kept">();
    for (const id of checkpointIds) {
      const manifest: CheckpointManifest | undefined = isCheckpointId(id)
        ? await this.folder.manifest(id)
        : undefined;
      if (!manifest) continue;
      for (const [file, hash] of Object.entries(manifest.files))
        if (!earliest.has(file)) earliest.set(file, hash);
      for (const file of manifest.notKept) if (!earliest.has(file)) earliest.set(file, "not-kept");
    }
    for (const [file, prior] of [...earliest].sort(([a], [b]) => a.localeCompare(b))) {
      if (prior === "not-kept") {
        report.notKept.push(file);
        continue;
      }
      try {
        if (prior === null) {
          if (await this.remove(file)) report.removed.push(file);
        } else {
          await this.write(file, prior);
          report.restored.push(file);
        }
      } catch (error) {
        report.failed.push({ path: file, error: (error as Error)?.message ?? String(error) });
      }
    }
    return report;
  }

  /** Where `relative` is: its folder resolved and verified, its last component never followed. */
  private async locate(relative: string): Promise<WorkspacePath> {
    const parent = await this.workspace.resolve(path.posix.dirname(relative));
    const absolute = path.join(parent.absolute, path.posix.basename(relative));
    return { absolute, display: this.workspace.display(absolute) };
  }

  /** Removes a file a tool created; a link at its name is removed itself, never followed. */
  private async remove(relative: string): Promise<boolean> {
    const file = await this.locate(relative);
    let folder: Awaited<ReturnType<typeof openConfinedDirectory>>;
    try {
      folder = await openConfinedDirectory(this.workspace, path.dirname(file.absolute), relative);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false; // its folder is gone too
      throw error;
    }
    try {
      const entry = `${listingPath(folder)}/${path.basename(file.absolute)}`;
      const found = await lstat(entry).catch(() => undefined);
      if (!found) return false;
      if (found.isDirectory()) throw new Error(`"${relative}" is a folder now; it was left as it is.`);
      await unlink(entry);
      return true;
    } finally {
      await folder.handle.close();
    }
  }

  /** Writes the prior content back (re-creating the file and its folders when they were deleted). */
  private async write(relative: string, hash: string): Promise<void> {
    const content = await this.folder.blob(hash);
    if (content === undefined) throw new Error(`the prior content of "${relative}" is missing or altered.`);
    const file = await this.locate(relative);
    // A link now at the name is removed (never followed); one swapped in meanwhile makes the open fail.
    if ((await lstat(file.absolute).catch(() => undefined))?.isSymbolicLink()) await this.remove(relative);
    const created = await createConfined(this.workspace, file, relative);
    if (created.status !== "opened")
      throw new Error(
        `"${relative}" is a ${created.status === "directory" ? "folder" : "special file"} now; it was left as it is.`,
      );
    try {
      await writeWholeFile(created.entry.handle, content);
    } finally {
      await created.entry.handle.close();
    }
  }
}
