import { defineConfig, type Options } from "tsup";

/**
 * Two builds, run in parallel by tsup:
 * - the library: one entry per public subpath (see package.json "exports"), ESM and CJS with
 *   declarations for both;
 * - the `agent-lattice` command (package.json "bin"): ESM only, no declarations (nothing imports
 *   it), in dist/cli/ of its own — its optional parts (telemetry, MCP) stay lazily loaded chunks
 *   there, and each build cleans only its own folder, so the two never delete each other's files.
 * No source maps: the output is not minified, so stack traces already point at readable code, and
 * maps would roughly double the package (they embed every source file).
 */
const CLI_FOLDER = "cli";

/**
 * `AGENT_LATTICE_BUILD=cli` builds the command alone (scripts/build-if-stale.mjs --cli: what
 * `npm run demo` and a developer's `npm install` in the clone need, in seconds).
 */
const cliOnly = process.env.AGENT_LATTICE_BUILD === "cli";

const library = {
  entry: {
    index: "src/index.ts",
    testing: "src/testing/index.ts",
    "stores/sqlite": "src/integrations/stores/sqlite.ts",
    "stores/postgres": "src/integrations/stores/postgres.ts",
    "stores/redis": "src/integrations/stores/redis.ts",
    mcp: "src/integrations/mcp/index.ts",
    tools: "src/workspace-tools/index.ts",
    queue: "src/queue/index.ts",
    ui: "src/ui/index.ts",
    "skills/files": "src/skills/files.ts",
    studio: "src/studio/index.ts",
    evals: "src/evals/index.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  splitting: true,
  sourcemap: false,
  // Everything from an earlier build goes, but the command, which the other build writes.
  clean: [`!${CLI_FOLDER}/**`],
  target: "node20",
  platform: "node",
  treeshake: true,
  // The studio's page (browser code, not part of the library's modules): dist/studio-page.
  onSuccess: "node scripts/build-studio-page.mjs",
} satisfies Options;

const command = {
  entry: { main: "src/cli/main.ts" },
  outDir: `dist/${CLI_FOLDER}`,
  format: ["esm"],
  dts: false,
  splitting: true,
  sourcemap: false,
  clean: true,
  target: "node20",
  platform: "node",
  treeshake: true,
} satisfies Options;

export default defineConfig(cliOnly ? [command] : [library, command]);
