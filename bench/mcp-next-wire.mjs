// The next MCP wire (the 2026-07-28 revision: no `initialize`, `_meta` on every request, new
// headers, multi-round-trip input), measured with the pre-release conformance suite
// (tools/mcp-conformance: `conformance-next`, 0.2.0-alpha.12, run on the Node 22 beside it) in
// client mode at `--spec-version 2026-07-28`, every scenario one at a time:
//   ours      test/conformance/mcp-client.mjs through createAgent({ mcpServers }) (bundled from
//             the sources with esbuild, as the conformance test does), every scenario;
//   official  the SDK's own client (bench/lib/mcp-official-client.mjs, the v1 line we build on),
//             on the scenarios that need no authorization (it has no OAuth provider here).
// Prints passed/total per client and the failing scenarios.
//   npm run setup:tests && node bench/mcp-next-wire.mjs
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const tools = join(root, "tools/mcp-conformance/node_modules");
const runnerNode = join(tools, ".bin/node");
const runner = join(tools, "conformance-next/dist/index.js");
const client = join(root, ".tmp/mcp-conformance/client-next.mjs");

mkdirSync(dirname(client), { recursive: true });
await build({
  entryPoints: [join(root, "test/conformance/mcp-client.mjs")],
  outfile: client,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "error",
  alias: {
    "agent-lattice": join(root, "src/index.ts"),
    "agent-lattice/mcp": join(root, "src/integrations/mcp/index.ts"),
    "agent-lattice/testing": join(root, "src/testing/index.ts"),
  },
  external: ["@modelcontextprotocol/sdk", "@anthropic-ai/sdk", "zod", "ajv", "ajv-formats", "yaml"],
});

const listed = spawnSync(runnerNode, [runner, "list", "--client", "--spec-version", "2026-07-28"], { encoding: "utf8" });
const scenarios = listed.stdout.split("\n").flatMap((line) => /^ {2}- (\S+)/.exec(line)?.[1] ?? []);

function passes(command, scenario) {
  const args = [runner, "client", "--command", command, "--scenario", scenario, "--spec-version", "2026-07-28"];
  const run = spawnSync(runnerNode, args, { cwd: root, encoding: "utf8", timeout: 120_000 });
  return run.status === 0 && `${run.stdout}${run.stderr}`.includes("OVERALL: PASSED");
}

const contenders = {
  ours: { command: `${process.execPath} ${client} agent`, scenarios },
  official: {
    command: `${process.execPath} ${join(root, "bench/lib/mcp-official-client.mjs")}`,
    scenarios: scenarios.filter((scenario) => !scenario.startsWith("auth/")),
  },
};
for (const [name, { command, scenarios: chosen }] of Object.entries(contenders)) {
  const failed = chosen.filter((scenario) => !passes(command, scenario));
  console.log(`${name}: ${chosen.length - failed.length}/${chosen.length} scenarios pass at 2026-07-28`);
  if (failed.length > 0) console.log(`  failing: ${failed.join(", ")}`);
}
