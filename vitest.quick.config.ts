import { configDefaults, defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config";

/**
 * `npm run test:quick`: every test that needs no PostgreSQL, Redis, bubblewrap or tmux — for a
 * contributor without them. CI runs the whole suite (`vitest.config.ts`); a file added here must
 * need one of those four (say which beside it), so the quick run stays all of the rest.
 */
export const NEEDS_SERVICES = [
  // PostgreSQL and/or Redis
  "test/integrations/stores/postgres.test.ts",
  "test/integrations/stores/redis.test.ts",
  "test/integrations/stores/redis-connection-errors.test.ts",
  "test/integrations/stores/process-faults.test.ts",
  "test/integrations/stores/resume-across-processes.test.ts",
  "test/integrations/stores/thinking-round-trip.test.ts",
  "test/integrations/stores/approvals-across-processes.test.ts",
  "test/subagents/child-pause-stores.test.ts",
  "test/queue/**", // BullMQ on Redis
  "test/examples/fleet.test.ts",
  // bubblewrap
  "test/workspace-tools/bash-sandbox.test.ts",
  "test/cli/bash-sandbox.test.ts",
  // tmux (a real pseudo-terminal)
  "test/cli/interactive.test.ts",
  "test/cli/approvals-terminal.test.ts",
  "test/cli/terminal-*.test.ts",
];

export default mergeConfig(
  base,
  defineConfig({ test: { exclude: [...configDefaults.exclude, ...NEEDS_SERVICES] } }),
);
