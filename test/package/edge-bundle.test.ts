/**
 * `createAgent` with the built-in client bundles for a worker or edge runtime: esbuild, platform
 * `browser` (and `neutral`), from the built package as a user installs it. The bundle then runs
 * in a realm that has only the web platform — `fetch`, web streams, `URL`, `AbortController`,
 * timers — and no `require`, `Buffer` or Node built-in, and answers a query from the mock server.
 * Node built-ins and the optional peers are external, as such a build declares them: the code
 * that needs them (the JSONL store, MCP, tracing) loads them only when used. Needs `dist/`.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createContext, runInContext } from "node:vm";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockAnthropicServer, startMockAnthropicServer } from "../../src/testing/index";

const root = resolve(__dirname, "../..");
const OPTIONAL_PEERS = ["@anthropic-ai/sdk", "@modelcontextprotocol/sdk", "@opentelemetry/api"];
const EXTERNAL = [...builtinModules, ...builtinModules.map((name) => `node:${name}`), ...OPTIONAL_PEERS];

const ENTRY = `import { createAgent, textDeltas } from "agent-lattice";
globalThis.lattice = {
  async run(baseURL) {
    const agent = createAgent({ model: "claude-edge-1", apiKey: "edge-key-1234", baseURL, includePartialMessages: true });
    let text = "";
    for await (const piece of textDeltas(agent.query("Hi"))) text += piece;
    return text;
  },
};
`;

let folder: string;
let server: MockAnthropicServer;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "lattice-edge-"));
  mkdirSync(join(folder, "node_modules"));
  symlinkSync(root, join(folder, "node_modules", "agent-lattice"), "dir");
  writeFileSync(join(folder, "entry.mjs"), ENTRY);
  server = await startMockAnthropicServer({
    responses: [{ content: "Hello from the edge." }, { content: "Hello again." }],
  });
});

afterAll(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Bundles the entry as one script for `platform`; returns its code. */
async function bundle(platform: "browser" | "neutral"): Promise<string> {
  const result = await build({
    entryPoints: [join(folder, "entry.mjs")],
    bundle: true,
    write: false,
    platform,
    format: "iife",
    target: "es2022",
    mainFields: ["browser", "module", "main"],
    conditions: platform === "neutral" ? ["import", "default"] : [],
    external: EXTERNAL,
    logLevel: "silent",
  });
  expect(result.errors).toEqual([]);
  return result.outputFiles[0]!.text;
}

/** A realm with the web platform only (plus the `process.env` edge runtimes provide). */
function webRealm(): Record<string, unknown> {
  const realm: Record<string, unknown> = { process: { env: {} } };
  for (const name of [
    "fetch",
    "Headers",
    "Request",
    "Response",
    "URL",
    "URLSearchParams",
    "AbortController",
    "AbortSignal",
    "TextEncoder",
    "TextDecoder",
    "ReadableStream",
    "WritableStream",
    "TransformStream",
    "setTimeout",
    "clearTimeout",
    "setInterval",
    "clearInterval",
    "queueMicrotask",
    "structuredClone",
    "console",
    "crypto",
    "performance",
    "DOMException",
    "Event",
    "EventTarget",
    "atob",
    "btoa",
  ]) {
    realm[name] = (globalThis as Record<string, unknown>)[name];
  }
  return createContext(realm);
}

describe("a worker bundle of createAgent with the built-in client", () => {
  it.each(["browser", "neutral"] as const)(
    "bundles for platform %s, and runs a query in a realm without Node",
    async (platform) => {
      const code = await bundle(platform);
      // Nothing of Node or of an SDK in the code that runs at import.
      expect(code).not.toMatch(/@anthropic-ai\/sdk/);
      const realm = webRealm();
      runInContext(code, realm);
      expect(runInContext("typeof require", realm)).toBe("undefined");
      expect(runInContext("typeof Buffer", realm)).toBe("undefined");
      const lattice = realm.lattice as { run(baseURL: string): Promise<string> };
      const text = await lattice.run(server.url);
      expect(text).toMatch(/^Hello (from the edge|again)\.$/);
    },
    60_000,
  );
});
