import { describe, expect, it } from "vitest";
import { defineSkill, InvalidOptionError, SkillFormatError } from "../../src/index";

const base = {
  name: "release-notes",
  description: "Writes release notes.",
  instructions: "Group the changes.",
};

describe("defineSkill", () => {
  it("keeps the fields, lists the files sorted and reads them", async () => {
    const skill = defineSkill({
      ...base,
      files: { "references/style.md": "# Style", "./assets/template.md": "## v1" },
      allowedTools: ["read_file"],
      metadata: { author: "docs" },
      license: "MIT",
    });
    expect(skill).toMatchObject({ name: "release-notes", license: "MIT", allowedTools: ["read_file"] });
    expect(skill.files).toEqual(["assets/template.md", "references/style.md"]);
    expect(await skill.readFile("references/style.md")).toBe("# Style");
    expect(await skill.readFile("./assets/template.md")).toBe("## v1");
    await expect(skill.readFile("missing.md")).rejects.toThrow(/has no file "missing.md"/);
  });

  it.each([
    ["", "name", /`name` is required/],
    ["Release", "name", /lowercase letters, digits and hyphens/],
    ["release_notes", "name", /lowercase letters, digits and hyphens/],
    ["-release", "name", /not first or last/],
    ["release--notes", "name", /never two in a row/],
    ["a".repeat(65), "name", /65 characters; at most 64/],
  ])("refuses the name %j (%s rule)", (name, rule, message) => {
    const attempt = () => defineSkill({ ...base, name });
    expect(attempt).toThrow(SkillFormatError);
    expect(attempt).toThrow(message);
    try {
      attempt();
    } catch (error) {
      expect((error as SkillFormatError).rule).toBe(rule);
      expect(error).toBeInstanceOf(InvalidOptionError);
    }
  });

  it("accepts a 64-character name and a 1,024-character description, not one more", () => {
    expect(defineSkill({ ...base, name: "a".repeat(64), description: "d".repeat(1024) }).name).toHaveLength(
      64,
    );
    expect(() => defineSkill({ ...base, description: "d".repeat(1025) })).toThrow(
      /1025 characters; at most 1024/,
    );
    expect(() => defineSkill({ ...base, description: "  " })).toThrow(/`description` is required/);
  });

  it("refuses files outside the skill and non-string metadata", () => {
    expect(() => defineSkill({ ...base, files: { "../secret": "x" } })).toThrow(
      /relative path inside the skill/,
    );
    expect(() => defineSkill({ ...base, files: { "/etc/passwd": "x" } })).toThrow(
      /relative path inside the skill/,
    );
    expect(() => defineSkill({ ...base, metadata: { version: 2 as unknown as string } })).toThrow(
      /`metadata.version` must be a string/,
    );
  });
});
