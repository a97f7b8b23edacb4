/**
 * `edit_file`: replaces an exact, unique string in a file (or every occurrence, when asked).
 * @module
 */
import { type FileHandle, stat } from "node:fs/promises";
import { z } from "zod";
import { defineTool } from "../tools/define-tool";
import type { Tool, ToolOutput } from "../tools/tool";
import { openConfined } from "./confined-open";
import { notRegularFileMessage, runWorkspaceOperation, toolError } from "./tool-result";
import { writeWholeFile } from "./whole-file";
import type { Workspace, WorkspacePath } from "./workspace";
import type { WorkspaceFileCheckpoints } from "./workspace-file-checkpoints";

const editFileInput = z.object({
  path: z.string().describe("File path, relative to the workspace root."),
  old_string: z
    .string()
    .describe(
      "The exact text to replace, whitespace and indentation included. It must occur exactly once unless replace_all is set.",
    ),
  new_string: z.string().describe("The text to put in its place."),
  replace_all: z
    .boolean()
    .optional()
    .describe("Replace every occurrence instead of requiring a unique one. Default: false."),
});

/** The input of `edit_file`. */
export type EditFileInput = z.infer<typeof editFileInput>;

/** How many line numbers an edit report lists before summarising. */
const MAX_REPORTED_LINES = 20;

/**
 * Creates the `edit_file` tool for a workspace; with `checkpoints`, a file's prior content is
 * recorded under the query's checkpoint before the edit is written.
 */
export function createEditFileTool(
  workspace: Workspace,
  checkpoints?: WorkspaceFileCheckpoints,
): Tool<EditFileInput> {
  const tool = defineTool({
    name: "edit_file",
    description:
      "Edit a text file of the workspace by replacing old_string with new_string. old_string must match the file exactly " +
      "and occur once (add surrounding lines to make it unique), unless replace_all is true. Read the file first.",
    inputSchema: editFileInput,
    readOnly: false,
    execute: (input, context) =>
      runWorkspaceOperation(workspace, async () => {
        if (input.old_string === "") {
          return toolError(
            "old_string is empty; to create a file or replace its whole content, use write_file.",
          );
        }
        if (input.old_string === input.new_string) {
          return toolError("old_string and new_string are identical; the edit would change nothing.");
        }
        const file = await workspace.resolve(input.path);
        // Opening a named pipe would block until a writer comes, beyond the reach of any abort.
        const stats = await stat(file.absolute);
        if (stats.isDirectory()) return toolError(`"${file.display}" is a directory, not a file.`);
        if (!stats.isFile()) return toolError(notRegularFileMessage(file.display, "edit_file edits"));
        const { handle, stats: opened } = await openConfined(workspace, file, "read-write", input.path);
        try {
          if (!opened.isFile()) return toolError(notRegularFileMessage(file.display, "edit_file edits"));
          const record =
            checkpoints &&
            ((bytes: Uint8Array) =>
              checkpoints.record(context.checkpointId, file, bytes.length, () => Promise.resolve(bytes)));
          return await editOpenFile(file, handle, input, record);
        } finally {
          await handle.close();
        }
      }),
  });
  return checkpoints ? { ...tool, fileCheckpoints: checkpoints } : tool;
}

/** Reads the open file, replaces the occurrences, and writes the result through the same descriptor. */
async function editOpenFile(
  file: WorkspacePath,
  handle: FileHandle,
  input: EditFileInput,
  recordPrior?: (bytes: Uint8Array) => Promise<void>,
): Promise<ToolOutput> {
  const bytes = await handle.readFile();
  if (bytes.includes(0))
    return toolError(`"${file.display}" is a binary file; edit_file edits text files only.`);
  const content = decodeUtf8(bytes);
  if (content === undefined) {
    return toolError(
      `"${file.display}" is not valid UTF-8 text (another encoding, such as Latin-1?); edit_file edits UTF-8 ` +
        "files only, since rewriting it would corrupt the characters it did not edit.",
    );
  }
  const positions = findOccurrences(content, input.old_string);
  if (positions.length === 0) return toolError(notFoundMessage(file.display, content, input.old_string));
  if (!input.replace_all) {
    // "aa" in "aaa" occurs once without overlaps, yet could mean either of two places.
    const overlapping = positions.length === 1 ? findOccurrences(content, input.old_string, true) : positions;
    if (overlapping.length > 1) {
      return toolError(
        `old_string occurs ${overlapping.length} times in "${file.display}" (lines ${describeLines(content, overlapping)})` +
          `${overlapping === positions ? "" : ", overlapping"}; it must be unique. Include more surrounding text to ` +
          "single out one occurrence, or set replace_all to true.",
      );
    }
  }
  const edited = replaceAt(content, positions, input.old_string.length, input.new_string);
  await recordPrior?.(bytes);
  await writeWholeFile(handle, Buffer.from(edited, "utf8"));
  const count = positions.length === 1 ? "1 occurrence" : `${positions.length} occurrences`;
  const lines = positions.length === 1 ? "line" : "lines";
  return `Replaced ${count} in "${file.display}" (${lines} ${describeLines(content, positions)}).`;
}

/** Strict UTF-8: a byte sequence that is not UTF-8 would come back as U+FFFD and be written so. */
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of `bytes`, or `undefined` when they are not valid UTF-8. A byte order mark is kept. */
function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8Decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** Start indexes of the occurrences of `search` in `content`, in order: non-overlapping unless asked. */
export function findOccurrences(content: string, search: string, overlapping = false): number[] {
  const positions: number[] = [];
  const step = overlapping ? 1 : search.length;
  for (let index = content.indexOf(search); index !== -1; index = content.indexOf(search, index + step)) {
    positions.push(index);
  }
  return positions;
}

/** `content` with the `length` characters at each position replaced by `replacement`, taken literally. */
function replaceAt(content: string, positions: number[], length: number, replacement: string): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const position of positions) {
    parts.push(content.slice(cursor, position), replacement);
    cursor = position + length;
  }
  parts.push(content.slice(cursor));
  return parts.join("");
}

function describeLines(content: string, positions: number[]): string {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (const position of positions.slice(0, MAX_REPORTED_LINES)) {
    for (
      let index = content.indexOf("\n", scanned);
      index !== -1 && index < position;
      index = content.indexOf("\n", index + 1)
    ) {
      line++;
      scanned = index + 1;
    }
    lines.push(line);
  }
  const more = positions.length - lines.length;
  return lines.join(", ") + (more > 0 ? ` and ${more} more` : "");
}

function notFoundMessage(display: string, content: string, search: string): string {
  let message =
    `old_string was not found in "${display}". It must match the file exactly, including whitespace, indentation ` +
    "and line endings; read the file and copy the text.";
  if (content.includes("\r\n") && search.includes("\n") && !search.includes("\r\n")) {
    message += " Note: the file uses CRLF (\\r\\n) line endings.";
  }
  return message;
}
