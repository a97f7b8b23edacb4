/**
 * Resolving symbolic links for paths that may not exist yet.
 * @module
 */
import { lstat, readlink, realpath } from "node:fs/promises";
import path from "node:path";

/** How many symbolic links one resolution may pass through before it is called a loop (as Linux does). */
const MAX_LINK_HOPS = 40;

/** Thrown when a path runs through a cycle of symbolic links. */
export class SymbolicLinkLoopError extends Error {
  constructor(readonly path: string) {
    super(`Symbolic link loop at ${path}.`);
    this.name = "SymbolicLinkLoopError";
  }
}

/**
 * The physical path `target` names, with every symbolic link resolved — also when `target` or some
 * of its parents do not exist yet. Missing trailing parts are kept as written under the nearest
 * existing parent, and a dangling link is followed to where it points, so writing to the result
 * lands exactly where writing to `target` would. Throws {@link SymbolicLinkLoopError} on a cycle.
 *
 * @param target an absolute path
 */
export async function resolveRealPath(target: string, hops = 0): Promise<string> {
  try {
    return await realpath(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw new SymbolicLinkLoopError(target);
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
  }
  const entry = await lstat(target).catch(() => undefined);
  if (entry?.isSymbolicLink()) return followDanglingLink(target, hops);
  const parent = path.dirname(target);
  if (parent === target) return target;
  return path.join(await resolveRealPath(parent, hops), path.basename(target));
}

async function followDanglingLink(link: string, hops: number): Promise<string> {
  if (hops >= MAX_LINK_HOPS) throw new SymbolicLinkLoopError(link);
  const directory = await resolveRealPath(path.dirname(link), hops);
  let target: string;
  try {
    target = await readlink(link);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Swapped since lstat said it was a link (a file now: EINVAL; gone: ENOENT): resolve it again.
    if (code === "EINVAL" || code === "ENOENT") return resolveRealPath(link, hops + 1);
    throw error;
  }
  return resolveRealPath(path.resolve(directory, target), hops + 1);
}
