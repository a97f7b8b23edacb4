import { defineConfig } from "tsup";

/** One entry per public subpath (see package.json "exports"), plus the CLI. */
export default defineConfig({
  entry: {
    index: "src/index.ts",
    testing: "src/testing/index.ts",
    "stores/sqlite": "src/integrations/stores/sqlite.ts",
    "stores/postgres": "src/integrations/stores/postgres.ts",
    "stores/redis": "src/integrations/stores/redis.ts",
    mcp: "src/integrations/mcp/index.ts",
    tools: "src/workspace-tools/index.ts",
    queue: "src/queue/index.ts",
    cli: "src/cli/main.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  splitting: true,
  sourcemap: true,
  clean: true,
  target: "node20",
  platform: "node",
  treeshake: true,
});
