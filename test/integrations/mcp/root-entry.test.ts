import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SOURCE_ROOT = fileURLToPath(new URL("../../../src/", import.meta.url));

/** Every source file the root entry loads at import time (static imports and re-exports, not `import()`). */
function staticImportGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (graph.has(file)) continue;
    const source = readFileSync(file, "utf8");
    const specifiers = [
      ...source.matchAll(/^\s*(?:import|export)\s+(?!type\b)[^;]*?\sfrom\s+["']([^"']+)["']/gm),
    ]
      .concat([...source.matchAll(/^\s*import\s+["']([^"']+)["']/gm)])
      .map((match) => match[1]!);
    graph.set(file, specifiers);
    for (const specifier of specifiers) {
      if (specifier.startsWith(".")) pending.push(resolveSource(dirname(file), specifier));
    }
  }
  return graph;
}

function resolveSource(directory: string, specifier: string): string {
  const base = resolve(directory, specifier);
  for (const candidate of [`${base}.ts`, join(base, "index.ts")]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // try the next candidate
    }
  }
  throw new Error(`Cannot resolve ${specifier} from ${directory}`);
}

describe("the root entry and the MCP peer dependency", () => {
  it("never loads @modelcontextprotocol/sdk at import time", () => {
    const graph = staticImportGraph(join(SOURCE_ROOT, "index.ts"));
    const offenders = [...graph].filter(([, specifiers]) =>
      specifiers.some((specifier) => specifier.startsWith("@modelcontextprotocol/")),
    );
    expect(offenders.map(([file]) => file)).toEqual([]);
  });

  it("lets the connector be imported without loading the SDK (it is loaded on first connect)", () => {
    const graph = staticImportGraph(join(SOURCE_ROOT, "integrations/mcp/connect.ts"));
    const sdkImports = [...graph.values()]
      .flat()
      .filter((specifier) => specifier.startsWith("@modelcontextprotocol/"));
    expect(sdkImports).toEqual([]);
  });
});
