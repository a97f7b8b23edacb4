import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSkills, SkillFormatError, type SkillWarning } from "../../src/index";
import { temporaryFolder } from "../support/temporary-folders";

const FIXTURES = path.resolve(__dirname, "../fixtures/skills");

async function loadAll(folder = FIXTURES): Promise<{ names: string[]; warnings: SkillWarning[] }> {
  const warnings: SkillWarning[] = [];
  const skills = await loadSkills(folder, { onWarning: (warning) => warnings.push(warning) });
  return { names: skills.map((skill) => skill.name), warnings };
}

describe("loadSkills", () => {
  it("loads the good skills of a folder, sorted, and warns about each bad one", async () => {
    const { names, warnings } = await loadAll();
    expect(names).toEqual(["pdf-forms", "release-notes", "sql-review"]);
    const reported = warnings.map((warning) => [
      path.basename(warning.path),
      (warning.error as SkillFormatError).rule,
    ]);
    expect(reported).toEqual([
      ["Bad_Name", "name"],
      ["long-description", "description"],
      ["mismatched-folder", "name"],
      ["no-frontmatter", "frontmatter"],
    ]);
    for (const warning of warnings)
      expect(warning.error.message).toContain(path.join(warning.path, "SKILL.md"));
  });

  it("reads the frontmatter with YAML (folded text, quoted strings, maps) and the body", async () => {
    const skills = await loadSkills(FIXTURES, { onWarning: () => {} });
    const [pdf, notes, sql] = skills;
    expect(pdf).toMatchObject({
      license: "Apache-2.0",
      allowedTools: ["read_file", "bash"],
      metadata: { author: "docs-team", version: "1.2" },
      folder: path.join(FIXTURES, "pdf-forms"),
      files: ["references/fields.md", "scripts/fill_form.py"],
    });
    expect(pdf!.instructions.startsWith("# Filling PDF forms")).toBe(true);
    expect(notes!.description).toBe(
      "Writes release notes from a list of merged changes, grouped by kind (features, fixes, breaking changes). Use when asked for release notes or a changelog entry.\n",
    );
    expect(sql).toMatchObject({ compatibility: "Needs PostgreSQL 14 or newer." });
    expect(await notes!.readFile("assets/template.md")).toContain("{{version}}");
  });

  it("rejects one bad skill folder with an error naming its SKILL.md and the rule", async () => {
    const folder = path.join(FIXTURES, "mismatched-folder");
    const failure = await loadSkills(folder).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SkillFormatError);
    expect((failure as SkillFormatError).where).toBe(path.join(folder, "SKILL.md"));
    expect((failure as Error).message).toMatch(/must match its folder's name "mismatched-folder"/);
    await expect(loadSkills(path.join(FIXTURES, "Bad_Name"))).rejects.toThrow(/Bad_Name.*lowercase letters/s);
    await expect(loadSkills(path.join(FIXTURES, "no-frontmatter"))).rejects.toThrow(/YAML frontmatter/);
  });

  it("rejects a folder that does not exist, and reports YAML syntax errors", async () => {
    await expect(loadSkills(path.join(FIXTURES, "nowhere"))).rejects.toThrow(/does not exist/);
    const root = temporaryFolder("skills-yaml-");
    mkdirSync(path.join(root, "broken"));
    writeFileSync(
      path.join(root, "broken", "SKILL.md"),
      "---\nname: broken\ndescription: [unclosed\n---\nBody\n",
    );
    await expect(loadSkills(path.join(root, "broken"))).rejects.toThrow(/frontmatter does not parse/);
    writeFileSync(
      path.join(root, "broken", "SKILL.md"),
      "---\nname: broken\nname: again\ndescription: d\n---\n",
    );
    await expect(loadSkills(path.join(root, "broken"))).rejects.toThrow(/frontmatter does not parse/);
  });

  it("never reads outside the skill folder: symbolic links and .. are refused", async () => {
    const root = temporaryFolder("skills-escape-");
    const outside = path.join(root, "outside.txt");
    writeFileSync(outside, "SECRET");
    const folder = path.join(root, "leaky");
    mkdirSync(path.join(folder, "references"), { recursive: true });
    writeFileSync(
      path.join(folder, "SKILL.md"),
      "---\nname: leaky\ndescription: d\n---\nRead the references.\n",
    );
    symlinkSync(outside, path.join(folder, "references", "link.md"));
    symlinkSync(root, path.join(folder, "up"));
    writeFileSync(path.join(folder, "references", "binary.bin"), Buffer.from([0, 1, 2, 0]));
    const [skill] = await loadSkills(folder);
    expect(skill!.files).toContain("references/link.md");
    await expect(skill!.readFile("references/link.md")).rejects.toThrow(/outside/);
    await expect(skill!.readFile("../outside.txt")).rejects.toThrow(/has no file/);
    await expect(skill!.readFile("up/outside.txt")).rejects.toThrow(/has no file|outside/);
    await expect(skill!.readFile("references/binary.bin")).rejects.toThrow(/binary/);
  });

  it("refuses a file whose folder was swapped for a link to outside after loading", async () => {
    const root = temporaryFolder("skills-swap-");
    const outside = path.join(root, "outside");
    mkdirSync(outside);
    writeFileSync(path.join(outside, "notes.md"), "SECRET");
    const folder = path.join(root, "swapped");
    mkdirSync(path.join(folder, "references"), { recursive: true });
    writeFileSync(path.join(folder, "SKILL.md"), "---\nname: swapped\ndescription: d\n---\nBody\n");
    writeFileSync(path.join(folder, "references", "notes.md"), "inside");
    const [skill] = await loadSkills(folder);
    expect(await skill!.readFile("references/notes.md")).toBe("inside");
    rmSync(path.join(folder, "references"), { recursive: true });
    symlinkSync(outside, path.join(folder, "references"));
    const failure = await skill!.readFile("references/notes.md").catch((error: Error) => error);
    expect(failure).toBeInstanceOf(Error);
    expect(String(failure)).not.toContain("SECRET");
    expect(String(failure)).toMatch(/outside/);
  });

  it("warns through process warnings by default", async () => {
    const seen: string[] = [];
    const listener = (warning: Error) => {
      if (warning.name === "SkillWarning") seen.push(warning.message);
    };
    process.on("warning", listener);
    try {
      await loadSkills(FIXTURES);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", listener);
    }
    expect(seen).toHaveLength(4);
    expect(seen[0]).toMatch(/Skipped the skill at .*Bad_Name/);
  });
});
