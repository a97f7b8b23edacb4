import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The package as npm would publish it: `npm pack` of the built tree (`npm test` builds first).
const root = resolve(__dirname, "../..");
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const subpaths = Object.keys(packageJson.exports).filter((subpath) => subpath !== "./package.json");

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string; size: number }>;
}

/** attw's JSON report: the problems found, and how each entry point resolves under each mode. */
interface AttwReport {
  problems: Record<string, unknown[]> | unknown[];
  analysis: {
    entrypoints: Record<
      string,
      { resolutions: Record<string, { resolution?: { fileName: string; isTypeScript: boolean } }> }
    >;
  };
}

let folder: string;
let packed: PackResult;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "agent-lattice-pack-"));
  const output = execFileSync("npm", ["pack", "--json", "--pack-destination", folder], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  packed = JSON.parse(output)[0];
}, 120_000);

afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** attw, from test/extras (`npm run setup:tests`), or a root install that still has it. */
function attwCommand(): string {
  const candidates = ["test/extras/node_modules/.bin/attw", "node_modules/.bin/attw"].map((path) =>
    join(root, path),
  );
  return candidates.find((path) => existsSync(path)) ?? candidates[0]!;
}

describe("the published tarball", () => {
  it("has types for every subpath in every resolution mode, legacy node10 included (arethetypeswrong)", () => {
    const tarball = join(folder, packed.filename);
    let report: AttwReport;
    try {
      report = JSON.parse(
        execFileSync(attwCommand(), [tarball, "--format", "json"], {
          encoding: "utf8",
        }),
      );
    } catch (error) {
      // attw exits 1 when it finds problems; its report is still on stdout.
      const stdout = (error as { stdout?: string }).stdout ?? "";
      throw new Error(`arethetypeswrong found problems:\n${stdout.slice(0, 4000)}`);
    }
    const problems = Array.isArray(report.problems) ? report.problems : Object.values(report.problems).flat();
    expect(problems).toEqual([]);
    for (const subpath of subpaths) {
      const entry = report.analysis.entrypoints[subpath];
      expect(entry, subpath).toBeDefined();
      for (const mode of ["node10", "node16-cjs", "node16-esm", "bundler"]) {
        const resolution = entry!.resolutions[mode]?.resolution;
        expect(resolution?.isTypeScript, `${subpath} under ${mode}`).toBe(true);
        expect(resolution?.fileName, `${subpath} under ${mode}`).toMatch(/\.d\.c?ts$/);
      }
    }
  }, 120_000);

  it("ships what users need: the entries, their types and chunks, the command; no maps, no CJS command, no command types", () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(expect.arrayContaining(["package.json", "README.md", "CHANGELOG.md"]));
    expect(paths).toContain(packageJson.bin["agent-lattice"].replace(/^\.\//, ""));
    for (const subpath of subpaths) {
      const entry = packageJson.exports[subpath];
      for (const file of [
        entry.import.default,
        entry.import.types,
        entry.require.default,
        entry.require.types,
      ])
        expect(paths, `${subpath}: ${file}`).toContain(file.replace(/^\.\//, ""));
    }
    expect(paths.filter((path) => path.endsWith(".map"))).toEqual([]);
    expect(paths.filter((path) => /^dist\/cli[./]/.test(path) && !path.startsWith("dist/cli/"))).toEqual([]);
    expect(paths.filter((path) => path.startsWith("dist/cli/") && !path.endsWith(".js"))).toEqual([]);
    expect(paths.filter((path) => !/^(dist|docs\/(en|zh))\//.test(path)).sort()).toEqual(
      ["CHANGELOG.md", "README.md", "package.json"].sort(),
    );
    // 920 KB packed (3.6 MB unpacked) with source maps and the CJS command; 626 KB with this round's
    // queue, subagents, approvals and model settings, still without maps or the CJS command; 709 KB
    // with pauses inside subagents and the docs of this round (the largest single file is the
    // command's own bundle of the core, ~290 KB unpacked). The bound catches a map or a second
    // command coming back, not a few pages of code. The studio (agent-lattice/studio, its page and
    // the command's studio chunk) adds 49 KB packed (166 KB unpacked), measured: bench/README.md.
    // With the whole third round merged (web entry, context and memory tool, skills and tool
    // search, checkpoints, the tutorial and recipes pages in two languages): 971 KB packed, 3.4 MB
    // unpacked, 214 files; a source map or a second command would add several hundred KB more.
    // With the round's second half (streaming tool execution, server compaction, run claims,
    // windowed reads, fleet redaction, their docs in two languages): 1,058 KB packed. The fourth
    // round (agent-lattice/evals and the eval command, guardrails, durable tools, MCP OAuth and
    // resources, the mock-server command, their docs in two languages and the studio's eval view):
    // 1,279 KB packed, measured. The fifth round (handoffs, durable MCP questions and the server
    // app's OAuth pause, the studio's answers, two more tool-ranking rounds, their docs in two
    // languages): 1,419 KB packed, 4.96 MB unpacked, 243 files (dist/cli 967 KB, docs 945 KB
    // unpacked), measured with `npm pack --dry-run --json`; still no map and one command.
    expect(packed.size).toBeLessThan(1_600_000);
  });

  it("the command is ESM, starts with a shebang and loads no optional peer at start", () => {
    const command = readFileSync(join(root, packageJson.bin["agent-lattice"]), "utf8");
    expect(command.startsWith("#!/usr/bin/env node\n")).toBe(true);
    const staticImports = [...command.matchAll(/^import\s[^;]*?from\s*["']([^"']+)["']/gm)].map(
      (match) => match[1],
    );
    for (const peer of Object.keys(packageJson.peerDependencies))
      expect(
        staticImports.filter((specifier) => specifier?.startsWith(peer)),
        peer,
      ).toEqual([]);
    expect(staticImports).not.toContain("ajv");
  });
});

describe("the package's scripts and version", () => {
  it("npm test's build step is silent (the test output starts with the tests)", () => {
    // setup:tests, then a build only when dist/ is stale, tsup run with --silent (one line says why it builds).
    expect(packageJson.scripts.pretest).toBe(
      "node scripts/setup-tests.mjs && node scripts/build-if-stale.mjs",
    );
    const build = readFileSync(join(root, "scripts/build-if-stale.mjs"), "utf8");
    expect(build).toMatch(/spawnSync\(tsup, \["--silent"\]/);
  });

  it("the version is at least every version the docs cite, and CHANGELOG.md has an entry for it", () => {
    const docs = execFileSync("git", ["ls-files", "README.md", "docs"], { cwd: root, encoding: "utf8" })
      .split("\n")
      .filter((file) => file.endsWith(".md"))
      .map((file) => readFileSync(join(root, file), "utf8"))
      .join("\n");
    const changelog = readFileSync(join(root, "CHANGELOG.md"), "utf8");
    const cited = [...`${docs}\n${changelog}`.matchAll(/(?:Requires|requires|需要) (\d+\.\d+\.\d+)/g)].map(
      (match) => match[1]!,
    );
    const released = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map((match) => match[1]!);
    for (const version of [...cited, ...released])
      expect(
        compareVersions(packageJson.version, version),
        `${packageJson.version} ≥ ${version}`,
      ).toBeGreaterThanOrEqual(0);
    expect(released[0]).toBe(packageJson.version);
    // The docs' "Requires 0.x" notes go up to 0.20.0 (submit_output).
    expect(compareVersions(packageJson.version, "0.20.0")).toBeGreaterThanOrEqual(0);
    expect(released).toEqual(expect.arrayContaining(["0.10.0", "0.13.0", "0.16.0", "0.20.0"]));
  });
});

function compareVersions(a: string, b: string): number {
  const [x, y] = [a, b].map((version) => version.split(".").map(Number));
  for (let index = 0; index < 3; index++) {
    const difference = (x![index] ?? 0) - (y![index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
