/**
 * The skill catalog the system prompt carries: each skill's name and description, in the order
 * given — built once per agent, so it is byte-identical on every request (the cached prefix holds).
 * @module
 */
import type { Skill } from "./skill";

/** The name of the tool that discloses a skill. */
export const SKILL_TOOL_NAME = "skill";

/** The catalog block appended to the system prompt; empty for no skill. */
export function skillCatalog(skills: readonly Skill[]): string {
  if (skills.length === 0) return "";
  const lines = skills.map((skill) => `- ${skill.name}: ${oneLine(skill.description)}`);
  return [
    "<available_skills>",
    `Skills hold instructions (and files) for specialised tasks. When a task matches a skill's description, first call the \`${SKILL_TOOL_NAME}\` tool with its name to read its instructions, then follow them. Read a file a skill lists with the same tool ({ "name", "file" }).`,
    ...lines,
    "</available_skills>",
  ].join("\n");
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
