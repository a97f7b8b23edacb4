/**
 * `agent-lattice/skills/files`: the file-system half of skills and project instructions — reading
 * skill folders and instruction files. The root entry loads it at run time
 * ({@link importAtRunTime}), out of a bundler's sight, so a one-file bundle of the root entry for a
 * worker or an edge runtime carries no `fs` import; importing this entry registers it, for a
 * one-file bundle that does read folders.
 * @module
 */
import { registerRunTimeModule } from "../shared/run-time-import";
import { readInstructionFiles } from "./instruction-files";
import { readSkills } from "./skill-folder";

export { readInstructionFiles } from "./instruction-files";
export { readSkills } from "./skill-folder";

/** The specifier the root entry loads this module by. */
export const SKILL_FILES_MODULE = "agent-lattice/skills/files";

registerRunTimeModule(SKILL_FILES_MODULE, { readSkills, readInstructionFiles });
