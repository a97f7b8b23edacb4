/**
 * A memory tree in a folder (`createMemoryTool({ root })`): one file per memory, confined to the
 * folder exactly as the workspace tools are — paths resolved inside the root, every open verified
 * on its descriptor, files created and removed through verified parent folders — so a symbolic
 * link swapped in at any moment cannot lead a read or a write outside it. Changes are exclusive:
 * in-process writers queue on the folder, and processes take a lock file (`.memory.lock`, created
 * exclusively; one older than {@link STALE_LOCK_MS} is taken over).
 * @module
 */
import { open, readdir, rmdir, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { SerialQueue } from "../../shared/serial-queue";
import { createConfined, listingPath, openConfined, openConfinedDirectory } from "../confined-open";
import { resolveWorkspaceSettings } from "../options";
import { writeWholeFile } from "../whole-file";
import { createWorkspace, type Workspace } from "../workspace";
import type { MemoryBackend, MemoryTree } from "./memory-files";

/** The lock file of a memory folder. */
export const MEMORY_LOCK_FILE = ".memory.lock";
/** A lock file older than this is left over by a process that died: it is taken over. */
export const STALE_LOCK_MS = 30_000;

/** The in-process queue of each memory folder (by real path): one change at a time. */
const queues = new Map<string, SerialQueue>();

/** The memory backend over the folder `root` (which must exist). */
export function createFolderMemoryBackend(root: string): MemoryBackend {
  const workspace = createWorkspace(resolveWorkspaceSettings({ root }));
  const { realRoot } = workspace.settings;
  return {
    read: () => readTree(workspace),
    update(change) {
      let queue = queues.get(realRoot);
      if (!queue) queues.set(realRoot, (queue = new SerialQueue()));
      const run = queue.run(() => withLockFile(realRoot, () => changeTree(workspace, change)));
      const settled = queue;
      void settled.idle().then(() => {
        if (settled.isIdle && queues.get(realRoot) === settled) queues.delete(realRoot);
      });
      return run;
    },
  };
}

async function changeTree<T>(workspace: Workspace, change: (tree: MemoryTree) => T | Promise<T>): Promise<T> {
  const before = await readTree(workspace);
  const tree: MemoryTree = new Map(before);
  const result = await change(tree);
  for (const [file, text] of tree) if (before.get(file) !== text) await writeFile(workspace, file, text);
  for (const file of before.keys()) if (!tree.has(file)) await removeFile(workspace, file);
  return result;
}

/** Every file under the root (the lock file left out), read through verified descriptors. */
async function readTree(workspace: Workspace): Promise<MemoryTree> {
  const tree: MemoryTree = new Map();
  const walk = async (physical: string, relative: string): Promise<void> => {
    const folder = await openConfinedDirectory(workspace, physical, relative || ".");
    let entries: Array<{ name: string; isFile(): boolean; isDirectory(): boolean }>;
    try {
      entries = await readdir(listingPath(folder), { withFileTypes: true });
    } finally {
      await folder.handle.close();
    }
    for (const entry of entries) {
      if (relative === "" && entry.name === MEMORY_LOCK_FILE) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(path.join(folder.physical, entry.name), child);
      else if (entry.isFile()) {
        const file = await openConfined(workspace, await workspace.resolve(child), "read", child);
        try {
          tree.set(child, await file.handle.readFile("utf8"));
        } finally {
          await file.handle.close();
        }
      }
    }
  };
  await walk(workspace.settings.realRoot, "");
  return tree;
}

async function writeFile(workspace: Workspace, file: string, text: string): Promise<void> {
  const created = await createConfined(workspace, await workspace.resolve(file), file);
  if (created.status !== "opened") throw new Error(`${file} is not a regular file`);
  try {
    await writeWholeFile(created.entry.handle, Buffer.from(text, "utf8"));
  } finally {
    await created.entry.handle.close();
  }
}

/** Removes a file through its verified parent folder, then the folders it leaves empty. */
async function removeFile(workspace: Workspace, file: string): Promise<void> {
  const target = await workspace.resolve(file);
  const { realRoot } = workspace.settings;
  for (let current = target.absolute, name = path.basename(file); current !== realRoot; ) {
    const parent = await openConfinedDirectory(workspace, path.dirname(current), file);
    try {
      const inParent = `${listingPath(parent)}/${name}`;
      if (current === target.absolute) await unlink(inParent);
      else await rmdir(inParent);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOTEMPTY" || code === "EEXIST") return;
      if (code !== "ENOENT") throw error;
    } finally {
      await parent.handle.close();
    }
    current = path.dirname(current);
    name = path.basename(current);
  }
}

/** Runs `work` holding the folder's lock file. */
async function withLockFile<T>(realRoot: string, work: () => Promise<T>): Promise<T> {
  const lock = path.join(realRoot, MEMORY_LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, "wx");
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = await stat(lock).then(
        (stats) => Date.now() - stats.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await unlink(lock).catch(() => undefined);
      else await new Promise((resolve) => setTimeout(resolve, Math.min(100, 5 * (attempt + 1))));
    }
  }
  try {
    return await work();
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}
