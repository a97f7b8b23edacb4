/**
 * The {@link Skill} type and {@link defineSkill}: an Agent Skill — a name, a description the model
 * reads in the catalog, instructions it reads when it decides to use the skill, and files it may
 * read on demand (progressive disclosure).
 * @module
 */
import { InvalidOptionError } from "../errors";
import { SkillFormatError } from "./skill-format-error";
import { checkSkillFields, type SkillFields } from "./skill-rules";

/**
 * An Agent Skill, ready for `AgentOptions.skills`. Build one with {@link defineSkill}, or load
 * folders with {@link loadSkills}.
 */
export interface Skill {
  /** Lowercase letters, digits and hyphens, at most 64 characters; a loaded skill's folder name. */
  readonly name: string;
  /** What the skill does and when to use it (at most 1,024 characters): the catalog shows it. */
  readonly description: string;
  /** The body of `SKILL.md` (or the instructions given): returned by the `skill` tool. */
  readonly instructions: string;
  /** The `license` field of the frontmatter, when set. */
  readonly license?: string;
  /**
   * The `allowed-tools` field (space-separated in the frontmatter): tools pre-approved while the
   * skill is in use — their calls skip the asking steps (`needsApproval`, `permissionMode`'s asks,
   * `canUseTool`) once the model has loaded the skill. `disallowedTools` and hooks still apply.
   */
  readonly allowedTools?: readonly string[];
  /** The `metadata` map of the frontmatter (string keys to string values), when set. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** The `compatibility` field of the frontmatter, when set. */
  readonly compatibility?: string;
  /** The folder a loaded skill came from (absolute); absent for {@link defineSkill}. */
  readonly folder?: string;
  /** The skill's files besides `SKILL.md`, as paths relative to its folder with `/` separators, sorted. */
  readonly files: readonly string[];
  /**
   * Reads one of {@link files} as text. A loaded skill reads it from its folder, confined to it
   * (never outside, symbolic links included). Rejects for a path not in the skill.
   */
  readFile(path: string): Promise<string>;
}

/** A skill folder that was skipped while loading a folder of several skills. */
export interface SkillWarning {
  /** The skill folder (or its `SKILL.md`) at fault. */
  path: string;
  /** Why it was skipped (a {@link SkillFormatError}, or a read failure). */
  error: Error;
}

/** What {@link defineSkill} takes. */
export interface SkillDefinition {
  /** Lowercase letters, digits and single hyphens (not first or last), at most 64 characters. */
  name: string;
  /** What the skill does and when to use it: 1 to 1,024 characters. */
  description: string;
  /** The instructions the model reads once it uses the skill (Markdown). */
  instructions: string;
  /** Files the instructions refer to, by relative path (`references/api.md`), as text. */
  files?: Record<string, string>;
  /** Its license. */
  license?: string;
  /** Tools pre-approved while the skill is in use (see {@link Skill.allowedTools}). */
  allowedTools?: string[];
  /** Free-form string properties. */
  metadata?: Record<string, string>;
}

/**
 * Defines a skill in code. Its fields are checked by the rules of the Agent Skills format (the
 * name, the description's length …); a mistake throws at once.
 *
 * @throws {SkillFormatError} naming the rule broken
 * @example
 * const release = defineSkill({
 *   name: "release-notes",
 *   description: "Writes release notes from merged pull requests. Use when asked for a changelog.",
 *   instructions: "1. List the merged pull requests …",
 *   files: { "references/style.md": "# Style\nShort sentences." },
 * });
 */
export function defineSkill(definition: SkillDefinition): Skill {
  if (typeof definition !== "object" || definition === null)
    throw new InvalidOptionError("defineSkill takes { name, description, instructions, files? }.");
  const where = `skill ${JSON.stringify(String(definition.name))}`;
  const fields: SkillFields = checkSkillFields(
    {
      name: definition.name,
      description: definition.description,
      license: definition.license,
      "allowed-tools": definition.allowedTools,
      metadata: definition.metadata,
    },
    where,
  );
  if (typeof definition.instructions !== "string")
    throw new SkillFormatError(where, "instructions", "`instructions` must be a string.");
  const files = new Map<string, string>();
  for (const [path, text] of Object.entries(definition.files ?? {})) {
    const clean = cleanFilePath(path);
    if (!clean || typeof text !== "string")
      throw new SkillFormatError(
        where,
        "files",
        `file ${JSON.stringify(path)} must be a relative path inside the skill (no "..", not absolute) with text content.`,
      );
    files.set(clean, text);
  }
  return {
    ...fields,
    instructions: definition.instructions,
    files: [...files.keys()].sort(),
    readFile: async (path) => {
      const text = files.get(cleanFilePath(path) ?? "");
      if (text === undefined)
        throw new Error(`The skill "${fields.name}" has no file ${JSON.stringify(path)}.`);
      return text;
    },
  };
}

/** `a/./b` → `a/b`; `undefined` for an absolute path, one that climbs out, or an empty one. */
export function cleanFilePath(path: string): string | undefined {
  if (typeof path !== "string" || path.includes("\0")) return undefined;
  const parts: string[] = [];
  for (const part of path.replaceAll("\\", "/").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") return undefined;
    parts.push(part);
  }
  if (path.startsWith("/") || parts.length === 0) return undefined;
  return parts.join("/");
}
