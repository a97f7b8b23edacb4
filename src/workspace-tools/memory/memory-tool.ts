/**
 * `createMemoryTool`: the memory tool (`memory_20250818`) — view, create, str_replace, insert,
 * delete and rename over a `/memories` tree kept in a folder or in a history store, so that an
 * agent keeps what it learned across conversations (and a fleet shares it, through a store).
 * @module
 */
import { z } from "zod";
import { InvalidOptionError } from "../../errors";
import { assertKnownOptions } from "../../shared/known-options";
import { positiveInteger } from "../../shared/option-checks";
import { defineTool } from "../../tools/define-tool";
import type { Tool, ToolOutput } from "../../tools/tool";
import { WorkspacePathError } from "../workspace";
import { changeMemory, type MemoryInput, viewMemory } from "./memory-commands";
import {
  DEFAULT_MEMORY_MAX_FILE_BYTES,
  DEFAULT_MEMORY_MAX_TREE_BYTES,
  type MemoryBackend,
  type MemoryLimits,
  MemoryToolError,
} from "./memory-files";
import { createFolderMemoryBackend } from "./memory-folder";
import { createStoreMemoryBackend, type MemoryStore } from "./memory-store";

/** The tool's name, as the Messages API names its memory tool. */
export const MEMORY_TOOL_NAME = "memory";
/** The Messages API's declaration of the memory tool. */
export const MEMORY_TOOL_TYPE = "memory_20250818";

/** Options of {@link createMemoryTool}: where the memory is kept, and its limits. */
export type MemoryToolOptions = ({ root: string; store?: never } | { store: MemoryStore; root?: never }) & {
  /** The largest memory file, in bytes. @default 65536 */
  maxFileBytes?: number;
  /** The largest memory tree (all files), in bytes. @default 1048576 */
  maxTreeBytes?: number;
};

const memoryInput = z.object({
  command: z.enum(["view", "create", "str_replace", "insert", "delete", "rename"]),
  path: z.string().optional().describe("The file or folder, starting with /memories (all but rename)."),
  view_range: z
    .tuple([z.number().int(), z.number().int()])
    .optional()
    .describe("view: first and last line (last -1: to the end)."),
  file_text: z.string().optional().describe("create: the file's whole text."),
  old_str: z.string().optional().describe("str_replace: the text to replace; it must occur exactly once."),
  new_str: z.string().optional().describe("str_replace: the replacement."),
  insert_line: z.number().int().optional().describe("insert: the line to insert after (0: at the start)."),
  insert_text: z.string().optional().describe("insert: the text to insert."),
  old_path: z.string().optional().describe("rename: the file or folder to rename."),
  new_path: z.string().optional().describe("rename: its new path."),
});

const DESCRIPTION =
  "Your memory, kept across conversations in the /memories folder. ALWAYS view /memories before starting a task, " +
  "to see what you learned earlier. Record progress, decisions and facts worth keeping as you work, in short files; " +
  "keep them up to date and delete what is wrong or no longer useful. Commands: view (a folder or a file), " +
  "create, str_replace, insert, delete, rename.";

/**
 * Creates the memory tool over a folder (`{ root }`, which must exist; confined like the workspace
 * tools) or a history store (`{ store }`: any `HistoryStore` — a dedicated conversation of the
 * SQLite, PostgreSQL or Redis store shares memory across a fleet). On the Anthropic API, Bedrock
 * and Vertex AI the built-in client declares it as the native `memory_20250818` tool; elsewhere as
 * a plain tool with the same commands and input. Concurrent writers are serialised (a change is
 * made on the tree as it is, never on a stale copy), and sizes are bounded: a change that would
 * put a file over `maxFileBytes` or the tree over `maxTreeBytes` is refused with an error result.
 * @throws {InvalidOptionError} for options that are not one of the two forms, a missing folder, or bad limits
 * @example
 * const agent = createAgent({ model: "claude-sonnet-4-6", tools: [createMemoryTool({ root: "./memory" })] });
 */
export function createMemoryTool(options: MemoryToolOptions): Tool<MemoryInput> {
  assertKnownOptions("createMemoryTool", options, ["root", "store", "maxFileBytes", "maxTreeBytes"]);
  const backend = backendOf(options);
  const limits: MemoryLimits = {
    maxFileBytes: limit("maxFileBytes", options.maxFileBytes, DEFAULT_MEMORY_MAX_FILE_BYTES),
    maxTreeBytes: limit("maxTreeBytes", options.maxTreeBytes, DEFAULT_MEMORY_MAX_TREE_BYTES),
  };
  const tool = defineTool({
    name: MEMORY_TOOL_NAME,
    description: DESCRIPTION,
    inputSchema: memoryInput,
    readOnly: false,
    execute: (input) => run(backend, input as MemoryInput, limits),
  });
  return { ...tool, nativeType: MEMORY_TOOL_TYPE };
}

async function run(backend: MemoryBackend, input: MemoryInput, limits: MemoryLimits): Promise<ToolOutput> {
  try {
    if (input.command === "view") return viewMemory(await backend.read(), input);
    return await backend.update((tree) => changeMemory(tree, input, limits));
  } catch (error) {
    if (error instanceof MemoryToolError || error instanceof WorkspacePathError)
      return { content: error.message, isError: true };
    throw error;
  }
}

function backendOf(options: MemoryToolOptions): MemoryBackend {
  const { root, store } = (options ?? {}) as { root?: unknown; store?: unknown };
  if ((root === undefined) === (store === undefined))
    throw new InvalidOptionError(
      "createMemoryTool takes either { root: folder } or { store: historyStore }.",
    );
  if (store !== undefined) {
    const candidate = store as Partial<MemoryStore>;
    if (typeof candidate.load !== "function" || typeof candidate.replace !== "function")
      throw new InvalidOptionError("createMemoryTool: `store` must be a history store (load and replace).");
    return createStoreMemoryBackend(store as MemoryStore);
  }
  if (typeof root !== "string" || root === "")
    throw new InvalidOptionError("createMemoryTool: `root` must be the path of an existing folder.");
  return createFolderMemoryBackend(root);
}

function limit(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  return positiveInteger(value, {
    factory: "createMemoryTool",
    option: `\`${name}\``,
    unit: " (bytes)",
    integers: "any",
  });
}
