/**
 * A subagent's skill folders, read once per definition: at its first call, and the skills found
 * are then handed to each call's child agent as skill objects, so later calls read no folder
 * again. A skill's other files are still read when the model asks for one. A changed `SKILL.md`
 * is seen by a subagent defined after the change (a new `defineSubagent`), not by one already
 * called. A failed read is not kept: the next call reads again.
 * @module
 */
import { skillsOf } from "../agent/prompt-additions";
import type { SubagentDefinition } from "./subagent-definition";

/** A skill folder or a skill object, as `skills` lists them. */
type SkillEntry = NonNullable<SubagentDefinition["skills"]>[number];

/** What a subagent's calls share: its definition, with its skill folders read at most once. */
export class SubagentSkills {
  private loading: Promise<SubagentDefinition> | undefined;

  constructor(private readonly definition: SubagentDefinition) {}

  /**
   * The definition a call runs its child with: the one given when no skill is a folder, else a copy
   * whose `skills` are the folders' skills in their places (read by the first call, shared by the
   * ones after it).
   */
  forCall(): SubagentDefinition | Promise<SubagentDefinition> {
    const { skills } = this.definition;
    if (!Array.isArray(skills) || !skills.some((entry) => typeof entry === "string")) return this.definition;
    this.loading ??= this.load(skills).catch((error: unknown) => {
      this.loading = undefined; // a folder fixed meanwhile is read by the next call
      throw error;
    });
    return this.loading;
  }

  private async load(entries: readonly SkillEntry[]): Promise<SubagentDefinition> {
    return { ...this.definition, skills: await skillsOf(entries) };
  }
}
