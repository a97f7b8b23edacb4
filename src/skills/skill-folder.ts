/**
 * Skill folders on disk (Node only; imported lazily by `loadSkills`): finding the skills of a
 * folder, reading each `SKILL.md`, listing its files, and reading a file on demand through the
 * workspace confinement (verified on the descriptor, so a symbolic link or a swapped folder never
 * reads outside the skill's folder).
 * @module
 */
import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { InvalidOptionError } from "../errors";
import { openConfined } from "../workspace-tools/confined-open";
import { resolveWorkspaceSettings } from "../workspace-tools/options";
import { looksBinary } from "../workspace-tools/text-file";
import { createWorkspace, type Workspace } from "../workspace-tools/workspace";
import type { Skill, SkillWarning } from "./skill";
import { parseSkillDocument } from "./skill-document";

/** The file that makes a folder a skill. */
export const SKILL_FILE = "SKILL.md";
/** The most files listed per skill. */
export const MAX_SKILL_FILES = 1000;
/** The largest file (SKILL.md included) read, in bytes. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;
const MAX_DEPTH = 8;

/** The skills of `folder` (see `loadSkills`). */
export async function readSkills(
  folder: string,
  onWarning: (warning: SkillWarning) => void,
): Promise<Skill[]> {
  const root = await existingFolder(folder);
  if (await isFile(path.join(root, SKILL_FILE))) return [await readSkill(root)];
  const skills: Skill[] = [];
  const entries = (await readdir(root, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const skillFolder = path.join(root, entry.name);
    if (!(await isFile(path.join(skillFolder, SKILL_FILE)))) continue;
    try {
      skills.push(await readSkill(skillFolder)); // names are unique: each must match its folder's
    } catch (error) {
      onWarning({ path: skillFolder, error: error instanceof Error ? error : new Error(String(error)) });
    }
  }
  return skills;
}

/** One skill folder. */
async function readSkill(folder: string): Promise<Skill> {
  const workspace = createWorkspace(resolveWorkspaceSettings({ root: folder, allowWrite: false }));
  const real = workspace.settings.realRoot;
  const file = path.join(real, SKILL_FILE);
  const text = await readConfined(workspace, SKILL_FILE);
  const document = await parseSkillDocument(text, file, path.basename(real));
  const files = (await listFiles(real)).filter((entry) => entry !== SKILL_FILE);
  const known = new Set(files);
  return {
    ...document.fields,
    instructions: document.instructions,
    folder: real,
    files,
    readFile: async (requested) => {
      const relative = requested.replaceAll("\\", "/").replace(/^\.\//, "");
      if (!known.has(relative))
        throw new Error(`The skill "${document.fields.name}" has no file ${JSON.stringify(requested)}.`);
      return readConfined(workspace, relative);
    },
  };
}

/** Reads a text file inside the workspace, verified on its descriptor, bounded in size. */
async function readConfined(workspace: Workspace, relative: string): Promise<string> {
  const target = await workspace.resolve(relative);
  const { handle, stats } = await openConfined(workspace, target, "read", relative);
  try {
    if (!stats.isFile()) throw new Error(`${relative} is not a regular file.`);
    if (stats.size > MAX_SKILL_FILE_BYTES)
      throw new Error(
        `${relative} is ${stats.size} bytes; files over ${MAX_SKILL_FILE_BYTES} bytes are not read.`,
      );
    if (await looksBinary(handle))
      throw new Error(`${relative} is a binary file (${stats.size} bytes); it cannot be read as text.`);
    return await handle.readFile({ encoding: "utf8" });
  } finally {
    await handle.close();
  }
}

/** The files under `root` (relative, `/`-separated, sorted), without dot-entries and `node_modules`. */
async function listFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(folder: string, prefix: string, depth: number): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (found.length >= MAX_SKILL_FILES) return;
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) await walk(path.join(folder, entry.name), relative, depth + 1);
      } else if (entry.isFile() || entry.isSymbolicLink()) found.push(relative);
    }
  }
  await walk(root, "", 0);
  return found.sort();
}

async function existingFolder(folder: string): Promise<string> {
  if (typeof folder !== "string" || folder.length === 0)
    throw new InvalidOptionError("loadSkills needs a folder path.");
  let real: string;
  try {
    real = await realpath(folder);
  } catch (error) {
    throw new InvalidOptionError(`Skills folder ${folder} does not exist or cannot be read.`, {
      cause: error,
    });
  }
  if (!(await stat(real)).isDirectory())
    throw new InvalidOptionError(`Skills folder ${folder} is not a folder.`);
  return real;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}
