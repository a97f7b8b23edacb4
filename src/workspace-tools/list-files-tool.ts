/**
 * `list_files`: the entries of a folder, optionally recursive, sorted and capped.
 * @module
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { defineTool } from "../tools/define-tool";
import type { Tool } from "../tools/tool";
import { runWorkspaceOperation, toolError } from "./tool-result";
import { keepHead } from "./truncation";
import { type WalkEntry, type WalkReport, walkWorkspace } from "./walk";
import type { Workspace } from "./workspace";

const listFilesInput = z.object({
  path: z
    .string()
    .optional()
    .describe('Folder to list, relative to the workspace root. Default: "." (the root).'),
  recursive: z.boolean().optional().describe("List sub-folders too. Default: false."),
  include_ignored: z.boolean().optional().describe("Also enter node_modules and .git. Default: false."),
});

/** The input of `list_files`. */
export type ListFilesInput = z.infer<typeof listFilesInput>;

/** Creates the `list_files` tool for a workspace. */
export function createListFilesTool(workspace: Workspace): Tool<ListFilesInput> {
  const { maxEntries, maxOutputChars } = workspace.settings;
  return defineTool({
    name: "list_files",
    description:
      "List a folder of the workspace: one root-relative path per line, sorted, folders ending in `/`, " +
      `symbolic links shown as \`name -> target\`. At most ${maxEntries} entries. ` +
      "node_modules and .git are shown but not entered unless include_ignored is set.",
    inputSchema: listFilesInput,
    readOnly: true,
    execute: (input, context) =>
      runWorkspaceOperation(workspace, async () => {
        const folder = await workspace.resolve(input.path ?? ".");
        if (!(await stat(folder.absolute)).isDirectory()) {
          return toolError(`"${folder.display}" is a file, not a folder; use read_file to read it.`);
        }
        const recursive = input.recursive ?? false;
        const report: WalkReport = { unreadable: [] };
        const walk = walkWorkspace(
          workspace,
          {
            start: folder.absolute,
            recursive,
            includeIgnored: input.include_ignored ?? false,
            signal: context.signal,
          },
          report,
        );
        const lines: string[] = [];
        let more = false;
        for await (const entry of walk) {
          if (lines.length === maxEntries) {
            more = true;
            break;
          }
          lines.push(renderEntry(entry, recursive));
        }
        if (lines.length === 0 && report.unreadable.length === 0) return `"${folder.display}" is empty.`;
        if (more) {
          lines.push(
            `[Listing stopped at ${maxEntries} entries; there are more. List a sub-folder or use glob to narrow it.]`,
          );
        }
        if (report.unreadable.length > 0) lines.push(`[Could not read: ${report.unreadable.join(", ")}]`);
        return keepHead(lines.join("\n"), maxOutputChars, "List a sub-folder to see the rest.");
      }),
  });
}

/** One listing line for an entry. */
export function renderEntry(entry: WalkEntry, recursive: boolean): string {
  const suffix = entry.kind === "directory" ? "/" : "";
  if (entry.link?.target === "inside") return `${entry.display} -> ${entry.link.display}${suffix}`;
  if (entry.link?.target === "outside") return `${entry.display} -> (a link to outside the workspace)`;
  if (entry.link?.target === "broken") return `${entry.display} -> (a broken link)`;
  if (entry.kind === "other") return `${entry.display} (not a regular file)`;
  if (entry.ignored && recursive) return `${entry.display}/ (not entered; set include_ignored to list it)`;
  return entry.display + suffix;
}
