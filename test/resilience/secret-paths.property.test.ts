/**
 * Issue 17, one redaction boundary: a secret planted in any error path (every hook, the permission
 * callback, a tool, a store) or output path (a tool's successful output, the model's text) never
 * appears in any message a query yields, in history, in a stored JSONL line, or in a span.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AgentOptions,
  createAgent,
  createJsonlHistoryStore,
  defineTool,
  type HistoryStore,
  type SDKMessage,
} from "../../src/index";
import { createScriptedClient, type ScriptedStep } from "../../src/testing/index";
import { collect, toolUse } from "../loop/support";

const PATHS = [
  "preToolUse",
  "postToolUse",
  "userPromptSubmit",
  "stop",
  "preCompact",
  "onModelRequest",
  "canUseTool",
  "tool_throws",
  "tool_output",
  "tool_output_blocks",
  "store_append",
  "model_text",
] as const;
type SecretPath = (typeof PATHS)[number];

const folder = mkdtempSync(join(tmpdir(), "secret-paths-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let runs = 0;

function rendered(value: unknown): string {
  return inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true });
}

/** A store that writes to a JSONL file; on the `store_append` path its first append fails with the key. */
function storeFor(path: SecretPath, file: string, key: string): HistoryStore {
  const jsonl = createJsonlHistoryStore({ path: file });
  let failed = false;
  return {
    load: () => jsonl.load(),
    replace: (messages) => jsonl.replace(messages),
    close: () => jsonl.close?.(),
    append: async (message) => {
      if (path === "store_append" && !failed) {
        failed = true;
        throw new Error(`the database refused the login for key ${key}`);
      }
      return jsonl.append(message);
    },
  };
}

function optionsFor(path: SecretPath, key: string, source: "apiKey" | "env"): AgentOptions {
  const boom = () => {
    throw new Error(`failed with credential ${key} in the message`);
  };
  const probe = defineTool({
    name: "probe",
    inputSchema: z.object({}),
    execute: () => {
      if (path === "tool_throws") boom();
      if (path === "tool_output") return `API_KEY=${key}\nOTHER=1`;
      if (path === "tool_output_blocks") return { content: [{ type: "text", text: `token: ${key}` }] };
      return "probed";
    },
  });
  const steps: ScriptedStep[] = [
    { content: [toolUse("c1", "probe", {})], usage: { input_tokens: 5_000, output_tokens: 10 } },
    ...(path === "preCompact" ? [{ content: "Summary of the work." }] : []),
    { content: path === "model_text" ? `Here is your key: ${key}.` : "Done." },
    { content: "Done again." },
  ];
  const hook = (event: SecretPath) => (path === event ? [{ handler: boom }] : []);
  return {
    model: "claude-sonnet-4-6",
    client: createScriptedClient(steps),
    ...(source === "apiKey" ? { apiKey: key } : {}),
    tools: [probe],
    canUseTool: () => (path === "canUseTool" ? boom() : { behavior: "allow" }),
    ...(path === "preCompact" ? { autoCompact: { thresholdTokens: 1_000, keepRecentMessages: 2 } } : {}),
    hooks: {
      preToolUse: hook("preToolUse"),
      postToolUse: hook("postToolUse"),
      userPromptSubmit: hook("userPromptSubmit"),
      stop: hook("stop"),
      preCompact: hook("preCompact"),
      onModelRequest: hook("onModelRequest"),
    },
  };
}

describe("a secret planted in every error and output path", () => {
  it("never appears in a yielded message, history, a stored line or a span (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PATHS),
        fc.stringMatching(/^[A-Za-z0-9]{12,28}$/),
        fc.constantFrom("apiKey" as const, "env" as const),
        async (path, key, source) => {
          const file = join(folder, `run-${runs++}.jsonl`);
          const exporter = new InMemorySpanExporter();
          const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
          const previous = process.env.ANTHROPIC_API_KEY;
          if (source === "env") process.env.ANTHROPIC_API_KEY = key;
          try {
            const agent = createAgent({
              ...optionsFor(path, key, source),
              historyStore: storeFor(path, file, key),
              telemetry: { tracer: provider.getTracer("test") },
            });
            const messages: SDKMessage[] = await collect(agent.query("Probe it."));
            messages.push(...(await collect(agent.query("Once more."))));
            for (const message of messages) expect(rendered(message)).not.toContain(key);
            expect(rendered(await agent.getHistory())).not.toContain(key);
            await agent.close();
            if (existsSync(file)) expect(readFileSync(file, "utf8")).not.toContain(key);
            await provider.forceFlush();
            const spans = exporter.getFinishedSpans();
            expect(spans.length).toBeGreaterThan(0);
            for (const span of spans) {
              expect(rendered({ a: span.attributes, e: span.events, s: span.status })).not.toContain(key);
            }
          } finally {
            if (previous === undefined) delete process.env.ANTHROPIC_API_KEY;
            else process.env.ANTHROPIC_API_KEY = previous;
            await provider.shutdown();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("a tool's output holding the key reaches history as the marker, the rest kept", async () => {
    const key = "tenant-7f3a9c-credential-5b21d8e4f0";
    const agent = createAgent(optionsFor("tool_output", key, "apiKey"));
    await agent.prompt("Probe it.");
    const history = await agent.getHistory();
    expect(JSON.stringify(history)).toContain("API_KEY=[redacted]\\nOTHER=1");
  });
});
