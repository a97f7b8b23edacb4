/**
 * Tools pre-approved by the skills in use (`allowed-tools` of a `SKILL.md`): a skill is in use
 * once the model called the skill tool with its name (read back from history, so a resumed
 * conversation keeps it). Its tools then pass the permission rules as `allowedTools` entries do.
 * @module
 */
import type { ModelMessage } from "../../messages/types";

/** The tool names or patterns each skill pre-approves, and the tool that discloses a skill. */
export class SkillGrants {
  private scanned: readonly ModelMessage[] | undefined;
  private scannedCount = 0;
  private readonly used = new Set<string>();
  private granted: string[] = [];

  constructor(
    private readonly toolName: string,
    private readonly bySkill: ReadonlyMap<string, readonly string[]>,
  ) {}

  /** The patterns granted by the skills used in `messages`. */
  grantedIn(messages: readonly ModelMessage[]): readonly string[] {
    const appended =
      this.scanned !== undefined && messages[0] === this.scanned[0] && messages.length >= this.scannedCount;
    if (!appended) {
      this.scannedCount = 0;
      this.used.clear();
      this.granted = [];
    }
    for (let index = this.scannedCount; index < messages.length; index++) {
      const message = messages[index]!;
      if (message.role !== "assistant") continue;
      for (const block of message.content) {
        if (block.type !== "tool_use" || block.name !== this.toolName) continue;
        const name = (block.input as { name?: unknown } | null)?.name;
        if (typeof name !== "string" || this.used.has(name)) continue;
        const tools = this.bySkill.get(name);
        if (!tools) continue;
        this.used.add(name);
        this.granted = [...this.granted, ...tools];
      }
    }
    this.scanned = messages;
    this.scannedCount = messages.length;
    return this.granted;
  }
}
