import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // The root entry loads its optional parts by the package's own subpath at run time (see
    // src/shared/run-time-import.ts); tests run the sources, so the subpath means the source here.
    alias: {
      "agent-lattice/mcp": fileURLToPath(new URL("./src/integrations/mcp/index.ts", import.meta.url)),
      "agent-lattice/skills/files": fileURLToPath(new URL("./src/skills/files.ts", import.meta.url)),
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    setupFiles: ["test/support/ignore-meta.ts"],
    // Links better-sqlite3 from test/extras (installed by `npm run setup:tests`) into node_modules.
    globalSetup: ["test/support/link-test-extras.ts"],
  },
});
