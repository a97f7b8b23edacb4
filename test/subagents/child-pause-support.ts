/**
 * Shared pieces of the tests of a pause inside a subagent: conversations scripted by system
 * prompt — served by the mock Messages API server over HTTP — and the tools and subagents they call.
 */
import { appendFileSync } from "node:fs";
import {
  createAnthropicClient,
  defineSubagent,
  defineTool,
  type HistoryStore,
  type ModelClient,
  type Tool,
} from "../../src/index";
import type { MockHandler, MockStep } from "../../src/testing/index";

/** A model's turn from the tool results its conversation holds so far (as text, oldest first). */
export type Turn = (results: string[]) => MockStep;

/** The system prompt of the child agents of these tests, by name. */
export const SYSTEM = {
  releaser: "You release.",
  checker: "You check.",
  planner: "You plan.",
} as const;

function text(value: unknown): string {
  if (typeof value === "string") return value;
  if (!Array.isArray(value)) return "";
  return value
    .map((block: { type?: string; text?: string }) => (block.type === "text" ? block.text : ""))
    .join("");
}

function resultsOf(body: { messages: Array<{ content: unknown }> }): string[] {
  const results: string[] = [];
  for (const message of body.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; content?: unknown }>)
      if (block.type === "tool_result") results.push(text(block.content));
  }
  return results;
}

/** A mock-server handler answering each request with the turn for its system prompt ("" = the parent). */
export function routeBySystem(routes: Record<string, Turn>): MockHandler {
  return (body) => {
    const route = routes[text(body.system)];
    if (!route) return { content: `no route for the system prompt ${JSON.stringify(text(body.system))}` };
    return route(resultsOf(body));
  };
}

/** The built-in client over the mock server at `url`; `apiKey` is the parent's secret. */
export function httpClient(url: string, apiKey = "sk-test-child-pause-0123456789"): ModelClient {
  return createAnthropicClient({ apiKey, baseURL: url, stream: true });
}

/** A tool_use block. */
export function call(id: string, name: string, input: unknown) {
  return { type: "tool_use" as const, id, name, input };
}

/** The parent asks `agent` once (call `p1`), then reports the subagent's result. */
export const parentCallsOnce =
  (agent: string, id = "p1"): Turn =>
  (results) =>
    results.length === 0
      ? { content: [call(id, agent, { prompt: "Ship 4.2 to production" })] }
      : { content: `Parent saw: ${results.at(-1)}` };

/** The releaser child deploys (call `c1`), then reports. */
export const releaserDeploys =
  (id = "c1"): Turn =>
  (results) =>
    results.length === 0
      ? { content: [call(id, "deploy", { target: "production" })] }
      : { content: `Child: ${results.at(-1)}` };

/**
 * The deploy tool: it needs approval and counts its runs in `runs` (and, when given, appends a
 * line to `runsFile`, for runs in other processes). `output` is what it returns.
 */
export function deployTool(
  runs: string[],
  options: { runsFile?: string; output?: (target: string) => string } = {},
): Tool {
  return defineTool({
    name: "deploy",
    description: "Deploys a release",
    inputSchema: {
      parse: (input: unknown) => input as { target: string },
      jsonSchema: { type: "object", properties: { target: { type: "string" } }, required: ["target"] },
    },
    needsApproval: true,
    execute: ({ target }) => {
      runs.push(target);
      if (options.runsFile) appendFileSync(options.runsFile, `${process.pid} ${target}\n`);
      return options.output?.(target) ?? `deployed to ${target}`;
    },
  });
}

/** The releaser subagent, over `deploy`; `historyStore` gives it a store of its own. */
export function releaser(
  deploy: Tool,
  extra: {
    historyStore?: (call: { toolUseId: string }) => HistoryStore;
    readOnly?: boolean;
    name?: string;
  } = {},
): Tool {
  return defineSubagent({
    name: extra.name ?? "releaser",
    description: "Releases a version",
    systemPrompt: SYSTEM.releaser,
    tools: [deploy],
    ...(extra.readOnly ? { readOnly: true } : {}),
    ...(extra.historyStore ? { historyStore: extra.historyStore } : {}),
  });
}
