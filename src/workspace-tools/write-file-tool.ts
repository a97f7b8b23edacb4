/**
 * `write_file`: creates or overwrites a file, creating its parent folders.
 * @module
 */
import { z } from "zod";
import { defineTool } from "../tools/define-tool";
import type { Tool } from "../tools/tool";
import { type CreatedEntry, createConfined } from "./confined-open";
import { notRegularFileMessage, runWorkspaceOperation, toolError } from "./tool-result";
import { writeWholeFile } from "./whole-file";
import type { Workspace } from "./workspace";

const writeFileInput = z.object({
  path: z.string().describe("File path, relative to the workspace root. Missing parent folders are created."),
  content: z.string().describe("The complete new content of the file (UTF-8)."),
});

/** The input of `write_file`. */
export type WriteFileInput = z.infer<typeof writeFileInput>;

/** Creates the `write_file` tool for a workspace. */
export function createWriteFileTool(workspace: Workspace): Tool<WriteFileInput> {
  return defineTool({
    name: "write_file",
    description:
      "Create a file, or replace an existing file's whole content, in the workspace. Parent folders are created. " +
      "To change part of a file, prefer edit_file.",
    inputSchema: writeFileInput,
    readOnly: false,
    execute: (input) =>
      runWorkspaceOperation(workspace, async () => {
        const file = await workspace.resolve(input.path);
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
}
