/**
 * `filesMatch`: checks the files the agent left in the trial's workspace.
 * @module
 */
import { readFile } from "node:fs/promises";
import { isAbsolute, join, normalize } from "node:path";
import type { EvalRun, ScoreResult, Scorer } from "../types";

/**
 * Scores the workspace's files against `expected` (or the case's `expected.files`): a string must
 * equal the file's content (a trailing newline ignored), a RegExp must match it, `null` means the file
 * must not exist. The score is the share of files that match.
 *
 * @example
 * filesMatch({ "notes.md": /## Summary/, "draft.txt": null })
 */
export function filesMatch(expected?: Record<string, string | RegExp | null>): Scorer {
  const scorer = async (run: EvalRun): Promise<ScoreResult> => {
    const wanted = expected ?? (run.case.expected?.files as Record<string, string | null> | undefined);
    if (!wanted)
      throw new Error(
        `no expected files: pass them to filesMatch() or set expected.files on case "${run.case.id}"`,
      );
    if (!run.workspace) throw new Error(`case "${run.case.id}" has no workspace to check`);
    const problems: string[] = [];
    for (const [file, want] of Object.entries(wanted)) {
      const problem = await fileProblem(run.workspace, file, want);
      if (problem) problems.push(problem);
    }
    const total = Object.keys(wanted).length;
    const score = total === 0 ? 1 : (total - problems.length) / total;
    return {
      score,
      pass: problems.length === 0,
      reason: problems.length === 0 ? `${total} file(s) as expected` : problems.join("; "),
    };
  };
  return Object.defineProperty(scorer, "name", { value: "filesMatch" });
}

async function fileProblem(
  root: string,
  file: string,
  want: string | RegExp | null,
): Promise<string | undefined> {
  const relative = normalize(file);
  if (isAbsolute(relative) || relative.startsWith(".."))
    throw new Error(`"${file}" is not a path inside the workspace`);
  let content: string | undefined;
  try {
    content = await readFile(join(root, relative), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (want === null) return content === undefined ? undefined : `${file} exists but should not`;
  if (content === undefined) return `${file} is missing`;
  if (want instanceof RegExp) return want.test(content) ? undefined : `${file} does not match ${want}`;
  return content.replace(/\n$/, "") === want.replace(/\n$/, "")
    ? undefined
    : `${file} differs: ${JSON.stringify(content.slice(0, 80))}`;
}
