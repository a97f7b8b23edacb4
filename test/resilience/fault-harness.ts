/**
 * Shared set-up of the fault-injection suites: an agent talking to the mock Messages API server
 * over real HTTP (streaming or JSON), with an injected sleep that records every retry wait and
 * returns at once, and helpers that run a query and check what every query must end with.
 */
import { connect } from "node:net";
import { afterEach, expect } from "vitest";
import {
  type Agent,
  type AgentOptions,
  createAgent,
  createAnthropicClient,
  isWellFormedHistory,
  type QueryOptions,
  type SDKMessage,
  type SDKResultMessage,
} from "../../src/index";
import { type MockAnthropicServer, type MockStep, startMockAnthropicServer } from "../../src/testing/index";

/** How the built-in client talks to the server. */
export type TransportMode = "stream" | "json";

/** Both transports; every fault case runs under each. */
export const TRANSPORT_MODES: readonly TransportMode[] = ["stream", "json"];

/** The API key every harness agent uses; it must never show up in an error or a message. */
export const API_KEY = "sk-ant-api03-resilience-suite-key-7c1f0e9d2b";

export const PRIMARY_MODEL = "claude-sonnet-4-6";
export const FALLBACK_MODEL = "claude-haiku-4-5";

/** The retry policy of the harness: waits of 200, 400, 800 ms with `random() = 0.5`. */
export const TEST_RETRY = { maxRetries: 2, initialDelayMs: 400, maxDelayMs: 10_000 } as const;

export type ApiRetryMessage = Extract<SDKMessage, { type: "system"; subtype: "api_retry" }>;
export type ModelFallbackMessage = Extract<SDKMessage, { type: "system"; subtype: "model_fallback" }>;

/** A running agent + server pair. */
export interface FaultHarness {
  server: MockAnthropicServer;
  agent: Agent;
  /** Every retry wait the loop asked for, in order. */
  waits: number[];
  /** HTTP attempts the client started (counted at `fetch`, so refused connections count too). */
  readonly fetchCalls: number;
}

/** Options of {@link startHarness}. */
export interface HarnessOptions {
  mode: TransportMode;
  steps?: MockStep[];
  handler?: (body: any, index: number) => MockStep | Promise<MockStep>;
  /** Extra agent options (merged over the harness defaults). */
  agent?: Partial<AgentOptions>;
  /** Replaces the recording sleep; `"real"` keeps the agent's own timer-based sleep. */
  sleep?: ((ms: number, signal: AbortSignal, waits: number[]) => Promise<void>) | "real";
  /** Sequence of values the injected `random` returns (cycled); default 0.5. */
  random?: number[];
  /** Rewrites the URL of attempt `n` (0-based), e.g. to a closed port. */
  routeAttempt?: (attempt: number, url: string) => string;
  /** Base URL the client uses instead of the server's (e.g. a closed port). */
  baseURL?: string;
}

const openServers: MockAnthropicServer[] = [];

afterEach(async () => {
  await Promise.all(openServers.splice(0).map((server) => server.close()));
});

/** Starts a mock server and an agent whose built-in client talks to it. */
export async function startHarness(options: HarnessOptions): Promise<FaultHarness> {
  const server = await startMockAnthropicServer({ responses: options.steps, handler: options.handler });
  openServers.push(server);
  const waits: number[] = [];
  let fetchCalls = 0;
  const randomValues = options.random ?? [0.5];
  let randomIndex = 0;
  const countingFetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const attempt = fetchCalls++;
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const target = options.routeAttempt ? options.routeAttempt(attempt, url) : url;
    return globalThis.fetch(target, init);
  };
  const client = createAnthropicClient({
    apiKey: API_KEY,
    baseURL: options.baseURL ?? server.url,
    stream: options.mode === "stream",
    fetch: countingFetch,
  });
  const agent = createAgent({
    model: PRIMARY_MODEL,
    apiKey: API_KEY,
    client,
    retry: TEST_RETRY,
    ...options.agent,
    _internal: {
      random: () => randomValues[randomIndex++ % randomValues.length]!,
      ...injectedSleep(options.sleep, waits),
      ...options.agent?._internal,
    },
  });
  return {
    server,
    agent,
    waits,
    get fetchCalls() {
      return fetchCalls;
    },
  };
}

function injectedSleep(sleep: HarnessOptions["sleep"], waits: number[]) {
  if (sleep === "real") return {};
  const custom = sleep;
  return {
    sleep: (ms: number, signal: AbortSignal) =>
      custom ? custom(ms, signal, waits) : recordWait(ms, signal, waits),
  };
}

/** The default injected sleep: records the wait and returns at once (or rejects when aborted). */
function recordWait(ms: number, signal: AbortSignal, waits: number[]): Promise<void> {
  waits.push(ms);
  return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
}

/** What one query yielded, sorted out. */
export interface QueryRecord {
  messages: SDKMessage[];
  result: SDKResultMessage;
  retries: ApiRetryMessage[];
  fallbacks: ModelFallbackMessage[];
}

/**
 * Runs one query to its end and checks what every query must end with: exactly one result
 * message, last; a well-formed history; the conversation guard released.
 */
export async function runQuery(
  agent: Agent,
  prompt: string,
  options?: QueryOptions,
  onMessage?: (message: SDKMessage) => void,
): Promise<QueryRecord> {
  const messages: SDKMessage[] = [];
  for await (const message of agent.query(prompt, options)) {
    messages.push(message);
    onMessage?.(message);
  }
  const results = messages.filter((message) => message.type === "result");
  expect(results).toHaveLength(1);
  expect(messages.at(-1)).toBe(results[0]);
  expect(isWellFormedHistory(await agent.getHistory())).toBe(true);
  return {
    messages,
    result: results[0] as SDKResultMessage,
    retries: messages.filter(
      (message): message is ApiRetryMessage => message.type === "system" && message.subtype === "api_retry",
    ),
    fallbacks: messages.filter(
      (message): message is ModelFallbackMessage =>
        message.type === "system" && message.subtype === "model_fallback",
    ),
  };
}

/**
 * A base URL on the loopback interface where nothing listens (connections are refused). The port
 * is a privileged one (not on fetch's bad-port list) seen refusing a connection: an ephemeral port freed by a probe could be
 * taken by another test's server while the retries run (seen: a "refused" port answering 500).
 */
export async function closedPortUrl(): Promise<string> {
  // From 700: fetch refuses the "bad ports" of the Fetch standard (1, 7, 9, … 601, 636) outright.
  for (let port = 700; port < 989; port++) {
    if (await refusesConnections(port)) return `http://127.0.0.1:${port}`;
  }
  throw new Error("no privileged loopback port refuses connections");
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

/** The exponential full-jitter wait for retry `attempt` (1-based) at random value `r`. */
export function jitteredWait(attempt: number, r: number, policy = TEST_RETRY): number {
  return Math.floor(r * Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1)));
}
