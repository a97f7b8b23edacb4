import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// These tests check the built package (`npm test` builds first), as a user who installed it sees it.
const root = resolve(__dirname, "../..");
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const optionalPeers = Object.keys(packageJson.peerDependenciesMeta ?? {}).filter(
  (name) => packageJson.peerDependenciesMeta[name].optional,
);
// The SDK is one of them: the built-in client speaks the Messages API over fetch.
// Ajv validates the command's --output-schema only: a dependency, but never loaded by the library.
const cliOnlyDependencies = ["ajv", "ajv-formats"];
const forbiddenFromRoot = [...optionalPeers, ...cliOnlyDependencies];

function runNode(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, encoding: "utf8" });
}

/** Bare specifiers statically imported by an ESM file and the local chunks it statically imports. */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  const bare = new Set<string>();
  if (seen.has(file)) return bare;
  seen.add(file);
  const source = readFileSync(file, "utf8");
  for (const match of source.matchAll(
    /^\s*(?:import|export)\s[^;]*?from\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']/gm,
  )) {
    const specifier = (match[1] ?? match[2])!;
    if (specifier.startsWith("."))
      for (const nested of staticImports(resolve(dirname(file), specifier), seen)) bare.add(nested);
    else bare.add(specifier);
  }
  return bare;
}

describe("the built package", () => {
  it("has an entry for every subpath of the contract, with types for import and require", () => {
    for (const subpath of [
      ".",
      "./testing",
      "./stores/sqlite",
      "./stores/postgres",
      "./stores/redis",
      "./mcp",
      "./tools",
      "./queue",
      "./ui",
      "./studio",
      "./evals",
    ]) {
      const entry = packageJson.exports[subpath];
      expect(entry, subpath).toBeDefined();
      for (const file of [
        entry.import.default,
        entry.import.types,
        entry.require.default,
        entry.require.types,
      ]) {
        expect(existsSync(join(root, file)), `${subpath}: ${file}`).toBe(true);
      }
    }
    expect(existsSync(join(root, packageJson.bin["agent-lattice"]))).toBe(true);
  });

  it("can be imported (ESM) and required (CJS) by name, every subpath", () => {
    const subpaths = [
      "agent-lattice",
      "agent-lattice/testing",
      "agent-lattice/stores/sqlite",
      "agent-lattice/stores/postgres",
      "agent-lattice/stores/redis",
      "agent-lattice/mcp",
      "agent-lattice/tools",
      "agent-lattice/queue",
      "agent-lattice/ui",
      "agent-lattice/studio",
      "agent-lattice/evals",
    ];
    const esm = runNode([
      "--input-type=module",
      "-e",
      `const out = {}; for (const s of ${JSON.stringify(subpaths)}) out[s] = Object.keys(await import(s)).length; console.log(JSON.stringify(out));`,
    ]);
    const cjs = runNode([
      "-e",
      `const out = {}; for (const s of ${JSON.stringify(subpaths)}) out[s] = Object.keys(require(s)).length; console.log(JSON.stringify(out));`,
    ]);
    const esmCounts = JSON.parse(esm);
    const cjsCounts = JSON.parse(cjs);
    for (const subpath of subpaths) {
      expect(esmCounts[subpath], subpath).toBeGreaterThan(0);
      expect(cjsCounts[subpath], subpath).toBe(esmCounts[subpath]);
    }
    const names = JSON.parse(
      runNode(["-e", "console.log(JSON.stringify(Object.keys(require('agent-lattice'))))"]),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        "createAgent",
        "defineTool",
        "createJsonlHistoryStore",
        "createAnthropicClient",
        "SUBMIT_OUTPUT_TOOL_NAME",
      ]),
    );
  });

  it("declares the command's own dependencies as dependencies (the command runs where the package is installed)", () => {
    for (const name of cliOnlyDependencies) expect(packageJson.dependencies[name], name).toBeDefined();
  });

  it("does not load any optional peer dependency, nor the command's Ajv, from the root entry (CJS)", () => {
    const loaded: string[] = JSON.parse(
      runNode(["-e", "require('agent-lattice'); console.log(JSON.stringify(Object.keys(require.cache)))"]),
    );
    for (const peer of forbiddenFromRoot) {
      expect(
        loaded.filter((path) => path.includes(`/node_modules/${peer}/`)),
        peer,
      ).toEqual([]);
    }
  });

  it("does not statically import any optional peer dependency, nor Ajv, from the root entry (ESM)", () => {
    const imported = staticImports(join(root, packageJson.exports["."].import.default));
    for (const specifier of imported) {
      for (const peer of forbiddenFromRoot)
        expect(specifier === peer || specifier.startsWith(`${peer}/`), specifier).toBe(false);
    }
    expect(forbiddenFromRoot).toContain("@anthropic-ai/sdk");
  });

  it("imports no Node built-in from the root entry at import (ESM): fs, crypto … load with the feature using them", () => {
    const builtins = [...staticImports(join(root, packageJson.exports["."].import.default))].filter(
      (specifier) => isBuiltin(specifier),
    );
    expect(builtins).toEqual([]);
  });

  it("shares one error class across ESM and CJS copies (instanceof works across builds)", () => {
    const out = runNode([
      "--input-type=module",
      "-e",
      `import { createRequire } from "node:module"; const require = createRequire(process.cwd() + "/x.js");
       const esm = await import("agent-lattice"); const cjs = require("agent-lattice");
       console.log(JSON.stringify([new cjs.ConcurrentQueryError() instanceof esm.ConcurrentQueryError, new esm.TimeoutError(5) instanceof cjs.TimeoutError, new esm.TimeoutError(5) instanceof cjs.ConcurrentQueryError]));`,
    ]);
    expect(JSON.parse(out)).toEqual([true, true, false]);
  });
});
