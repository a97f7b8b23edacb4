/**
 * Re-records the example's cassettes against the bundled mock Messages API server, driven by the
 * rule-based model of rule-model.mjs: `node examples/evals/record.mjs [--trials N]` (default 3).
 * Needs the built package (npx tsup). The cassettes land in examples/evals/<eval name>/.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockAnthropicServer } from "agent-lattice/testing";
import { ruleModel } from "./rule-model.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const trials = process.argv.includes("--trials") ? process.argv[process.argv.indexOf("--trials") + 1] : "3";
const server = await startMockAnthropicServer({ handler: ruleModel() });
try {
  const cli = join(here, "../../dist/cli/main.js");
  // Asynchronous: the mock server answers from this process's event loop while the command runs.
  const child = spawn(
    process.execPath,
    [
      cli,
      "eval",
      here,
      "--record",
      "--trials",
      trials,
      "--out",
      join(here, "../../eval-results"),
      "--no-store",
    ],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        ANTHROPIC_BASE_URL: server.url,
        ANTHROPIC_API_KEY: "mock-offline-key",
        JUDGE_BASE_URL: server.url,
      },
    },
  );
  const [code] = await once(child, "exit");
  process.exitCode = code ?? 1;
} finally {
  await server.close();
}
