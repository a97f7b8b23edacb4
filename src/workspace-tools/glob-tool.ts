/**
 * `glob`: files whose paths match a glob pattern, sorted and capped.
 * @module
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { defineTool } from "../tools/define-tool";
import type { Tool } from "../tools/tool";
import { GlobSyntaxError } from "./brace-expansion";
import { compileGlob } from "./glob-pattern";
import { runWorkspaceOperation, toolError } from "./tool-result";
import { keepHead } from "./truncation";
import { type WalkReport, walkWorkspace } from "./walk";
import type { Workspace } from "./workspace";

const globInput = z.object({
  pattern: z
    .string()
    .describe('Glob pattern relative to `path`, e.g. "**/*.ts", "src/*.{js,json}", "test/**/[a-c]*.ts".'),
  path: z
    .string()
    .optional()
    .describe('Folder to search in, relative to the workspace root. Default: "." (the root).'),
  include_ignored: z.boolean().optional().describe("Also search node_modules and .git. Default: false."),
});

/** The input of `glob`. */
export type GlobInput = z.infer<typeof globInput>;

/** Creates the `glob` tool for a workspace. */
export function createGlobTool(workspace: Workspace): Tool<GlobInput> {
  const { maxEntries, maxOutputChars } = workspace.settings;
  return defineTool({
    name: "glob",
    description:
      "Find files by glob pattern. `*` and `?` stay within one folder name, `**` spans folders, `[a-z]` and `{a,b}` work; " +
      "wildcards also match names starting with a dot. Prints matching file paths relative to the workspace root, sorted, " +
      `at most ${maxEntries}. node_modules and .git are skipped unless include_ignored is set or the pattern names them.`,
    inputSchema: globInput,
    readOnly: true,
    execute: (input, context) =>
      runWorkspaceOperation(workspace, async () => {
        let matcher: ReturnType<typeof compileGlob>;
        try {
          matcher = compileGlob(input.pattern);
        } catch (error) {
          if (error instanceof GlobSyntaxError) return toolError(error.message);
          throw error;
        }
        const folder = await workspace.resolve(input.path ?? ".");
        if (!(await stat(folder.absolute)).isDirectory()) {
          return toolError(`"${folder.display}" is a file, not a folder; pass a folder as path.`);
        }
        const inFolder = (display: string) =>
          folder.display === "." ? display : display.slice(folder.display.length + 1);
        const report: WalkReport = { unreadable: [] };
        const walk = walkWorkspace(
          workspace,
          {
            start: folder.absolute,
            recursive: true,
            includeIgnored: input.include_ignored ?? false,
            shouldEnter: (display) => matcher.mayMatchInside(inFolder(display)),
            isRequested: (display) => matcher.namesDirectory(inFolder(display)),
            signal: context.signal,
          },
          report,
        );
        const matches: string[] = [];
        let more = false;
        for await (const entry of walk) {
          if (entry.kind !== "file" || !matcher.matches(inFolder(entry.display))) continue;
          if (matches.length === maxEntries) {
            more = true;
            break;
          }
          matches.push(entry.display);
        }
        const lines =
          matches.length > 0 ? matches : [`No files match "${input.pattern}" in "${folder.display}".`];
        if (more)
          lines.push(`[Stopped at ${maxEntries} files; there are more. Narrow the pattern or the path.]`);
        if (report.unreadable.length > 0) lines.push(`[Could not read: ${report.unreadable.join(", ")}]`);
        return keepHead(lines.join("\n"), maxOutputChars, "Narrow the pattern or the path.");
      }),
  });
}
