/**
 * The rules of the Agent Skills format for the frontmatter fields, checked once per skill.
 * @module
 */
import { SkillFormatError } from "./skill-format-error";

/** The longest skill name. */
export const MAX_SKILL_NAME_LENGTH = 64;
/** The longest skill description. */
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;
/** The longest `compatibility` field. */
export const MAX_SKILL_COMPATIBILITY_LENGTH = 500;

/** Lowercase letters and digits, in runs joined by single hyphens. */
const SKILL_NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The checked fields of a skill. */
export interface SkillFields {
  name: string;
  description: string;
  license?: string;
  allowedTools?: readonly string[];
  metadata?: Readonly<Record<string, string>>;
  compatibility?: string;
}

/**
 * Checks frontmatter-shaped fields (`allowed-tools` a space-separated string or a list of names)
 * and returns them typed; `folderName`, when given, must equal the name.
 * @throws {SkillFormatError} naming `where` and the rule
 */
export function checkSkillFields(
  raw: Record<string, unknown>,
  where: string,
  folderName?: string,
): SkillFields {
  const fail = (rule: string, detail: string) => new SkillFormatError(where, rule, detail);
  const { name, description } = raw;
  if (typeof name !== "string" || name.length === 0) throw fail("name", "`name` is required (a string).");
  if (name.length > MAX_SKILL_NAME_LENGTH)
    throw fail(
      "name",
      `\`name\` is ${name.length} characters; at most ${MAX_SKILL_NAME_LENGTH} are allowed.`,
    );
  if (!SKILL_NAME.test(name))
    throw fail(
      "name",
      `\`name\` ${JSON.stringify(name)} may hold only lowercase letters, digits and hyphens, not first or last, never two in a row.`,
    );
  if (folderName !== undefined && folderName !== name)
    throw fail(
      "name",
      `\`name\` ${JSON.stringify(name)} must match its folder's name ${JSON.stringify(folderName)}.`,
    );
  if (typeof description !== "string" || description.trim().length === 0)
    throw fail("description", "`description` is required (a non-empty string).");
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH)
    throw fail(
      "description",
      `\`description\` is ${description.length} characters; at most ${MAX_SKILL_DESCRIPTION_LENGTH} are allowed.`,
    );
  const fields: SkillFields = { name, description };
  const license = optionalString(raw.license, "license", fail);
  if (license !== undefined) fields.license = license;
  const compatibility = optionalString(raw.compatibility, "compatibility", fail);
  if (compatibility !== undefined) {
    if (compatibility.length > MAX_SKILL_COMPATIBILITY_LENGTH)
      throw fail("compatibility", `\`compatibility\` is over ${MAX_SKILL_COMPATIBILITY_LENGTH} characters.`);
    fields.compatibility = compatibility;
  }
  const allowedTools = toolList(raw["allowed-tools"], fail);
  if (allowedTools) fields.allowedTools = allowedTools;
  const metadata = stringMap(raw.metadata, fail);
  if (metadata) fields.metadata = metadata;
  return fields;
}

type Fail = (rule: string, detail: string) => SkillFormatError;

function optionalString(value: unknown, field: string, fail: Fail): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw fail(field, `\`${field}\` must be a string.`);
  return value;
}

/** `allowed-tools`: a space-separated string (the format's) or a list of names. */
function toolList(value: unknown, fail: Fail): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const names =
    typeof value === "string"
      ? value.split(/\s+/)
      : Array.isArray(value) && value.every((entry) => typeof entry === "string")
        ? (value as string[])
        : undefined;
  if (!names) throw fail("allowed-tools", "`allowed-tools` must be a space-separated string of tool names.");
  const kept = names.map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  return kept.length > 0 ? kept : undefined;
}

/** `metadata`: a map of string keys to string values. */
function stringMap(value: unknown, fail: Fail): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value))
    throw fail("metadata", "`metadata` must be a map of string keys to string values.");
  const map: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== "string")
      throw fail("metadata", `\`metadata.${key}\` must be a string (quote numbers and dates).`);
    map[key] = entry;
  }
  return map;
}
