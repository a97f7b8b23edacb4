/**
 * The built root entry reads no file system statically: `loadSkills` and project instructions
 * import their `fs` code only when called, so a worker or edge bundle of the root entry that never
 * loads skills from disk carries none. Reads `dist/` (the suite builds first: `npm test`).
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
  it("imports no fs, path or yaml statically; the skill folder and instruction readers are lazy chunks", () => {
    const graph = staticGraph(path.join(DIST, "index.js"));
    for (const specifier of graph.packages) expect(specifier).not.toMatch(/^(node:)?(fs|path)(\/|$)|^yaml$/);
    const names = [...graph.files].map((file) => path.basename(file));
    expect(names.some((name) => name.startsWith("skill-folder"))).toBe(false);
    expect([...graph.dynamic].some((name) => name.startsWith("skill-folder"))).toBe(true);
    expect([...graph.dynamic].some((name) => name.startsWith("instruction-files"))).toBe(true);
  });
});
