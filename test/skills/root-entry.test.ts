/**
 * The built root entry reads no file system statically: `loadSkills` and project instructions load
 * their `fs` code (`agent-lattice/skills/files`) at run time, out of a bundler's sight, so a worker
 * or edge bundle of the root entry that never loads skills from disk carries none (a literal
 * `import()` would be followed and its `fs` imports hoisted into a one-file bundle). Reads `dist/`
 * (the suite builds first: `npm test`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DIST = path.resolve(__dirname, "../../dist");

/** Every file reached by static imports from `entry`, and the packages they import. */
function staticGraph(entry: string): { files: Set<string>; packages: Set<string>; dynamic: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const dynamic = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/^(?:import|export)[^\n;]*?["']([^"']+)["']/gm)) {
      const specifier = match[1]!;
      if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier));
      else packages.add(specifier);
    }
    for (const match of text.matchAll(/import\(["']([^"']+)["']\)/g)) dynamic.add(path.basename(match[1]!));
  };
  visit(entry);
  return { files, packages, dynamic };
}

describe("the root entry and the file system", () => {
  it("imports no fs, path or yaml statically; the skill folder and instruction readers load at run time", () => {
    const graph = staticGraph(path.join(DIST, "index.js"));
    for (const specifier of graph.packages) expect(specifier).not.toMatch(/^(node:)?(fs|path)(\/|$)|^yaml$/);
    const readers = (name: string) => /^(skill-folder|instruction-files|files)\b/.test(name);
    expect([...graph.files].map((file) => path.basename(file)).some(readers)).toBe(false);
    expect([...graph.dynamic].some(readers)).toBe(false);
    const text = [...graph.files].map((file) => readFileSync(file, "utf8")).join("\n");
    expect(text).toContain('"agent-lattice/skills/files"');
  });
});
