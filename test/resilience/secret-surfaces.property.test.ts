/**
 * Issue 33, one secret set per run: a key the agent knows from any source — `apiKey` in a
 * non-`sk-ant-` form, the `secrets` option, a client made with `createAnthropicClient` — never
 * appears on the surfaces the earlier property test did not cover: a subagent's spans, its own
 * store and its messages; span start attributes (a tool call id holding the key); the error for a
 * forged approval id; a key split across the text blocks of one message (the model's text blocks,
 * a tool result's blocks) in what a query yields, history and a JSONL store; `util.inspect` of the
 * stores and the fleet given a password (test/queue/fleet-secrets-in-redis.test.ts reads the fleet's
 * Redis keys back).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { inspect } from "node:util";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type AgentOptions,
  createAgent,
  createAnthropicClient,
  createJsonlHistoryStore,
  defineSubagent,
  defineTool,
  InvalidOptionError,
  type ModelClient,
  type SDKMessage,
} from "../../src/index";
import { createPostgresHistoryStore } from "../../src/integrations/stores/postgres";
import { createRedisHistoryStore } from "../../src/integrations/stores/redis";
import { createAgentQueue } from "../../src/queue/index";
import {
  createScriptedClient,
  type ScriptedResponse,
  startMockAnthropicServer,
} from "../../src/testing/index";
import { collect, createMemoryStore, toolUse } from "../loop/support";

const rendered = (value: unknown) =>
  inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true });

type Source = "apiKey" | "secrets" | "anthropicClient";

/** The agent's key options and client for a source; the client routes by system prompt. */
async function setup(
  source: Source,
  key: string,
  route: (system: string, results: number) => ScriptedResponse,
) {
  const respond = (system: unknown, messages: readonly { role: string; content: unknown }[]) => {
    const results = messages.filter(
      (message) =>
        Array.isArray(message.content) &&
        message.content.some((block) => (block as { type?: string }).type === "tool_result"),
    ).length;
    const text = Array.isArray(system)
      ? system.map((block) => (block as { text?: string }).text ?? "").join("")
      : system;
    return route(typeof text === "string" ? text : "", results);
  };
  if (source !== "anthropicClient") {
    const client = createScriptedClient((request) => respond(request.system, request.messages), {
      record: false,
    });
    const options: Partial<AgentOptions> = source === "apiKey" ? { apiKey: key } : { secrets: [key] };
    return { client: client as ModelClient, options, close: async () => {} };
  }
  const server = await startMockAnthropicServer();
  server.setHandler((body) => respond(body.system, body.messages) as never);
  const client = createAnthropicClient({ apiKey: key, baseURL: server.url });
  expect(inspect(client, { depth: 10 })).not.toContain(key); // util.inspect of the client hides its key
  return { client, options: {}, close: () => server.close() };
}

const keyArbitrary = fc.stringMatching(/^[a-f0-9]{24,40}$/).map((hex) => `sk-${hex}`);

describe("one secret set per run", () => {
  it("a subagent's spans, store and messages never hold the parent's key (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        keyArbitrary,
        fc.constantFrom<Source>("apiKey", "secrets", "anthropicClient"),
        async (key, source) => {
          const leaky = defineTool({
            name: "leaky",
            inputSchema: z.object({}),
            readOnly: true,
            execute: () => {
              throw new Error(`upstream refused the key ${key}`);
            },
          });
          const printer = defineTool({
            name: "printer",
            inputSchema: z.object({}),
            readOnly: true,
            execute: () => `token=${key}`,
          });
          const childStore = createMemoryStore();
          const helper = defineSubagent({
            name: "helper",
            description: "Helps",
            systemPrompt: "child",
            tools: [leaky, printer],
            historyStore: () => childStore,
          });
          const { client, options, close } = await setup(source, key, (system, results) => {
            if (system === "child") {
              return results === 0
                ? { content: [toolUse("k1", "leaky", {}), toolUse("k2", "printer", {})] }
                : { content: "child done" };
            }
            return results === 0
              ? { content: [toolUse("p1", "helper", { prompt: "go" })] }
              : { content: "parent done" };
          });
          const exporter = new InMemorySpanExporter();
          const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
          try {
            const agent = createAgent({
              model: "claude-sonnet-4-6",
              ...options,
              client,
              tools: [helper],
              telemetry: { tracer: provider.getTracer("test") },
            });
            const messages: SDKMessage[] = await collect(agent.query("Go."));
            expect(messages.at(-1), rendered(messages.at(-1)).slice(0, 1500)).toMatchObject({
              type: "result",
              subtype: "success",
            });
            for (const message of messages) expect(rendered(message)).not.toContain(key);
            expect(rendered(await agent.getHistory())).not.toContain(key);
            expect(childStore.saved.length).toBeGreaterThan(0);
            expect(rendered(childStore.saved)).not.toContain(key);
            await provider.forceFlush();
            const spans = exporter.getFinishedSpans();
            expect(spans.some((span) => span.name.includes("helper"))).toBe(true);
            for (const span of spans) {
              expect(
                rendered({
                  name: span.name,
                  attributes: span.attributes,
                  events: span.events,
                  status: span.status,
                }),
              ).not.toContain(key);
            }
            await agent.close();
          } finally {
            await close();
          }
        },
      ),
      { numRuns: 12 },
    );
  }, 120_000);

  it("span start attributes: a tool call id holding the key is redacted", async () => {
    const key = "sk-0123456789abcdef0123456789abcdef";
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tool = defineTool({ name: "noop", inputSchema: z.object({}), readOnly: true, execute: () => "ok" });
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      secrets: [key],
      client: createScriptedClient([{ content: [toolUse(`call_${key}`, "noop", {})] }, { content: "done" }]),
      tools: [tool],
      telemetry: { tracer: provider.getTracer("test") },
    });
    await agent.prompt("Go.");
    await provider.forceFlush();
    const toolSpan = exporter.getFinishedSpans().find((span) => span.name.startsWith("execute_tool"));
    expect(toolSpan?.attributes["gen_ai.tool.call.id"]).toBe("call_[redacted]");
    expect(rendered(exporter.getFinishedSpans().map((span) => span.attributes))).not.toContain(key);
  });

  it("a forged approval id is not echoed in the error", async () => {
    const key = "sk-ant-forged-approval-id-0123456789";
    const tool = defineTool({ name: "deploy", inputSchema: z.object({}), execute: () => "deployed" });
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: createScriptedClient([{ content: [toolUse("c1", "deploy", {})] }]),
      tools: [tool],
      canUseTool: () => ({ behavior: "ask" }),
    });
    expect((await agent.prompt("Deploy.")).subtype).toBe("requires_approval");
    const error = await agent
      .prompt({ approvals: { c1: { approved: true }, [key]: { approved: true } } })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(InvalidOptionError);
    expect((error as Error).message).toContain('not pending (the pending calls: "c1")');
    expect(rendered(error)).not.toContain(key);
  });

  it("the secrets option is validated", () => {
    expect(() =>
      createAgent({ model: "m", client: createScriptedClient([]), secrets: "x" as never }),
    ).toThrow("createAgent: secrets must be an array of strings.");
  });
});

/** `text` cut at the given points (sorted, inside the text) into non-empty pieces. */
function cut(text: string, points: readonly number[]): string[] {
  const at = [...new Set(points.map((point) => 1 + (point % (text.length - 1))))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let start = 0;
  for (const point of [...at, text.length]) {
    pieces.push(text.slice(start, point));
    start = point;
  }
  return pieces;
}

/** The joined text of every content array reachable from `value` (what a model would read whole). */
function joinedTexts(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) {
    const texts = value.filter(
      (item): item is { type: "text"; text: string } =>
        typeof item === "object" && item !== null && item.type === "text" && typeof item.text === "string",
    );
    if (texts.length > 0) found.push(texts.map((block) => block.text).join(""));
    for (const item of value) joinedTexts(item, found);
  } else if (typeof value === "object" && value !== null) {
    for (const item of Object.values(value)) joinedTexts(item, found);
  }
  return found;
}

describe("secrets split across blocks (property)", () => {
  it("no joined text of any content array holds the key: yielded, in history, in the JSONL store", async () => {
    const folder = mkdtempSync(join(tmpdir(), "al-split-"));
    try {
      await fc.assert(
        fc.asyncProperty(
          keyArbitrary,
          fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
          fc.constantFrom("assistant", "tool_result", "both"),
          fc.boolean(),
          async (key, points, where, listed) => {
            const pieces = cut(`before ${key} after`, points).map((text) => ({
              type: "text" as const,
              text,
            }));
            const tool = defineTool({
              name: "fetch_config",
              inputSchema: z.object({}),
              readOnly: true,
              execute: () => ({
                content: where === "assistant" ? [{ type: "text" as const, text: "ok" }] : pieces,
              }),
            });
            const first = { content: [toolUse("f1", "fetch_config", {})] };
            const last = {
              content: where === "tool_result" ? [{ type: "text" as const, text: "done" }] : pieces,
            };
            const path = join(folder, `${key}-${points.join("-")}-${where}.jsonl`);
            const agent = createAgent({
              model: "claude-sonnet-4-6",
              ...(listed ? { secrets: [key] } : { apiKey: key }),
              client: createScriptedClient([first, last]),
              tools: [tool],
              historyStore: createJsonlHistoryStore({ path }),
            });
            const messages = await collect(agent.query("Show the config."));
            expect(messages.at(-1)).toMatchObject({ type: "result", subtype: "success" });
            const surfaces = [
              messages,
              await agent.getHistory(),
              readFileSync(path, "utf8")
                .split("\n")
                .filter(Boolean)
                .map((line) => JSON.parse(line)),
            ];
            for (const surface of surfaces) {
              expect(rendered(surface)).not.toContain(key);
              for (const joined of joinedTexts(surface)) expect(joined).not.toContain(key);
            }
            await agent.close();
          },
        ),
        { numRuns: 40 },
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("util.inspect of the stores and the fleet (property)", () => {
  it("a password in a connection string or URL is never shown", async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[A-Za-z0-9]{12,24}$/), async (password) => {
        const objects = [
          createPostgresHistoryStore({
            connectionString: `postgres://agent:${password}@127.0.0.1:5432/test`,
            conversationId: "c",
          }),
          createRedisHistoryStore({ url: `redis://:${password}@127.0.0.1:1/0`, conversationId: "c" }),
          createAgentQueue({
            connection: { url: `redis://:${password}@127.0.0.1:1/0`, lazyConnect: true },
            onError: () => {},
          }),
        ];
        for (const object of objects) {
          const shown = inspect(object, { depth: Number.POSITIVE_INFINITY, showHidden: true, getters: true });
          expect(shown).not.toContain(password);
        }
        await Promise.allSettled(objects.map((object) => object.close()));
      }),
      { numRuns: 10 },
    );
  }, 60_000);
});
