/**
 * Project instructions (`AGENTS.md`, `CLAUDE.md` …): the option's type, its defaults, and the
 * block the system prompt carries. Reading the files is in `instruction-files.ts`, imported only
 * when an agent has the option.
 * @module
 */

/** @see ProjectInstructions.maxBytes */
export const DEFAULT_INSTRUCTIONS_MAX_BYTES = 64 * 1024;

/** `AgentOptions.instructions`: files appended to the system prompt, in the order listed. */
export interface ProjectInstructions {
  /**
   * The files, relative to `root` (or absolute), in the order they are appended — e.g.
   * `["AGENTS.md", "CLAUDE.md"]`. A file that does not exist is skipped; one that cannot be read
   * (a folder, no permission) or is over `maxBytes` fails the agent's first query.
   */
  files: string[];
  /** The folder the paths are relative to. @default process.cwd() */
  root?: string;
  /** The largest file, in bytes (UTF-8). @default 65536 */
  maxBytes?: number;
}

/** One file read: its path as listed and its text. */
export interface InstructionFile {
  path: string;
  text: string;
}

/** The block appended to the system prompt; empty when no file was found. */
export function instructionsBlock(files: readonly InstructionFile[]): string {
  if (files.length === 0) return "";
  const parts = ["<project_instructions>", "Instructions of the project you work in (follow them):"];
  for (const file of files) parts.push(`<file path="${file.path}">`, file.text.trim(), "</file>");
  parts.push("</project_instructions>");
  return parts.join("\n");
}
