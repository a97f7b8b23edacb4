/**
 * The memory tree the memory tool works on — `/memories` and the files under it — as a backend
 * holds it, the limits on it, and the checks of the paths the model writes.
 * @module
 */

/** The largest memory file, in bytes (UTF-8). */
export const DEFAULT_MEMORY_MAX_FILE_BYTES = 64 * 1024;
/** The largest memory tree (all files together), in bytes (UTF-8). */
export const DEFAULT_MEMORY_MAX_TREE_BYTES = 1024 * 1024;

/** The root every memory path starts with. */
export const MEMORY_ROOT = "/memories";

/** A memory tree: file paths relative to `/memories` (`notes/today.md`) → their text. */
export type MemoryTree = Map<string, string>;

/** Where a memory tree is kept. Every change runs inside `update`, one at a time per tree. */
export interface MemoryBackend {
  /** The tree as it is now. */
  read(): Promise<MemoryTree>;
  /**
   * Runs `change` on the current tree, exclusively — no other writer of the tree (in this process
   * or another) changes it in between — and stores what `change` left in it. `change` may throw:
   * nothing is stored then.
   */
  update<T>(change: (tree: MemoryTree) => T | Promise<T>): Promise<T>;
}

/** A mistake of the model's (a bad path, a missing file, a limit): an error result it can act on. */
export class MemoryToolError extends Error {
  override readonly name = "MemoryToolError";
}

/**
 * The path relative to `/memories` of a path the model wrote (`""` for `/memories` itself).
 * @throws MemoryToolError for a path outside `/memories`, with `..`, `.`, empty parts or a NUL byte
 */
export function memoryPath(requested: unknown): string {
  if (typeof requested !== "string" || requested.length === 0)
    throw new MemoryToolError("A path is required, starting with /memories.");
  if (requested.includes("\0")) throw new MemoryToolError("A path cannot contain NUL bytes.");
  const trimmed = requested.replace(/\/+$/, "");
  if (trimmed !== MEMORY_ROOT && !trimmed.startsWith(`${MEMORY_ROOT}/`))
    throw new MemoryToolError(
      `The path "${requested}" is outside ${MEMORY_ROOT}: every memory path starts with ${MEMORY_ROOT}.`,
    );
  const relative = trimmed.slice(MEMORY_ROOT.length + 1);
  if (relative === "") return "";
  for (const part of relative.split("/")) {
    if (part === "" || part === "." || part === "..")
      throw new MemoryToolError(
        `The path "${requested}" has an empty, "." or ".." part; write it plainly under ${MEMORY_ROOT}.`,
      );
  }
  return relative;
}

/** The size limits of a memory tree. */
export interface MemoryLimits {
  readonly maxFileBytes: number;
  readonly maxTreeBytes: number;
}

/** @throws MemoryToolError when `tree` holds a file or a total over the limits. */
export function checkLimits(tree: MemoryTree, path: string, limits: MemoryLimits): void {
  const size = Buffer.byteLength(tree.get(path) ?? "", "utf8");
  if (size > limits.maxFileBytes)
    throw new MemoryToolError(
      `${MEMORY_ROOT}/${path} would be ${size} bytes, over the limit of ${limits.maxFileBytes} bytes per memory file: keep memories short, or split them.`,
    );
  let total = 0;
  for (const text of tree.values()) total += Buffer.byteLength(text, "utf8");
  if (total > limits.maxTreeBytes)
    throw new MemoryToolError(
      `The memory would hold ${total} bytes, over the limit of ${limits.maxTreeBytes} bytes for all of ${MEMORY_ROOT}: delete or shorten memories first.`,
    );
}

/** Whether `path` is a folder of `tree` (some file lies under it); `""` always is. */
export function isFolder(tree: MemoryTree, path: string): boolean {
  if (path === "") return true;
  for (const file of tree.keys()) if (file.startsWith(`${path}/`)) return true;
  return false;
}
