/**
 * `grep`: lines matching a regular expression, as `path:line: text`, capped.
 * @module
 */
import { stat } from "node:fs/promises";
import { z } from "zod";
import { defineTool } from "../tools/define-tool";
import type { Tool, ToolOutput } from "../tools/tool";
import { GlobSyntaxError } from "./brace-expansion";
import { openConfined } from "./confined-open";
import { compileGlob, type GlobMatcher } from "./glob-pattern";
import { GrepWorker } from "./grep-worker";
import { runWorkspaceOperation, toolError } from "./tool-result";
import { formatLine, keepHead } from "./truncation";
import { type WalkEntry, type WalkReport, walkWorkspace } from "./walk";
import type { Workspace, WorkspacePath } from "./workspace";

const grepInput = z.object({
  pattern: z
    .string()
    .describe('JavaScript regular expression to search for, e.g. "function\\s+\\w+" or "TODO|FIXME".'),
  path: z
    .string()
    .optional()
    .describe('File or folder to search, relative to the workspace root. Default: "." (the root).'),
  glob: z
    .string()
    .optional()
    .describe(
      'Only search files matching this glob. Without a "/" it matches file names ("*.ts"); with one, paths relative to `path` ("src/**/*.ts").',
    ),
  case_insensitive: z.boolean().optional().describe("Match regardless of case. Default: false."),
  include_ignored: z.boolean().optional().describe("Also search node_modules and .git. Default: false."),
});

/** The input of `grep`. */
export type GrepInput = z.infer<typeof grepInput>;

/** Counters of what a search left out. */
interface SearchTally {
  matches: string[];
  more: boolean;
  binaryFiles: number;
  largeFiles: number;
}

/** Creates the `grep` tool for a workspace. */
export function createGrepTool(workspace: Workspace): Tool<GrepInput> {
  const { maxMatches, maxGrepFileBytes } = workspace.settings;
  return defineTool({
    name: "grep",
    description:
      "Search file contents with a regular expression (JavaScript syntax, one line at a time). Prints `path:line: text`, " +
      `paths relative to the workspace root, at most ${maxMatches} matches. Binary files and files over ${maxGrepFileBytes} bytes ` +
      "are skipped; node_modules and .git too unless include_ignored is set.",
    inputSchema: grepInput,
    readOnly: true,
    execute: (input, context) =>
      runWorkspaceOperation(workspace, () => grep(workspace, input, context.signal)),
  });
}

/** One search: the pattern and filter compiled, every file under the path searched, the report. */
async function grep(workspace: Workspace, input: GrepInput, signal: AbortSignal): Promise<ToolOutput> {
  let expression: RegExp;
  let filter: GlobMatcher | undefined;
  try {
    expression = new RegExp(input.pattern, input.case_insensitive ? "i" : "");
  } catch (error) {
    return toolError(`Invalid regular expression: ${(error as Error).message}`);
  }
  try {
    filter = input.glob === undefined ? undefined : compileFileFilter(input.glob);
  } catch (error) {
    if (error instanceof GlobSyntaxError) return toolError(error.message);
    throw error;
  }
  const target = await workspace.resolve(input.path ?? ".");
  const tally: SearchTally = { matches: [], more: false, binaryFiles: 0, largeFiles: 0 };
  const report: WalkReport = { unreadable: [] };
  let worker: GrepWorker | undefined;
  try {
    for await (const file of filesToSearch(workspace, target, input, filter, report, signal)) {
      worker ??= new GrepWorker(expression, workspace.settings.maxLineChars);
      await searchFile(workspace, file, input.path ?? ".", worker, tally, report, signal);
      if (tally.more) break;
    }
  } finally {
    await worker?.close();
  }
  return renderSearch(workspace, input, target, tally, report);
}

/**
 * Searches one file, read by the worker through a descriptor verified inside the root. A file that
 * cannot be opened safely (gone, unreadable, or swapped for a link out of the root since the walk
 * listed it) is reported as unreadable; the search goes on with the others.
 */
async function searchFile(
  workspace: Workspace,
  file: WorkspacePath,
  requestedPath: string,
  worker: GrepWorker,
  tally: SearchTally,
  report: WalkReport,
  signal: AbortSignal,
): Promise<void> {
  const { maxMatches, maxGrepFileBytes, maxLineChars } = workspace.settings;
  const requested = file.display === "." ? requestedPath : file.display;
  let opened: Awaited<ReturnType<typeof openConfined>>;
  try {
    opened = await openConfined(workspace, file, "read", requested);
  } catch {
    if (signal.aborted) throw signal.reason;
    report.unreadable.push(file.display);
    return;
  }
  const { handle, stats } = opened;
  let found: Awaited<ReturnType<GrepWorker["search"]>>;
  try {
    if (!stats.isFile()) return;
    if (stats.size > maxGrepFileBytes) {
      tally.largeFiles++;
      return;
    }
    found = await worker.search(handle.fd, maxMatches - tally.matches.length, signal);
  } finally {
    await handle.close();
  }
  if (found.binary) {
    tally.binaryFiles++;
    return;
  }
  for (const line of found.matches) {
    tally.matches.push(`${file.display}:${line.number}: ${formatLine(line, maxLineChars)}`);
  }
  tally.more = found.more;
}

/** The tool's answer: the matches (or none), then what stopped or skipped the search. */
function renderSearch(
  workspace: Workspace,
  input: GrepInput,
  target: WorkspacePath,
  tally: SearchTally,
  report: WalkReport,
): ToolOutput {
  const { maxMatches, maxOutputChars, maxGrepFileBytes } = workspace.settings;
  const lines =
    tally.matches.length > 0
      ? [...tally.matches]
      : [`No matches for /${input.pattern}/ in "${target.display}".`];
  if (tally.more)
    lines.push(`[Stopped at ${maxMatches} matches; there are more. Narrow the pattern, path or glob.]`);
  const skipped: string[] = [];
  if (tally.binaryFiles > 0)
    skipped.push(`${tally.binaryFiles} binary file${tally.binaryFiles === 1 ? "" : "s"}`);
  if (tally.largeFiles > 0) {
    skipped.push(
      `${tally.largeFiles} file${tally.largeFiles === 1 ? "" : "s"} over ${maxGrepFileBytes} bytes`,
    );
  }
  if (skipped.length > 0) lines.push(`[Skipped ${skipped.join(" and ")}.]`);
  if (report.unreadable.length > 0) lines.push(`[Could not read: ${report.unreadable.join(", ")}]`);
  return keepHead(lines.join("\n"), maxOutputChars, "Narrow the pattern, path or glob.");
}

/** A file filter: a pattern without `/` matches file names at any depth. */
function compileFileFilter(pattern: string): GlobMatcher {
  return compileGlob(pattern.includes("/") ? pattern : `**/${pattern}`);
}

/** The files to search: the target itself when it is a file, else the files below it that pass the filter. */
async function* filesToSearch(
  workspace: Workspace,
  target: WorkspacePath,
  input: GrepInput,
  filter: GlobMatcher | undefined,
  report: WalkReport,
  signal: AbortSignal,
): AsyncGenerator<WorkspacePath> {
  const stats = await stat(target.absolute);
  if (stats.isFile()) {
    yield target;
    return;
  }
  if (!stats.isDirectory()) return;
  const inFolder = (display: string) =>
    target.display === "." ? display : display.slice(target.display.length + 1);
  const walk = walkWorkspace(
    workspace,
    {
      start: target.absolute,
      recursive: true,
      includeIgnored: input.include_ignored ?? false,
      shouldEnter: filter ? (display) => filter.mayMatchInside(inFolder(display)) : undefined,
      isRequested: filter ? (display) => filter.namesDirectory(inFolder(display)) : undefined,
      signal,
    },
    report,
  );
  for await (const entry of walk) {
    if (isSearchable(entry) && (!filter || filter.matches(inFolder(entry.display)))) yield entry;
  }
}

function isSearchable(entry: WalkEntry): boolean {
  return entry.kind === "file";
}
