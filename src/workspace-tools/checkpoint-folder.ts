/**
 * The folder where the workspace tools keep files' prior content: `.agent-lattice/checkpoints/`
 * under the workspace root — one manifest per checkpoint (`<checkpoint id>.json`) and the contents
 * themselves, once each, by SHA-256 (`blobs/<hash>`). Every access goes through a verified
 * descriptor of the folder (confined-open): a link swapped in for the folder, or for an entry of
 * it, is never followed out of the root.
 * @module
 */
import { createHash, randomUUID } from "node:crypto";
import { constants } from "node:fs";
import { open, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { type ConfinedEntry, listingPath, openConfinedDirectory } from "./confined-open";
import type { Workspace } from "./workspace";

/** The checkpoint folder, relative to the workspace root. */
export const CHECKPOINT_FOLDER = ".agent-lattice/checkpoints";

/** What a checkpoint's manifest records. */
export interface CheckpointManifest {
  /** By workspace-relative path: the SHA-256 of its prior content, or `null` when it did not exist. */
  files: Record<string, string | null>;
  /** Files whose prior content was over the size limit. */
  notKept: string[];
  /** Bytes of prior content this checkpoint kept. */
  bytes: number;
}

/** Opens the checkpoint folder (or its `blobs/`), verified inside the root; creates it with `create`. */
async function openFolder(
  workspace: Workspace,
  blobs: boolean,
  create: boolean,
): Promise<ConfinedEntry | undefined> {
  const relative = blobs ? `${CHECKPOINT_FOLDER}/blobs` : CHECKPOINT_FOLDER;
  const physical = path.join(workspace.settings.realRoot, ...relative.split("/"));
  try {
    return await openConfinedDirectory(workspace, physical, relative, create);
  } catch (error) {
    if (!create && (error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Reads an entry of a verified folder without following a link at its name; `undefined` when absent. */
async function readEntry(folder: ConfinedEntry, name: string): Promise<Buffer | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(
      `${listingPath(folder)}/${name}`,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Writes an entry of a verified folder whole: a fresh temporary entry (never a link), renamed over it. */
async function writeEntry(folder: ConfinedEntry, name: string, content: Uint8Array | string): Promise<void> {
  const base = listingPath(folder);
  const temporary = `${base}/.${name}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, content, { flag: "wx", mode: 0o600 });
    await rename(temporary, `${base}/${name}`);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** The SHA-256 of `content`, in hex: a blob's name. */
export function contentHash(content: Uint8Array): string {
  return createHash("sha256").update(content).digest("hex");
}

/** Reads and writes the manifests and blobs of one workspace's checkpoint folder. */
export class CheckpointFolder {
  constructor(private readonly workspace: Workspace) {}

  /** The manifest of `checkpointId`, or `undefined` when nothing was recorded under it. */
  async manifest(checkpointId: string): Promise<CheckpointManifest | undefined> {
    const folder = await openFolder(this.workspace, false, false);
    if (!folder) return undefined;
    try {
      const bytes = await readEntry(folder, `${checkpointId}.json`);
      return bytes === undefined ? undefined : parseManifest(bytes);
    } finally {
      await folder.handle.close();
    }
  }

  /** Writes the manifest of `checkpointId` (atomically: a reader sees the old one or the new one). */
  async writeManifest(checkpointId: string, manifest: CheckpointManifest): Promise<void> {
    const folder = (await openFolder(this.workspace, false, true))!;
    try {
      await writeEntry(folder, `${checkpointId}.json`, JSON.stringify(manifest));
    } finally {
      await folder.handle.close();
    }
  }

  /** Keeps `content` under its hash (once: an existing blob is not written again); returns the hash. */
  async keep(content: Uint8Array): Promise<string> {
    const hash = contentHash(content);
    const folder = (await openFolder(this.workspace, true, true))!;
    try {
      const existing = await readEntry(folder, hash);
      if (existing === undefined || contentHash(existing) !== hash) await writeEntry(folder, hash, content);
      return hash;
    } finally {
      await folder.handle.close();
    }
  }

  /** The content kept under `hash`, checked against it; `undefined` when missing or altered. */
  async blob(hash: string): Promise<Buffer | undefined> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return undefined;
    const folder = await openFolder(this.workspace, true, false);
    if (!folder) return undefined;
    try {
      const content = await readEntry(folder, hash);
      return content !== undefined && contentHash(content) === hash ? content : undefined;
    } finally {
      await folder.handle.close();
    }
  }
}

/** A manifest read back, checked for shape: anything else counts as an empty one. */
function parseManifest(bytes: Buffer): CheckpointManifest {
  const empty: CheckpointManifest = { files: {}, notKept: [], bytes: 0 };
  let parsed: Partial<CheckpointManifest>;
  try {
    parsed = JSON.parse(bytes.toString("utf8")) as Partial<CheckpointManifest>;
  } catch {
    return empty;
  }
  if (typeof parsed !== "object" || parsed === null) return empty;
  const files: Record<string, string | null> = {};
  for (const [file, hash] of Object.entries(parsed.files ?? {}))
    if (hash === null || typeof hash === "string") files[file] = hash;
  const notKept = Array.isArray(parsed.notKept)
    ? parsed.notKept.filter((file) => typeof file === "string")
    : [];
  return { files, notKept, bytes: typeof parsed.bytes === "number" ? parsed.bytes : 0 };
}
