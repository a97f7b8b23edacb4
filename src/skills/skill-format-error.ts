/**
 * {@link SkillFormatError}: a skill that breaks a rule of the Agent Skills format.
 * @module
 */
import { InvalidOptionError } from "../errors";

/**
 * A skill breaks a rule of the format: `where` names the skill (its `SKILL.md` path for a loaded
 * one), `rule` the field or rule (`name`, `description`, `frontmatter` …).
 */
export class SkillFormatError extends InvalidOptionError {
  constructor(
    /** The file or skill at fault. */
    readonly where: string,
    /** The field or rule broken. */
    readonly rule: string,
    detail: string,
  ) {
    super(`Invalid skill (${where}): ${detail}`);
  }
}
