/**
 * One agent's own state in a conversation whose agents hand off to each other
 * (`AgentOptions.handoffs`): its tools, the model of its next turn and its system-prompt sections.
 * History is the conversation's, one for every agent.
 * @module
 */
import type { ToolRegistry } from "../../tools/tool-registry";
import type { SkillGrants } from "./skill-grants";

/** An agent of the conversation: the root, or a handoff's specialist. */
export class AgentSeat {
  private sections: readonly string[] = [];
  private system: { base: string | undefined; value: string | undefined } | undefined;
  /** The tools its skills pre-approve once used (`allowed-tools`), set by the agent. */
  grants: SkillGrants | undefined;

  constructor(
    /** Its name (`AgentOptions.name`, or the handoff's). */
    readonly name: string,
    /** The model of its next turn (`setModel()` changes the active agent's). */
    public model: string,
    /** The tools it offers the model. */
    readonly tools: ToolRegistry,
  ) {}

  /**
   * Blocks appended to its system prompt (project instructions, the skill catalog), set before the
   * first query: the same text on every request, so the cached prefix holds.
   */
  setSystemSections(sections: readonly string[]): void {
    this.sections = sections.filter((section) => section.length > 0);
    this.system = undefined;
  }

  /** `base` (its system prompt) with the sections appended, one string reused on every turn. */
  systemPrompt(base: string | undefined): string | undefined {
    if (this.sections.length === 0) return base;
    if (this.system?.base !== base || this.system === undefined) {
      const value = [base, ...this.sections]
        .filter((part) => part !== undefined && part.length > 0)
        .join("\n\n");
      this.system = { base, value };
    }
    return this.system.value;
  }
}
