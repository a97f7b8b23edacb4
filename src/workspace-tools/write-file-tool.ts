/**
 * `write_file`: creates or overwrites a file, creating its parent folders.
 * @module
 */
import { z } from "zod";
import { defineTool } from "../tools/define-tool";
import type { Tool } from "../tools/tool";
import { type ConfinedEntry, type CreatedEntry, createConfined, openConfined } from "./confined-open";
import { notRegularFileMessage, runWorkspaceOperation, toolError } from "./tool-result";
import { writeWholeFile } from "./whole-file";
import type { Workspace, WorkspacePath } from "./workspace";
import type { WorkspaceFileCheckpoints } from "./workspace-file-checkpoints";

const writeFileInput = z.object({
  path: z.string().describe("File path, relative to the workspace root. Missing parent folders are created."),
  content: z.string().describe("The complete new content of the file (UTF-8)."),
});

/** The input of `write_file`. */
export type WriteFileInput = z.infer<typeof writeFileInput>;

/**
 * Creates the `write_file` tool for a workspace; with `checkpoints`, a file's prior content is
 * recorded under the query's checkpoint before it is written.
 */
export function createWriteFileTool(
  workspace: Workspace,
  checkpoints?: WorkspaceFileCheckpoints,
): Tool<WriteFileInput> {
  const tool = defineTool({
    name: "write_file",
    description:
      "Create a file, or replace an existing file's whole content, in the workspace. Parent folders are created. " +
      "To change part of a file, prefer edit_file.",
    inputSchema: writeFileInput,
    readOnly: false,
    execute: (input, context) =>
      runWorkspaceOperation(workspace, async () => {
        const file = await workspace.resolve(input.path);
        if (checkpoints && context.checkpointId !== undefined)
          await recordPriorContent(workspace, checkpoints, context.checkpointId, file, input.path);
        let created: CreatedEntry;
        try {
          created = await createConfined(workspace, file, input.path);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOTDIR") throw error;
          return toolError(
            `Cannot write "${file.display}": part of its folder path is a file, not a folder.`,
          );
        }
        if (created.status === "directory")
          return toolError(`"${file.display}" is a directory; choose a file path.`);
        // Opening a named pipe would block until a reader comes, beyond the reach of any abort.
        if (created.status === "not-regular")
          return toolError(notRegularFileMessage(file.display, "write_file writes"));
        const { entry, previousSize } = created;
        try {
          await writeWholeFile(entry.handle, Buffer.from(input.content, "utf8"));
        } finally {
          await entry.handle.close();
        }
        const bytes = Buffer.byteLength(input.content);
        const what =
          previousSize === undefined ? "a new file" : `replacing its previous ${previousSize} bytes`;
        return `Wrote ${bytes} bytes to "${file.display}" (${what}).`;
      }),
  });
  return checkpoints ? { ...tool, fileCheckpoints: checkpoints } : tool;
}

/** Records what is at `file` before it is written: its content (a regular file), or that nothing is. */
async function recordPriorContent(
  workspace: Workspace,
  checkpoints: WorkspaceFileCheckpoints,
  checkpointId: string,
  file: WorkspacePath,
  requestedPath: string,
): Promise<void> {
  let entry: ConfinedEntry;
  try {
    entry = await openConfined(workspace, file, "read", requestedPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return checkpoints.record(checkpointId, file, undefined, () => Promise.resolve(new Uint8Array()));
  }
  try {
    // A folder or a special file: write_file refuses it, nothing changes.
    if (!entry.stats.isFile()) return;
    await checkpoints.record(checkpointId, file, entry.stats.size, () => entry.handle.readFile());
  } finally {
    await entry.handle.close();
  }
}
