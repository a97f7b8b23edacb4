/**
 * A case's workspace: its fixture files copied to a fresh folder for each trial, removed after the
 * trial's scorers ran.
 * @module
 */
import { cp, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, normalize, resolve } from "node:path";
import { EvalInputError } from "./eval-input-error";
import type { EvalCase } from "./types";

/** A trial's workspace folder and how to remove it. */
export interface TrialWorkspace {
  path: string;
  remove(): Promise<void>;
}

/**
 * Makes a fresh folder holding the case's fixtures: a map of relative paths to contents, or a folder
 * (relative to `baseDir`) copied whole. `undefined` when the case has no workspace.
 */
export async function createTrialWorkspace(
  evalCase: EvalCase,
  baseDir: string,
): Promise<TrialWorkspace | undefined> {
  const fixture = evalCase.workspace;
  if (fixture === undefined) return undefined;
  // The real path: tools resolve symlinks (macOS /tmp …), and a cassette's paths must match.
  const path = await realpath(await mkdtemp(join(tmpdir(), `agent-lattice-eval-${evalCase.id}-`)));
  const remove = () => rm(path, { recursive: true, force: true });
  try {
    if (typeof fixture === "string") await cp(resolve(baseDir, fixture), path, { recursive: true });
    else
      for (const [file, content] of Object.entries(fixture))
        await writeFixture(path, file, content, evalCase.id);
  } catch (error) {
    await remove();
    if (error instanceof EvalInputError) throw error;
    throw new EvalInputError(
      `case "${evalCase.id}": cannot prepare its workspace: ${(error as Error).message}`,
    );
  }
  return { path, remove };
}

async function writeFixture(root: string, file: string, content: string, caseId: string): Promise<void> {
  const relative = normalize(file);
  if (isAbsolute(relative) || relative.startsWith(".."))
    throw new EvalInputError(
      `case "${caseId}": the workspace file "${file}" must be a path inside the workspace.`,
    );
  const target = join(root, relative);
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, content);
}
