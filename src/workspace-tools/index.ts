/**
 * `agent-lattice/tools`: the built-in workspace tools — read, list, glob, grep, write and edit,
 * confined to a root folder, and (opt-in) bash, which is not confined unless it runs in the
 * bubblewrap sandbox (`bashSandbox`). Any new export here becomes public API.
 * @module
 */
import { assertKnownOptions } from "../shared/known-options";
import type { Tool } from "../tools/tool";
import { createBashTool } from "./bash-tool";
import { createEditFileTool } from "./edit-file-tool";
import { createGlobTool } from "./glob-tool";
import { createGrepTool } from "./grep-tool";
import { createListFilesTool } from "./list-files-tool";
import { resolveWorkspaceSettings, type WorkspaceToolsOptions } from "./options";
import { createReadFileTool } from "./read-file-tool";
import { createWorkspace } from "./workspace";
import { WorkspaceFileCheckpoints } from "./workspace-file-checkpoints";
import { createWriteFileTool } from "./write-file-tool";

export { type BashSandboxOptions, isBashSandboxAvailable } from "./bash-sandbox";
export type { BashInput } from "./bash-tool";
export { CHECKPOINT_FOLDER } from "./checkpoint-folder";
export type { EditFileInput } from "./edit-file-tool";
export type { GlobInput } from "./glob-tool";
export type { GrepInput } from "./grep-tool";
export type { ListFilesInput } from "./list-files-tool";
export type { MemoryInput } from "./memory/memory-commands";
export {
  DEFAULT_MEMORY_MAX_FILE_BYTES,
  DEFAULT_MEMORY_MAX_TREE_BYTES,
  MEMORY_ROOT,
} from "./memory/memory-files";
export type { MemoryStore } from "./memory/memory-store";
export {
  createMemoryTool,
  MEMORY_TOOL_NAME,
  MEMORY_TOOL_TYPE,
  type MemoryToolOptions,
} from "./memory/memory-tool";
export {
  DEFAULT_BASH_HIDDEN_ENV,
  DEFAULT_BASH_KILL_GRACE_MS,
  DEFAULT_BASH_TIMEOUT_MS,
  DEFAULT_CHECKPOINT_MAX_BYTES,
  DEFAULT_CHECKPOINT_MAX_FILE_BYTES,
  DEFAULT_IGNORED_DIRECTORIES,
  DEFAULT_MAX_ENTRIES,
  DEFAULT_MAX_GREP_FILE_BYTES,
  DEFAULT_MAX_LINE_CHARS,
  DEFAULT_MAX_MATCHES,
  DEFAULT_MAX_OUTPUT_CHARS,
  DEFAULT_MAX_READ_BYTES,
  type WorkspaceToolsOptions,
} from "./options";
export type { ReadFileInput } from "./read-file-tool";
export { type BashSandboxLimits, DEFAULT_SANDBOX_LIMITS } from "./sandbox-limits";
export { WorkspacePathError } from "./workspace";
export type { WriteFileInput } from "./write-file-tool";

/** The names of the workspace tools, in the order {@link createWorkspaceTools} returns them. */
export const WORKSPACE_TOOL_NAMES = [
  "read_file",
  "list_files",
  "glob",
  "grep",
  "write_file",
  "edit_file",
  "bash",
] as const;

/** The name of one workspace tool. */
export type WorkspaceToolName = (typeof WORKSPACE_TOOL_NAMES)[number];

/**
 * Every option name of `createWorkspaceTools` — the one list to extend when an option is added; any other
 * name is refused, naming the closest of these.
 */
export const WORKSPACE_TOOLS_OPTION_NAMES: readonly string[] = [
  "root",
  "allowBash",
  "bashSandbox",
  "allowWrite",
  "maxReadBytes",
  "maxOutputChars",
  "maxLineChars",
  "maxEntries",
  "maxMatches",
  "maxGrepFileBytes",
  "bashTimeoutMs",
  "bashKillGraceMs",
  "bashEnv",
  "ignoredDirectories",
  "fileCheckpoints",
];

/**
 * The workspace tools for a root folder. Read-only tools (`read_file`, `list_files`, `glob`,
 * `grep`) are flagged so the agent runs them concurrently; `write_file` and `edit_file` come unless
 * `allowWrite` is false; `bash` only with `allowBash`. Every output is capped with an explicit
 * notice. Failures come back as error results the model can act on.
 *
 * Every path the model gives to the file tools is confined to `root` — `..`, absolute paths
 * elsewhere and symbolic links leading out are refused — and every open is verified on its
 * descriptor (Linux: `/proc/self/fd`), so a folder swapped for a link to outside between the
 * check and the open is refused too. Hard links are the exception: a hard link inside `root` to a
 * file outside is that file under an inside name, and cannot be told apart; keep the workspace on
 * its own file system, or prepare it from a fresh copy, when that matters.
 *
 * `bash` is NOT confined: its commands run with the host's privileges, reading and writing
 * anything the process can and using the network — unless `bashSandbox` runs each one inside a
 * bubblewrap sandbox that sees only `root` (read-write) and the system's programs (read-only).
 *
 * Throws `InvalidOptionError` when `root` does not exist, an option is out of range, or
 * `bashSandbox` is set where `bwrap` is missing or cannot create a sandbox.
 *
 * @example
 * const agent = createAgent({
 *   model: "claude-sonnet-4-5",
 *   tools: createWorkspaceTools({ root: process.cwd(), allowBash: true, bashSandbox: true }),
 * });
 */
export function createWorkspaceTools(options: WorkspaceToolsOptions): Tool[] {
  assertKnownOptions("createWorkspaceTools", options, WORKSPACE_TOOLS_OPTION_NAMES);
  const workspace = createWorkspace(resolveWorkspaceSettings(options));
  const tools: Tool[] = [
    createReadFileTool(workspace),
    createListFilesTool(workspace),
    createGlobTool(workspace),
    createGrepTool(workspace),
  ];
  if (workspace.settings.allowWrite) {
    const limits = workspace.settings.fileCheckpoints;
    const checkpoints = limits && new WorkspaceFileCheckpoints(workspace, limits);
    tools.push(createWriteFileTool(workspace, checkpoints), createEditFileTool(workspace, checkpoints));
  }
  if (workspace.settings.allowBash) tools.push(createBashTool(workspace));
  return tools;
}
