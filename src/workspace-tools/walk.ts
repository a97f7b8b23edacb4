/**
 * Walking a folder of the workspace in sorted order, never leaving the root: symbolic links are
 * reported (and, for files inside the root, followed) but never descended into, and every folder
 * is listed through a descriptor verified inside the root, so a folder swapped for a link to
 * outside while the walk runs is not listed.
 * @module
 */
import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { listingPath, openConfinedDirectory } from "./confined-open";
import { relativeInside, type Workspace, WorkspacePathError } from "./workspace";

/** One entry met during a walk. */
export interface WalkEntry {
  /** Root-relative path of the entry itself, `/`-separated. */
  display: string;
  /** Physical path to read: the entry's own, or for a link inside the root, its target. */
  absolute: string;
  /** What the entry is (for a link: what it points to); `other` for sockets, devices and unusable links. */
  kind: "file" | "directory" | "other";
  /** Set for a symbolic link: where its target lies. */
  link?: { target: "inside"; display: string } | { target: "outside" | "broken" };
  /** Set for a directory the walk did not enter because it is ignored (`node_modules`, `.git`). */
  ignored?: boolean;
}

/** How to walk. */
export interface WalkOptions {
  /** Physical path of the folder to walk (already confined). */
  start: string;
  /** Enter sub-folders. */
  recursive: boolean;
  /** Enter ignored folders too. */
  includeIgnored: boolean;
  /** Whether to enter a sub-folder, by its root-relative path; every folder is entered when absent. */
  shouldEnter?: (display: string) => boolean;
  /** Whether an ignored folder is asked for explicitly (a pattern names it), by its root-relative path. */
  isRequested?: (display: string) => boolean;
  signal?: AbortSignal;
}

/** Folders the walk could not read, reported by the caller. */
export interface WalkReport {
  unreadable: string[];
}

/**
 * Entries below `options.start` in sorted, depth-first order (a folder's entry comes right before its
 * contents). Unreadable folders are skipped and added to `report`. Throws
 * {@link WorkspacePathError} when the start folder itself no longer leads inside the root.
 */
export async function* walkWorkspace(
  workspace: Workspace,
  options: WalkOptions,
  report: WalkReport = { unreadable: [] },
): AsyncGenerator<WalkEntry> {
  yield* walkDirectory(workspace, options.start, options, report, true);
}

async function* walkDirectory(
  workspace: Workspace,
  directory: string,
  options: WalkOptions,
  report: WalkReport,
  isStart = false,
): AsyncGenerator<WalkEntry> {
  options.signal?.throwIfAborted();
  const listing = await readSortedDirectory(workspace, directory, isStart);
  if (!listing) {
    report.unreadable.push(workspace.display(directory));
    return;
  }
  for (const dirent of listing.entries) {
    const entry = await describeEntry(workspace, path.join(listing.physical, dirent.name), dirent);
    const enter =
      entry.kind === "directory" && !entry.link && decideEntering(workspace, entry, dirent.name, options);
    yield entry;
    if (enter) yield* walkDirectory(workspace, entry.absolute, options, report);
  }
}

/** Whether the walk enters a (real, not linked) folder; marks it `ignored` when it is skipped as such. */
function decideEntering(workspace: Workspace, entry: WalkEntry, name: string, options: WalkOptions): boolean {
  const ignored = workspace.settings.ignoredDirectories.has(name) && !options.includeIgnored;
  if (ignored && !(options.isRequested?.(entry.display) ?? false)) {
    entry.ignored = true;
    return false;
  }
  return options.recursive && (options.shouldEnter?.(entry.display) ?? true);
}

/**
 * The sorted entries of a folder, listed through a verified descriptor, and the folder's physical
 * path; `undefined` when it cannot be read. A start folder leading outside the root throws.
 */
async function readSortedDirectory(
  workspace: Workspace,
  directory: string,
  isStart: boolean,
): Promise<{ entries: Dirent[]; physical: string } | undefined> {
  let opened: Awaited<ReturnType<typeof openConfinedDirectory>>;
  try {
    opened = await openConfinedDirectory(workspace, directory, workspace.display(directory));
  } catch (error) {
    if (isStart && error instanceof WorkspacePathError) throw error;
    return undefined;
  }
  try {
    const entries = await readdir(listingPath(opened), { withFileTypes: true });
    entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
    return { entries, physical: opened.physical };
  } catch {
    return undefined;
  } finally {
    await opened.handle.close();
  }
}

async function describeEntry(workspace: Workspace, absolute: string, dirent: Dirent): Promise<WalkEntry> {
  const display = workspace.display(absolute);
  if (dirent.isFile()) return { display, absolute, kind: "file" };
  if (dirent.isDirectory()) return { display, absolute, kind: "directory" };
  if (!dirent.isSymbolicLink()) return { display, absolute, kind: "other" };
  let target: string;
  try {
    target = await realpath(absolute);
  } catch {
    return { display, absolute, kind: "other", link: { target: "broken" } };
  }
  if (relativeInside(workspace.settings.realRoot, target) === undefined) {
    return { display, absolute, kind: "other", link: { target: "outside" } };
  }
  const targetStats = await stat(target).catch(() => undefined);
  const kind = targetStats?.isFile() ? "file" : targetStats?.isDirectory() ? "directory" : "other";
  return { display, absolute: target, kind, link: { target: "inside", display: workspace.display(target) } };
}
