/**
 * The memory tool's commands over a {@link MemoryTree}, as the Messages API's `memory_20250818`
 * tool defines them: `view`, `create`, `str_replace`, `insert`, `delete`, `rename` — each a pure
 * change of the tree (the backend stores it) returning the text the model reads.
 * @module
 */
import {
  checkLimits,
  isFolder,
  MEMORY_ROOT,
  type MemoryLimits,
  MemoryToolError,
  type MemoryTree,
  memoryPath,
} from "./memory-files";

/** The input of the memory tool (fields by command). */
export interface MemoryInput {
  command: "view" | "create" | "str_replace" | "insert" | "delete" | "rename";
  path?: string;
  view_range?: [number, number];
  file_text?: string;
  old_str?: string;
  new_str?: string;
  insert_line?: number;
  insert_text?: string;
  old_path?: string;
  new_path?: string;
}

/** `view`: a folder's files with their sizes, or a file's lines numbered (a range of them). */
export function viewMemory(tree: MemoryTree, input: MemoryInput): string {
  const path = memoryPath(input.path);
  const text = tree.get(path);
  if (text === undefined) {
    if (!isFolder(tree, path)) throw missing(path);
    const prefix = path === "" ? "" : `${path}/`;
    const lines = [...tree.entries()]
      .filter(([file]) => file.startsWith(prefix))
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([file, content]) => `${Buffer.byteLength(content, "utf8")}\t${MEMORY_ROOT}/${file}`);
    const name = path === "" ? MEMORY_ROOT : `${MEMORY_ROOT}/${path}`;
    return lines.length === 0 ? `${name} is empty.` : `Files in ${name} (bytes, path):\n${lines.join("\n")}`;
  }
  const all = text.split("\n");
  const [start, end] = input.view_range ?? [1, all.length];
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || (end !== -1 && end < start))
    throw new MemoryToolError(
      "view_range must be [first, last] line numbers from 1 (last may be -1: the end).",
    );
  const last = end === -1 ? all.length : Math.min(end, all.length);
  return all
    .slice(start - 1, last)
    .map((line, index) => `${String(start + index).padStart(6)}\t${line}`)
    .join("\n");
}

/** Runs a changing command on `tree` (in place) and returns what the model reads. */
export function changeMemory(tree: MemoryTree, input: MemoryInput, limits: MemoryLimits): string {
  switch (input.command) {
    case "create": {
      const path = fileTarget(tree, input.path);
      tree.set(path, text(input.file_text, "file_text"));
      checkLimits(tree, path, limits);
      return `Saved ${MEMORY_ROOT}/${path}.`;
    }
    case "str_replace": {
      const path = existingFile(tree, input.path);
      const old = text(input.old_str, "old_str");
      const current = tree.get(path)!;
      const count = old === "" ? 0 : current.split(old).length - 1;
      if (count !== 1)
        throw new MemoryToolError(
          count === 0
            ? `old_str does not occur in ${MEMORY_ROOT}/${path}; view the file and copy the text exactly.`
            : `old_str occurs ${count} times in ${MEMORY_ROOT}/${path}; give more of the text around it so it occurs once.`,
        );
      tree.set(
        path,
        current.replace(old, () => text(input.new_str ?? "", "new_str")),
      );
      checkLimits(tree, path, limits);
      return `Edited ${MEMORY_ROOT}/${path}.`;
    }
    case "insert": {
      const path = existingFile(tree, input.path);
      const lines = tree.get(path)!.split("\n");
      const at = input.insert_line;
      if (typeof at !== "number" || !Number.isInteger(at) || at < 0 || at > lines.length)
        throw new MemoryToolError(
          `insert_line must be a line number from 0 to ${lines.length} (0: before the first line).`,
        );
      lines.splice(at, 0, ...text(input.insert_text, "insert_text").split("\n"));
      tree.set(path, lines.join("\n"));
      checkLimits(tree, path, limits);
      return `Inserted into ${MEMORY_ROOT}/${path} after line ${at}.`;
    }
    case "delete": {
      const path = memoryPath(input.path);
      if (path === "")
        throw new MemoryToolError(`${MEMORY_ROOT} itself cannot be deleted; delete what is in it.`);
      const removed = [...tree.keys()].filter((file) => file === path || file.startsWith(`${path}/`));
      if (removed.length === 0) throw missing(path);
      for (const file of removed) tree.delete(file);
      return `Deleted ${MEMORY_ROOT}/${path}${removed.length > 1 || !removed.includes(path) ? ` (${removed.length} files)` : ""}.`;
    }
    case "rename": {
      const from = memoryPath(input.old_path);
      const to = memoryPath(input.new_path);
      if (from === "" || to === "")
        throw new MemoryToolError(`${MEMORY_ROOT} itself cannot be renamed or replaced.`);
      if (tree.has(to) || isFolder(tree, to))
        throw new MemoryToolError(`${MEMORY_ROOT}/${to} already exists.`);
      if (to.startsWith(`${from}/`)) throw new MemoryToolError("A folder cannot be moved into itself.");
      const moved = [...tree.keys()].filter((file) => file === from || file.startsWith(`${from}/`));
      if (moved.length === 0) throw missing(from);
      for (const file of moved) {
        const content = tree.get(file)!;
        tree.delete(file);
        tree.set(to + file.slice(from.length), content);
      }
      return `Renamed ${MEMORY_ROOT}/${from} to ${MEMORY_ROOT}/${to}.`;
    }
    default:
      throw new MemoryToolError(
        `Unknown command ${JSON.stringify(input.command)}: use view, create, str_replace, insert, delete or rename.`,
      );
  }
}

function fileTarget(tree: MemoryTree, requested: string | undefined): string {
  const path = memoryPath(requested);
  if (path === "" || isFolder(tree, path))
    throw new MemoryToolError(`${MEMORY_ROOT}/${path} is a folder; give a file path.`);
  for (let cut = path.lastIndexOf("/"); cut > 0; cut = path.lastIndexOf("/", cut - 1))
    if (tree.has(path.slice(0, cut)))
      throw new MemoryToolError(
        `${MEMORY_ROOT}/${path.slice(0, cut)} is a file, so it cannot hold ${MEMORY_ROOT}/${path}.`,
      );
  return path;
}

function existingFile(tree: MemoryTree, requested: string | undefined): string {
  const path = memoryPath(requested);
  if (!tree.has(path))
    throw isFolder(tree, path)
      ? new MemoryToolError(`${MEMORY_ROOT}/${path} is a folder, not a file.`)
      : missing(path);
  return path;
}

function text(value: unknown, name: string): string {
  if (typeof value !== "string")
    throw new MemoryToolError(`${name} is required (a string) for this command.`);
  return value;
}

function missing(path: string): MemoryToolError {
  return new MemoryToolError(`${MEMORY_ROOT}${path === "" ? "" : `/${path}`} does not exist.`);
}
