/**
 * The web chat example's server: builds the React page with Vite, serves it, and serves
 * `createChatHandler` at /api/chat — one Agent per conversation over a JSONL file, so the
 * conversation (and a pause for approval) survives a restart.
 *
 *   npx tsx examples/web-chat/server.ts        then open the printed URL
 *
 * Without ANTHROPIC_API_KEY it runs offline against the bundled mock Messages API server
 * (demo-model.ts scripts it); with a key it talks to the real API (ANTHROPIC_MODEL picks the model).
 */
import { mkdir, readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { build } from "vite";
import { z } from "zod";
import { type Agent, createAgent, createJsonlHistoryStore, defineTool } from "../../src/index";
import { startMockAnthropicServer } from "../../src/testing/index";
import { createChatHandler, toNodeHandler } from "../../src/ui/index";
import { demoModel } from "./demo-model";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** Options of {@link startWebChat}. */
export interface WebChatOptions {
  /** @default 0 (a free port) */
  port?: number;
  /** Where conversations are stored (one JSONL file each). @default a folder under the OS temp dir */
  dataDir?: string;
  /** A real API key; without one the bundled mock server answers. */
  apiKey?: string;
  /** Where the built page goes. @default examples/web-chat/dist */
  outDir?: string;
  /** Skip the Vite build (the page in outDir is already built). */
  skipBuild?: boolean;
  /** Awaited by the deploy tool before it deploys (the end-to-end test holds a deploy mid-run with it). */
  deployGate?: () => Promise<void>;
}

const weather = defineTool({
  name: "weather",
  description: "The weather in a city",
  inputSchema: z.object({ city: z.string() }),
  readOnly: true,
  async execute({ city }) {
    return `Sunny and 21 °C in ${city}`;
  },
});

/** The deploy tool: asks a person first; `gate` (when given) is awaited before it deploys. */
function deployTool(gate?: () => Promise<void>) {
  return defineTool({
    name: "deploy",
    description: "Deploys the app to a target (asks a person first)",
    inputSchema: z.object({ target: z.string() }),
    needsApproval: true,
    async execute({ target }) {
      await gate?.();
      return `deployed to ${target}`;
    },
  });
}

/** Builds the page, starts the model (mock or real) and the server on 127.0.0.1. */
export async function startWebChat(options: WebChatOptions = {}) {
  const outDir = options.outDir ?? path.join(HERE, "dist");
  if (!options.skipBuild) {
    await build({
      root: HERE,
      configFile: false,
      logLevel: "warn",
      plugins: [react()],
      build: { outDir, emptyOutDir: true },
    });
  }
  const dataDir = options.dataDir ?? path.join(tmpdir(), "agent-lattice-web-chat");
  await mkdir(dataDir, { recursive: true });
  const mock = options.apiKey ? undefined : await startMockAnthropicServer({ handler: demoModel });
  const agents = new Map<string, Agent<unknown>>();
  const deploy = deployTool(options.deployGate);
  const chat = createChatHandler({
    agent: ({ conversationId }) => {
      let agent = agents.get(conversationId);
      if (agent === undefined) {
        agent = createAgent({
          model: options.apiKey ? (process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-6") : "claude-mock",
          ...(mock ? { apiKey: "mock-key", baseURL: mock.url } : { apiKey: options.apiKey }),
          systemPrompt: "You are a helpful assistant in a web chat. Use the tools when asked.",
          tools: [weather, deploy],
          includePartialMessages: true,
          historyStore: createJsonlHistoryStore({ path: path.join(dataDir, `${conversationId}.jsonl`) }),
        });
        agents.set(conversationId, agent);
      }
      return agent;
    },
    // A page of another origin may not drive this chat (the browser sends Origin on POST).
    authorize: (request) => {
      const origin = request.headers.get("origin");
      return origin === null || new URL(origin).host === request.headers.get("host");
    },
    ...(options.apiKey ? { secrets: [options.apiKey] } : {}),
  });
  const api = toNodeHandler(chat);
  const server = createServer((req, res) => {
    if (req.url?.startsWith("/api/chat")) return api(req, res);
    void serveStatic(outDir, req.url ?? "/", res);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    dataDir,
    mock: mock !== undefined,
    async close() {
      await chat.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...agents.values()].map((agent) => agent.close()));
      await mock?.close();
    },
  };
}

const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
};

async function serveStatic(
  root: string,
  url: string,
  res: import("node:http").ServerResponse,
): Promise<void> {
  const pathname = decodeURIComponent(new URL(url, "http://x").pathname);
  const file = path.join(root, pathname === "/" ? "index.html" : pathname);
  if (!file.startsWith(root + path.sep)) {
    res.writeHead(404).end();
    return;
  }
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" }).end(body);
  } catch {
    res.writeHead(404).end("not found");
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const apiKey = process.env.ANTHROPIC_API_KEY;
  const chat = await startWebChat({ port: Number(process.env.PORT ?? 5173), ...(apiKey ? { apiKey } : {}) });
  console.log(chat.mock ? `Offline, against the bundled mock server.` : "Against the Anthropic API.");
  console.log(`Web chat: ${chat.url}`);
  console.log(
    `Conversations are kept in ${chat.dataDir} (one JSONL file each; set it with startWebChat({ dataDir })).`,
  );
  process.on("SIGINT", () => void chat.close().then(() => process.exit(0)));
}
