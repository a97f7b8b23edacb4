/**
 * {@link loadSkills}: skills from folders on disk. The file-system code is in its own module,
 * imported only when called, so the root entry holds no `fs` import for bundles that never load
 * skills from disk (workers, edge runtimes).
 * @module
 */

import { importAtRunTime } from "../shared/run-time-import";
import type { Skill, SkillWarning } from "./skill";

/** Options of {@link loadSkills}. */
export interface LoadSkillsOptions {
  /**
   * Told of each skill skipped in a folder of several. @default a Node warning
   * (`process.emitWarning`, type `SkillWarning`)
   */
  onWarning?: (warning: SkillWarning) => void;
}

/**
 * Loads skills from `folder`: one skill when it holds a `SKILL.md`, else every sub-folder holding
 * one (sorted by name). One skill folder that breaks a rule rejects with a {@link SkillFormatError}
 * naming its `SKILL.md` and the rule; in a folder of several, a bad skill is skipped with a warning
 * (`onWarning`) and the others load.
 * Each skill's files (up to 1,000, dot-files and `node_modules` left out) are listed; they are
 * read on demand, confined to the skill's folder.
 *
 * @throws {InvalidOptionError} when `folder` does not exist or is not a folder
 * @example
 * const skills = await loadSkills("./skills");
 * const agent = createAgent({ model: "claude-sonnet-4-6", skills });
 */
export async function loadSkills(folder: string, options: LoadSkillsOptions = {}): Promise<Skill[]> {
  const { readSkills } = await importAtRunTime<typeof import("./files")>("agent-lattice/skills/files");
  return readSkills(folder, options.onWarning ?? emitSkillWarning);
}

function emitSkillWarning(warning: SkillWarning): void {
  const message = `Skipped the skill at ${warning.path}: ${warning.error.message}`;
  if (typeof process !== "undefined" && typeof process.emitWarning === "function")
    process.emitWarning(message, "SkillWarning");
  else console.warn(message);
}
