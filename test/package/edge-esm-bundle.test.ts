/**
 * The root entry bundled by esbuild as ONE ES module file — esbuild's default output for
 * `--platform=neutral`, and what a worker or an edge function deploys — for `neutral` and
 * `browser`, with and without the `workerd`/`worker` conditions. Such a bundle follows every
 * literal `import()` and hoists the lazily loaded module's static imports to its top, so the
 * optional parts (MCP, OpenTelemetry) must not be reachable by one: the bundle of an agent that
 * uses neither has no import at all (no `fs`, `child_process`, `stream`, `crypto`,
 * `@opentelemetry/api`), and it runs a tool-using query in Vercel's EdgeRuntime — the web
 * platform only, no `require`, `process` or `Buffer` — against the mock server over HTTP.
 * Node built-ins are external, as a worker build declares them; the optional peers are not (they
 * are installed here, so a reachable one would be bundled and show in the metafile). Needs `dist/`.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { build, type Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";

const root = resolve(__dirname, "../..");
const RUNNER = join(root, "test/fixtures/edge/run-in-edge-runtime.mjs");
const NODE_BUILTINS = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

const ENTRY = `import { createAgent, defineTool } from "agent-lattice";
import { z } from "zod";

const add = defineTool({
  name: "add",
  description: "Adds two numbers",
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  readOnly: true,
  execute: ({ a, b }) => \`\${a + b}\`,
});

export async function run(baseURL) {
  const agent = createAgent({ model: "claude-edge-1", apiKey: "edge-key-5678", baseURL, tools: [add] });
  const result = await agent.prompt("What is 2 + 3?");
  const history = await agent.getHistory();
  return { subtype: result.subtype, result: result.result, toolResult: history[2].content[0] };
}
`;

const FORMATS = [
  { platform: "neutral", conditions: [] },
  { platform: "browser", conditions: [] },
  { platform: "neutral", conditions: ["workerd", "worker"] },
  { platform: "browser", conditions: ["workerd", "worker"] },
] as const;

let folder: string;
let server: MockAnthropicServer;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "lattice-edge-esm-"));
  mkdirSync(join(folder, "node_modules"));
  symlinkSync(root, join(folder, "node_modules", "agent-lattice"), "dir");
  symlinkSync(join(root, "node_modules", "zod"), join(folder, "node_modules", "zod"), "dir");
  writeFileSync(join(folder, "entry.mjs"), ENTRY);
  server = await startMockAnthropicServer({ responses: [] });
});

afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Bundles the entry as one ES module; returns its path and esbuild's metafile. */
async function bundle(platform: "browser" | "neutral", conditions: readonly string[]) {
  const outfile = join(folder, `bundle-${platform}-${conditions.join("-") || "default"}.mjs`);
  const result = await build({
    entryPoints: [join(folder, "entry.mjs")],
    outfile,
    bundle: true,
    platform,
    format: "esm",
    target: "es2022",
    mainFields: platform === "neutral" ? ["module", "main"] : undefined,
    conditions: [...conditions],
    external: NODE_BUILTINS,
    metafile: true,
    logLevel: "silent",
  });
  expect(result.errors).toEqual([]);
  return { outfile, metafile: result.metafile as Metafile };
}

describe("the root entry as one ES module file in a worker-like runtime", () => {
  it.each(FORMATS)(
    "platform $platform, conditions $conditions: no import in the bundle, and a tool-using query runs",
    async ({ platform, conditions }) => {
      const { outfile, metafile } = await bundle(platform, conditions);
      const [output] = Object.values(metafile.outputs);
      // Every import esbuild left in the file (static, require or dynamic with a literal).
      expect(output!.imports).toEqual([]);
      const inputs = Object.keys(metafile.inputs);
      expect(
        inputs.filter((input) => /@opentelemetry|@modelcontextprotocol|@anthropic-ai/.test(input)),
      ).toEqual([]);
      // The MCP client is not in it at all; the telemetry glue is (a few KB, no import of its own).
      expect(inputs.filter((input) => /dist\/(mcp|connect-)/.test(input))).toEqual([]);

      server.enqueue(
        { content: [{ type: "tool_use", id: "toolu_edge_1", name: "add", input: { a: 2, b: 3 } }] },
        { content: "2 + 3 = 5." },
      );
      const requestsBefore = server.requests.length;
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--experimental-vm-modules", "--no-warnings", RUNNER, outfile, server.url],
        { cwd: folder, timeout: 60_000 },
      );
      const { globals, output: answer } = JSON.parse(stdout);
      expect(globals).toEqual({
        require: "undefined",
        process: "undefined",
        Buffer: "undefined",
        fetch: "function",
      });
      expect(answer).toEqual({
        subtype: "success",
        result: "2 + 3 = 5.",
        toolResult: { type: "tool_result", tool_use_id: "toolu_edge_1", content: "5" },
      });
      const sent = server.requests.slice(requestsBefore);
      expect(sent).toHaveLength(2);
      expect(sent[0]!.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["add"]);
    },
    90_000,
  );
});
