/**
 * What an agent adds to its system prompt and tools from `skills` and `instructions`: skills given
 * as objects are checked at creation; folders and instruction files are read before the first
 * query (the file-system code imported only then), once. The catalog and the instructions become
 * system-prompt sections, the same text on every request; the `skill` tool is registered, and each
 * skill's `allowed-tools` is granted once the model uses the skill.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { AgentSeat } from "../loop/state/agent-seat";
import { SkillGrants } from "../loop/state/skill-grants";
import { positiveInteger } from "../shared/option-checks";
import { importAtRunTime } from "../shared/run-time-import";
import { loadSkills } from "../skills/load-skills";
import { instructionsBlock, type ProjectInstructions } from "../skills/project-instructions";
import type { Skill } from "../skills/skill";
import { SKILL_TOOL_NAME, skillCatalog } from "../skills/skill-catalog";
import { createSkillTool } from "../skills/skill-tool";

/** An agent's skills and project instructions, resolved before its first query. */
export class PromptAdditions {
  private loading: Promise<void> | undefined;

  constructor(
    /** The agent whose system prompt and tools they extend (a handoff's specialist has its own). */
    private readonly seat: AgentSeat,
    private readonly skills: ReadonlyArray<string | Skill>,
    private readonly instructions: ProjectInstructions | undefined,
  ) {}

  /**
   * Checks the options' shapes and the skills given as objects (names unique).
   * @throws InvalidOptionError
   */
  static check(skills: unknown, instructions: unknown): void {
    if (skills !== undefined) {
      if (!Array.isArray(skills))
        throw new InvalidOptionError(
          "createAgent: `skills` must be an array of skill folders (strings) or skills.",
        );
      for (const entry of skills) if (typeof entry !== "string") checkSkillObject(entry);
      uniqueNames(skills.filter((entry): entry is Skill => typeof entry !== "string"));
    }
    if (instructions !== undefined) {
      const { files, root, maxBytes } = (instructions ?? {}) as Partial<ProjectInstructions>;
      if (!Array.isArray(files) || !files.every((file) => typeof file === "string" && file.length > 0))
        throw new InvalidOptionError("createAgent: `instructions.files` must be an array of file paths.");
      if (root !== undefined && (typeof root !== "string" || root.length === 0))
        throw new InvalidOptionError("createAgent: `instructions.root` must be a folder path.");
      if (maxBytes !== undefined)
        positiveInteger(maxBytes, {
          factory: "createAgent",
          option: "`instructions.maxBytes`",
          show: "none",
        });
    }
  }

  /** Loads once; a failure (a bad single skill, an unreadable instruction file) rejects every time. */
  ensureLoaded(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  private async load(): Promise<void> {
    const unique = uniqueNames(await skillsOf(this.skills));
    let instructions = "";
    if (this.instructions) {
      const { readInstructionFiles } = await importAtRunTime<typeof import("../skills/files")>(
        "agent-lattice/skills/files",
      );
      instructions = instructionsBlock(await readInstructionFiles(this.instructions));
    }
    this.seat.setSystemSections([instructions, skillCatalog(unique)]);
    if (unique.length === 0) return;
    this.seat.tools.add(createSkillTool(unique));
    const grants = new Map<string, readonly string[]>();
    for (const skill of unique) if (skill.allowedTools) grants.set(skill.name, skill.allowedTools);
    if (grants.size > 0) this.seat.grants = new SkillGrants(SKILL_TOOL_NAME, grants);
  }
}

/**
 * The skills `entries` stand for, in order: each folder's as `loadSkills` reads them, each skill
 * object as it is. (A subagent reads its folders with it once, for all its calls.)
 */
export async function skillsOf(entries: ReadonlyArray<string | Skill>): Promise<Skill[]> {
  const skills: Skill[] = [];
  for (const entry of entries)
    skills.push(...(typeof entry === "string" ? await loadSkills(entry) : [entry]));
  return skills;
}

function checkSkillObject(entry: unknown): void {
  const skill = entry as Partial<Skill> | null;
  if (
    typeof skill !== "object" ||
    skill === null ||
    typeof skill.name !== "string" ||
    typeof skill.description !== "string" ||
    typeof skill.instructions !== "string" ||
    !Array.isArray(skill.files) ||
    typeof skill.readFile !== "function"
  )
    throw new InvalidOptionError(
      "createAgent: each of `skills` must be a folder path or a skill from defineSkill()/loadSkills().",
    );
}

/** The skills, refusing a second one of the same name. */
function uniqueNames(skills: readonly Skill[]): Skill[] {
  const seen = new Set<string>();
  for (const skill of skills) {
    if (seen.has(skill.name))
      throw new InvalidOptionError(
        `createAgent: two skills are named "${skill.name}"; skill names must be unique.`,
      );
    seen.add(skill.name);
  }
  return [...skills];
}
