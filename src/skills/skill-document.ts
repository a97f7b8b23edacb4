/**
 * Reading a `SKILL.md`: YAML frontmatter between `---` lines, parsed with the `yaml` package
 * (loaded only here, when a skill folder is read), then the Markdown body: the instructions.
 * @module
 */
import { SkillFormatError } from "./skill-format-error";
import { checkSkillFields, type SkillFields } from "./skill-rules";

/** A parsed and checked `SKILL.md`. */
export interface SkillDocument {
  fields: SkillFields;
  /** The body after the frontmatter, trimmed. */
  instructions: string;
}

const FRONTMATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Parses `text`, the content of the `SKILL.md` at `file`, and checks its fields (the name must
 * equal `folderName`).
 * @throws {SkillFormatError} naming `file` and the rule
 */
export async function parseSkillDocument(
  text: string,
  file: string,
  folderName: string,
): Promise<SkillDocument> {
  const match = FRONTMATTER.exec(text);
  if (!match)
    throw new SkillFormatError(
      file,
      "frontmatter",
      "SKILL.md must start with YAML frontmatter between two `---` lines (name and description).",
    );
  const { parse } = await import("yaml");
  let raw: unknown;
  try {
    raw = parse(match[1] ?? "", { prettyErrors: true, uniqueKeys: true });
  } catch (error) {
    throw new SkillFormatError(
      file,
      "frontmatter",
      `its YAML frontmatter does not parse: ${(error as Error).message}`,
    );
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new SkillFormatError(
      file,
      "frontmatter",
      "its frontmatter must be a YAML map (name: …, description: …).",
    );
  const fields = checkSkillFields(raw as Record<string, unknown>, file, folderName);
  return { fields, instructions: text.slice(match[0].length).trim() };
}
