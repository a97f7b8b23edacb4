/**
 * `read_file`: a text file with line numbers, optionally a line range, within a size cap.
 * @module
 */
import type { Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { z } from "zod";
import { defineTool } from "../tools/define-tool";
import type { Tool, ToolOutput } from "../tools/tool";
import { openConfined } from "./confined-open";
import { looksBinary, readTextLines, type TextLine } from "./text-file";
import { runWorkspaceOperation, toolError } from "./tool-result";
import { formatLine } from "./truncation";
import type { Workspace, WorkspacePath } from "./workspace";

const readFileInput = z.object({
  path: z.string().describe("File path, relative to the workspace root."),
  offset: z.number().int().positive().optional().describe("First line to read, 1-based. Default: 1."),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("How many lines to read. Default: up to the size cap."),
});

/** The input of `read_file`. */
export type ReadFileInput = z.infer<typeof readFileInput>;

/** Creates the `read_file` tool for a workspace. */
export function createReadFileTool(workspace: Workspace): Tool<ReadFileInput> {
  return defineTool({
    name: "read_file",
    description:
      "Read a UTF-8 text file of the workspace. Lines come numbered (`number<TAB>text`). " +
      `At most ${workspace.settings.maxReadBytes} bytes are returned per call; use offset and limit to read a large file in parts. ` +
      "Binary files are refused.",
    inputSchema: readFileInput,
    readOnly: true,
    execute: (input, context) =>
      runWorkspaceOperation(workspace, async () => {
        const file = await workspace.resolve(input.path);
        const { handle, stats } = await openConfined(workspace, file, "read", input.path);
        try {
          const problem = checkReadableTextFile(file, stats);
          if (problem) return problem;
          return await readLineRange(workspace, file, handle, input, context.signal);
        } finally {
          await handle.close();
        }
      }),
  });
}

/** An error result when the path is not a regular file, else `undefined`. */
function checkReadableTextFile(file: WorkspacePath, stats: Stats): ToolOutput | undefined {
  if (stats.isDirectory())
    return toolError(`"${file.display}" is a directory; use list_files to see its contents.`);
  if (!stats.isFile())
    return toolError(
      `"${file.display}" is not a regular file (a device, socket or pipe); it cannot be read.`,
    );
  return undefined;
}

async function readLineRange(
  workspace: Workspace,
  file: WorkspacePath,
  handle: FileHandle,
  input: ReadFileInput,
  signal: AbortSignal,
): Promise<ToolOutput> {
  const { maxReadBytes, maxLineChars } = workspace.settings;
  const first = input.offset ?? 1;
  const last = input.limit === undefined ? Number.POSITIVE_INFINITY : first + input.limit - 1;
  if (await looksBinary(handle)) {
    const { size } = await handle.stat();
    return toolError(`"${file.display}" is a binary file (${size} bytes); read_file reads text files only.`);
  }
  const shown: string[] = [];
  let shownBytes = 0;
  let lineCount = 0;
  let ending = "";
  for await (const line of readTextLines(handle, { maxLineChars, signal })) {
    lineCount = line.number;
    if (line.number < first) continue;
    if (line.number > last) {
      ending = `[Showing lines ${first}-${last}; the file continues after line ${last}. Use offset=${last + 1} to read on.]`;
      break;
    }
    const rendered = renderNumberedLine(line, maxLineChars);
    const bytes = Buffer.byteLength(rendered) + 1;
    if (shownBytes + bytes > maxReadBytes && shown.length > 0) {
      const lastShown = line.number - 1;
      const { size } = await handle.stat();
      ending =
        `[Output truncated at the ${maxReadBytes}-byte cap: showing lines ${first}-${lastShown} of a ${size}-byte file. ` +
        `Use offset=${lastShown + 1} to read on.]`;
      break;
    }
    shown.push(rendered);
    shownBytes += bytes;
  }
  if (lineCount === 0) return `"${file.display}" is empty.`;
  if (shown.length === 0) {
    return toolError(`"${file.display}" has ${lineCount} lines; offset ${first} is past its end.`);
  }
  return ending ? `${shown.join("\n")}\n${ending}` : shown.join("\n");
}

function renderNumberedLine(line: TextLine, maxLineChars: number): string {
  return `${String(line.number).padStart(6)}\t${formatLine(line, maxLineChars)}`;
}
