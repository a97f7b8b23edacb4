/**
 * The read-only `skill` tool: with a skill's name, its instructions and the list of its files;
 * with a `file` too, that file's text (confined to the skill). Scripts are never run here — only
 * the bash tool runs them, when the agent has it.
 * @module
 */
import { defineTool } from "../tools/define-tool";
import { plainObjectSchema } from "../tools/plain-object-schema";
import type { Tool } from "../tools/tool";
import type { Skill } from "./skill";
import { SKILL_TOOL_NAME } from "./skill-catalog";

const input = plainObjectSchema<{ name: string; file?: string }>({
  name: { type: "string", description: "The skill's name, as the catalog lists it." },
  file: {
    type: "string",
    optional: true,
    description: "A file of the skill to read (a path its instructions list); omit to read the instructions.",
  },
});

/** The `skill` tool over `skills` (their names unique). */
export function createSkillTool(skills: readonly Skill[]): Tool<{ name: string; file?: string }> {
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  return defineTool({
    name: SKILL_TOOL_NAME,
    description:
      "Reads a skill from the available_skills catalog: its instructions and the list of its files, or one of its files. Read a skill's instructions before doing a task it covers.",
    inputSchema: input,
    readOnly: true,
    execute: async ({ name, file }) => {
      const skill = byName.get(name);
      if (!skill)
        return {
          content: `There is no skill named ${JSON.stringify(name)}. Available: ${[...byName.keys()].join(", ")}.`,
          isError: true,
        };
      if (file !== undefined) {
        try {
          return await skill.readFile(file);
        } catch (error) {
          return {
            content: `Cannot read ${JSON.stringify(file)} of the skill "${name}": ${(error as Error).message}`,
            isError: true,
          };
        }
      }
      return describeSkill(skill);
    },
  });
}

/** The instructions, then the files and where the skill lives. */
function describeSkill(skill: Skill): string {
  const parts = [`<skill name="${skill.name}">`, skill.instructions, "</skill>"];
  if (skill.files.length > 0) {
    parts.push(
      "",
      `Files of this skill (read one with { "name": "${skill.name}", "file": "<path>" }):`,
      ...skill.files.map((file) => `- ${file}`),
    );
  }
  if (skill.folder)
    parts.push(
      "",
      `The skill's folder is ${skill.folder}; its scripts run only through the bash tool, when you have it.`,
    );
  if (skill.allowedTools)
    parts.push("", `Tools pre-approved while using this skill: ${skill.allowedTools.join(", ")}.`);
  return parts.join("\n");
}
