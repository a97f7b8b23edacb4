/**
 * Opening workspace entries without a race. {@link Workspace.resolve} checks a path by name, but a
 * folder on it may be swapped for a symbolic link to outside the root between that check and the
 * open. So every open is verified on the descriptor it gave: on Linux `/proc/self/fd/N` names the
 * file a descriptor actually refers to, whatever path led there, and an open that landed outside
 * the root is closed unread and refused. Files are created, and folders made, through a verified
 * descriptor of their parent (`/proc/self/fd/N/name`), so nothing is ever created outside either.
 *
 * Elsewhere (macOS) a descriptor cannot be named: the check resolves the path again and compares
 * device and inode with the descriptor's. That narrows the window; it does not close it.
 * @module
 */
import { constants, type Stats } from "node:fs";
import { type FileHandle, lstat, mkdir, open, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { relativeInside, type Workspace, type WorkspacePath, WorkspacePathError } from "./workspace";

const { O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = constants;

/**
 * Where descriptors can be named, or `undefined` where they cannot. On Linux it is required: when
 * `/proc` is not mounted, opens fail closed rather than unverified.
 */
const DESCRIPTOR_DIRECTORY = process.platform === "linux" ? "/proc/self/fd" : undefined;

/**
 * `O_NONBLOCK`: opening a named pipe returns at once instead of waiting for the other end (the
 * descriptor is then refused as not a regular file); `O_NOFOLLOW`: a last component that became a
 * symbolic link since it was resolved is refused instead of followed.
 */
const OPEN_FLAGS = {
  read: O_RDONLY | O_NOFOLLOW | O_NONBLOCK,
  "read-write": O_RDWR | O_NOFOLLOW | O_NONBLOCK,
  create: O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK,
  directory: O_RDONLY | O_DIRECTORY | O_NOFOLLOW,
} as const;

/** An open, verified entry of the workspace. */
export interface ConfinedEntry {
  handle: FileHandle;
  /** The entry's status, from its descriptor. */
  stats: Stats;
  /** The physical path the descriptor refers to, inside the root. */
  physical: string;
}

/**
 * Opens an existing entry for reading (files and folders) or for reading and writing (files).
 * Throws {@link WorkspacePathError} when the open landed outside the root; `fs` errors otherwise
 * (`EISDIR` for a folder opened read-write), carrying the physical path.
 */
export function openConfined(
  workspace: Workspace,
  target: WorkspacePath,
  access: "read" | "read-write",
  requestedPath: string,
): Promise<ConfinedEntry> {
  return openVerified(workspace, target.absolute, OPEN_FLAGS[access], requestedPath);
}

/**
 * Opens a folder of the workspace for listing, verified inside the root. With `create`, missing
 * folders down to it are made one at a time, each inside a verified parent.
 */
export async function openConfinedDirectory(
  workspace: Workspace,
  physical: string,
  requestedPath: string,
  create = false,
): Promise<ConfinedEntry> {
  const { realRoot } = workspace.settings;
  if (relativeInside(realRoot, physical) === undefined) throw escapedError(requestedPath, realRoot);
  try {
    return await openVerified(workspace, physical, OPEN_FLAGS.directory, requestedPath);
  } catch (error) {
    if (!create || errorCode(error) !== "ENOENT" || physical === realRoot) throw error;
  }
  const parent = await openConfinedDirectory(workspace, path.dirname(physical), requestedPath, true);
  try {
    const name = path.basename(physical);
    const inParent = childPath(parent, name);
    await mkdir(inParent).catch((error: unknown) => {
      if (errorCode(error) !== "EEXIST") throw withPhysicalPath(error, inParent, physical);
    });
    return await openVerified(workspace, inParent, OPEN_FLAGS.directory, requestedPath, physical);
  } finally {
    await parent.handle.close();
  }
}

/** What {@link createConfined} found at the path before opening it. */
export type CreatedEntry =
  | {
      status: "opened";
      entry: ConfinedEntry /** the size of the file that was there */;
      previousSize?: number;
    }
  | { status: "directory" }
  | { status: "not-regular" };

/**
 * Opens a regular file for writing, creating it (and missing parent folders) inside a verified
 * parent folder, without truncating it: the caller writes through the returned descriptor. A
 * folder or a special file at the path is reported, not opened.
 */
export async function createConfined(
  workspace: Workspace,
  target: WorkspacePath,
  requestedPath: string,
): Promise<CreatedEntry> {
  const parent = await openConfinedDirectory(workspace, path.dirname(target.absolute), requestedPath, true);
  try {
    const inParent = childPath(parent, path.basename(target.absolute));
    const previous = await lstat(inParent).catch((error: unknown) => {
      if (errorCode(error) === "ENOENT") return undefined;
      throw withPhysicalPath(error, inParent, target.absolute);
    });
    if (previous?.isDirectory()) return { status: "directory" };
    if (previous && !previous.isFile() && !previous.isSymbolicLink()) return { status: "not-regular" };
    const entry = await openVerified(workspace, inParent, OPEN_FLAGS.create, requestedPath, target.absolute);
    if (!entry.stats.isFile()) {
      await entry.handle.close();
      return { status: entry.stats.isDirectory() ? "directory" : "not-regular" };
    }
    return { status: "opened", entry, previousSize: previous ? entry.stats.size : undefined };
  } finally {
    await parent.handle.close();
  }
}

/** The path `readdir` lists an open folder through: its descriptor's name where there is one. */
export function listingPath(directory: ConfinedEntry): string {
  return DESCRIPTOR_DIRECTORY ? `${DESCRIPTOR_DIRECTORY}/${directory.handle.fd}` : directory.physical;
}

/** The path of an entry of an open folder, relative to its descriptor where there is one. */
function childPath(directory: ConfinedEntry, name: string): string {
  return DESCRIPTOR_DIRECTORY
    ? `${DESCRIPTOR_DIRECTORY}/${directory.handle.fd}/${name}`
    : path.join(directory.physical, name);
}

/**
 * Opens `openPath` with `flags`, then checks where the descriptor really is; closes it and throws
 * when that is outside the root. `namedPath` is the physical path errors should name.
 */
async function openVerified(
  workspace: Workspace,
  openPath: string,
  flags: number,
  requestedPath: string,
  namedPath = openPath,
): Promise<ConfinedEntry> {
  let handle: FileHandle;
  try {
    handle = await open(openPath, flags, 0o666);
  } catch (error) {
    // O_NOFOLLOW met a symbolic link where the resolved path had none: the path changed meanwhile
    // (a folder opened with O_DIRECTORY reports it as ENOTDIR).
    if (errorCode(error) === "ELOOP" || (errorCode(error) === "ENOTDIR" && (await isLink(openPath)))) {
      throw changedError(requestedPath, workspace.settings.realRoot);
    }
    throw withPhysicalPath(error, openPath, namedPath);
  }
  try {
    const stats = await handle.stat();
    const physical = await locateDescriptor(workspace, handle, stats, namedPath, requestedPath);
    return { handle, stats, physical };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The physical path of an open descriptor, verified inside the root. */
async function locateDescriptor(
  workspace: Workspace,
  handle: FileHandle,
  stats: Stats,
  namedPath: string,
  requestedPath: string,
): Promise<string> {
  const { realRoot } = workspace.settings;
  let physical: string | undefined;
  if (DESCRIPTOR_DIRECTORY) {
    try {
      physical = await readlink(`${DESCRIPTOR_DIRECTORY}/${handle.fd}`);
    } catch {
      throw new WorkspacePathError(
        requestedPath,
        `Cannot verify where "${requestedPath}" was opened: ${DESCRIPTOR_DIRECTORY} is not available (is /proc mounted?). ` +
          "The workspace tools need it to keep every file inside the workspace root.",
      );
    }
  } else {
    physical = await sameFileByName(namedPath, stats);
  }
  if (physical === undefined || relativeInside(realRoot, physical) === undefined) {
    throw changedError(requestedPath, realRoot);
  }
  return physical;
}

/** Where descriptors cannot be named: the path resolved again, when it still names the same file. */
async function sameFileByName(namedPath: string, stats: Stats): Promise<string | undefined> {
  const physical = await realpath(namedPath).catch(() => undefined);
  if (physical === undefined) return undefined;
  const named = await stat(physical).catch(() => undefined);
  return named && named.dev === stats.dev && named.ino === stats.ino ? physical : undefined;
}

function changedError(requestedPath: string, realRoot: string): WorkspacePathError {
  return new WorkspacePathError(
    requestedPath,
    `Path "${requestedPath}" changed while it was being opened and led outside the workspace root ${realRoot} ` +
      "(a folder on it was replaced by a symbolic link, say). Only files inside the workspace can be used.",
  );
}

function escapedError(requestedPath: string, realRoot: string): WorkspacePathError {
  return new WorkspacePathError(
    requestedPath,
    `Path "${requestedPath}" leads outside the workspace root ${realRoot}. Only files inside the workspace can be used.`,
  );
}

async function isLink(entryPath: string): Promise<boolean> {
  return (await lstat(entryPath).catch(() => undefined))?.isSymbolicLink() ?? false;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** The error with the descriptor-relative path it was raised for replaced by the physical path. */
function withPhysicalPath(error: unknown, usedPath: string, physical: string): unknown {
  const failure = error as NodeJS.ErrnoException;
  if (usedPath === physical || typeof failure?.path !== "string") return error;
  failure.path = physical;
  if (typeof failure.message === "string") failure.message = failure.message.split(usedPath).join(physical);
  return failure;
}
