/**
 * `startMockAnthropicServer`: a real HTTP server on the loopback interface that speaks
 * `POST /v1/messages` like the Messages API (JSON, or server-sent events when the body asks for
 * `stream: true`) — and Google Vertex AI's URL shape for Claude (`…/models/{model}:streamRawPredict`
 * and `:rawPredict`) — replays scripted responses, injects faults, and records every request.
 * @module
 */
import { setMaxListeners } from "node:events";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Usage } from "../messages/types";
import {
  applyMockContextManagement,
  COUNT_TOKENS_PATH,
  countMockTokens,
  type MockCompactionSupport,
  type MockContextOutcome,
} from "./mock-context-management";
import { historyRefusal } from "./mock-history-check";
import { estimatePromptTokens, MockPromptCache, type MockPromptCacheOptions } from "./mock-prompt-cache";
import { MockCompactionLedger, withCompaction } from "./mock-server-compaction";
import { apiErrorBody } from "./mock-server-errors";
import {
  type Exchange,
  pause,
  sendEventStream,
  sendJson,
  startEventStream,
  startExchange,
  writeEvents,
} from "./mock-server-exchange";
import { injectFault } from "./mock-server-faults";
import {
  buildMessageBody,
  buildStreamEvents,
  cutAtStopSequence,
  type MockMessageBody,
} from "./mock-server-response";
import { type MockHandler, type MockResponse, type MockStep, stepProblem } from "./mock-server-steps";
import { ThinkingLedger } from "./mock-thinking-check";
import { toolSearchRefusal } from "./mock-tool-search";
import { messagesBodyOfVertex, vertexRouteOf } from "./mock-vertex-route";

/** A request the server received, as it arrived. */
export interface MockRecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (the raw text when it is not JSON). */
  body: any;
  /** The messages the model saw, when the server's context editing changed them. */
  editedMessages?: unknown[];
}

/** Options of {@link startMockAnthropicServer}. */
export interface MockAnthropicServerOptions {
  /** The port to listen on, on 127.0.0.1. @default 0 (a free one) */
  port?: number;
  /** Steps replayed in order, one per request. */
  responses?: MockStep[];
  /** Answers requests once the scripted steps are used up. */
  handler?: MockHandler;
  /**
   * Simulate the API's prompt cache (see {@link MockPromptCache}): requests with `cache_control`
   * markers report `cache_creation_input_tokens` / `cache_read_input_tokens` as the API would.
   * `false` ignores markers. An object sets the clock, the minimum cacheable length or the lookback.
   * @default true
   */
  promptCache?: boolean | MockPromptCacheOptions;
  /**
   * Like the API, refuse (400 `invalid_request_error`) a request with thinking on whose last
   * tool-calling assistant turn does not carry, byte for byte and in place, the thinking blocks
   * this server sent with it. @default true
   */
  checkThinking?: boolean;
  /**
   * Context management as the Anthropic API does it (`context_management` edits applied to the
   * request, `applied_edits` in the response; `POST /v1/messages/count_tokens`). `false`: a
   * provider without support, which ignores `context_management` and has no counting route.
   * @default true
   */
  contextManagement?: boolean;
  /**
   * Server compaction (`compact_20260112`) as the model does it, with context management on.
   * `false`: a model without it, which refuses the edit with a 400. @default true
   */
  serverCompaction?: boolean;
  /**
   * Tool search as the Messages API has it: deferred tools (`defer_loading`) need a search tool and
   * cost no prompt tokens until found (answer searches with `mockToolSearch`). `false`: act as a
   * provider without it, refusing (400) any `defer_loading` field or search tool. @default true
   */
  toolSearch?: boolean;
}

/** A running mock server. */
export interface MockAnthropicServer {
  /** The base URL to give a client, e.g. `http://127.0.0.1:43117`. */
  readonly url: string;
  /** Every request received, in order (unscripted and malformed ones included). */
  readonly requests: MockRecordedRequest[];
  /** Appends steps to the script. */
  enqueue(...steps: MockStep[]): void;
  /** Sets the handler used once the scripted steps are used up. */
  setHandler(handler: MockHandler | undefined): void;
  /** Scripted steps not yet used. */
  readonly pending: number;
  /** The simulated prompt cache (`undefined` with `promptCache: false`). */
  readonly promptCache: MockPromptCache | undefined;
  /** Ends every open connection (hung ones too) and stops listening. */
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1, on a free port (or `port`). A request with nothing scripted and no handler
 * gets a 500 saying "mock server: no scripted response left for request #N", so tests fail loudly.
 *
 * Like the API, the server also: estimates `usage` when a step gives none (input: four characters
 * per token of the canonical JSON of tools, system and messages, with the prompt cache's reads
 * and writes when the request has cache markers; output: four characters per token of the
 * content); cuts a scripted text at the first of the request's `stop_sequences` it contains
 * (`stop_reason: "stop_sequence"`, `stop_sequence` set) unless the step gives its own stop; and
 * refuses a malformed history (`historyRefusal`: a call without its result, an orphan result, a
 * repeated id, a first message that is not the user's, …), malformed cache markers and, with
 * thinking on, altered thinking blocks (see the options). A refused request uses no scripted step.
 *
 * @example
 * const server = await startMockAnthropicServer({ responses: [{ content: "Hello!" }, { fault: "status", status: 529 }] });
 * const client = createAnthropicClient({ apiKey: "test-key", baseURL: server.url });
 * // … server.requests[0].body.messages …
 * await server.close();
 */
export async function startMockAnthropicServer(
  options: MockAnthropicServerOptions = {},
): Promise<MockAnthropicServer> {
  const queue: MockStep[] = [...(options.responses ?? [])];
  let handler = options.handler;
  const requests: MockRecordedRequest[] = [];
  const lifetime = new AbortController();
  // Every open exchange listens for the server closing: as many listeners as requests in flight.
  setMaxListeners(0, lifetime.signal);
  const state: ServerState = {
    requests,
    takeStep: () => nextStep(queue, handler),
    cache:
      options.promptCache === false
        ? undefined
        : new MockPromptCache(options.promptCache === true ? {} : options.promptCache),
    thinking: options.checkThinking === false ? undefined : new ThinkingLedger(),
    contextManagement: options.contextManagement !== false,
    compaction: { ledger: new MockCompactionLedger(), modelCompacts: options.serverCompaction !== false },
    toolSearch: options.toolSearch ?? true,
  };

  const server = createServer((request, response) => {
    const exchange = startExchange(request, response, lifetime.signal);
    handleRequest(exchange, state).catch((error: unknown) => {
      if (!response.headersSent && !response.destroyed) {
        sendJson(
          exchange,
          500,
          apiErrorBody("api_error", `mock server: ${error instanceof Error ? error.message : String(error)}`),
        );
      } else {
        response.destroy();
      }
    });
  });
  const port = await listen(server, options.port ?? 0);
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...steps) => {
      queue.push(...steps);
    },
    setHandler: (next) => {
      handler = next;
    },
    get pending() {
      return queue.length;
    },
    promptCache: state.cache,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        lifetime.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function nextStep(
  queue: MockStep[],
  handler: MockHandler | undefined,
): ((body: any, index: number) => MockStep | Promise<MockStep>) | undefined {
  const scripted = queue.shift();
  if (scripted) return () => scripted;
  return handler;
}

/** What every exchange of one server shares. */
interface ServerState {
  requests: MockRecordedRequest[];
  takeStep: () => ReturnType<typeof nextStep>;
  cache: MockPromptCache | undefined;
  thinking: ThinkingLedger | undefined;
  contextManagement: boolean;
  compaction: MockCompactionSupport;
  /** Whether tool search is supported (`MockAnthropicServerOptions.toolSearch`). */
  toolSearch: boolean;
}

async function handleRequest(exchange: Exchange, state: ServerState): Promise<void> {
  const { request } = exchange;
  const text = await readBody(request);
  let body = parseJson(text) as any;
  state.requests.push({
    method: request.method ?? "",
    path: request.url ?? "",
    headers: { ...request.headers },
    body: body ?? text,
  });
  exchange.number = state.requests.length;
  exchange.requestId = `req_mock_${exchange.number}`;

  const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
  const vertex = vertexRouteOf(pathname);
  if (request.method === "POST" && pathname === COUNT_TOKENS_PATH && state.contextManagement && body)
    return sendJson(exchange, ...countMockTokens(body, request.headers, state.compaction));
  if (request.method !== "POST" || (pathname !== "/v1/messages" && !vertex)) {
    return sendJson(
      exchange,
      404,
      apiErrorBody("not_found_error", `mock server: no route for ${request.method} ${pathname}`),
    );
  }
  if (typeof body !== "object" || body === null) {
    return sendJson(
      exchange,
      400,
      apiErrorBody("invalid_request_error", "mock server: the request body is not a JSON object"),
    );
  }
  const prepared = prepareBody(exchange, state, body, vertex);
  if ("refusal" in prepared) return refuse(exchange, prepared.refusal);
  const { context } = prepared;
  ({ body } = context);
  const cached = state.cache?.prepare(body, apiKeyOf(request.headers));
  const refusal = toolSearchRefusal(body, state.toolSearch) ?? cacheOrThinkingRefusal(body, state, cached);
  if (refusal !== undefined) return refuse(exchange, refusal);
  const answer = state.takeStep();
  if (!answer) {
    return sendJson(
      exchange,
      500,
      apiErrorBody("api_error", `mock server: no scripted response left for request #${exchange.number}`),
    );
  }
  const step = await answer(body, exchange.number - 1);
  const problem = stepProblem(step);
  if (problem !== undefined) {
    return sendJson(
      exchange,
      500,
      apiErrorBody("api_error", `mock server: the step for request #${exchange.number} ${problem}`),
    );
  }
  const stream = body.stream === true;
  const estimate = () => ({ input_tokens: Math.max(1, estimatePromptTokens(body)) });
  if ("fault" in step) {
    return injectFault(exchange, step, stream, (response) =>
      toMessageBody(response, body, exchange.number, estimate()),
    );
  }
  await pause(step.delayMs, exchange.signal);
  const inputUsage = cached && "commit" in cached ? cached.commit() : estimate();
  const message = withCompaction(
    { ...toMessageBody(step, body, exchange.number, inputUsage), ...context.response },
    context.compaction,
  );
  state.thinking?.record(message.content);
  if (!stream) return sendJson(exchange, 200, message, step.headers);
  if ((!step.eventDelayMs || step.eventDelayMs <= 0) && !step.pauseAfterBlock)
    return sendEventStream(exchange, buildStreamEvents(message), step.headers);
  startEventStream(exchange, step.headers);
  await writeEvents(exchange, buildStreamEvents(message), step.eventDelayMs, step.pauseAfterBlock);
  exchange.response.end();
}

/**
 * The body the model answers: a Vertex body adapted to the Messages API's, then context management
 * applied (the edited messages recorded on the request); or why the request is refused.
 */
function prepareBody(
  exchange: Exchange,
  state: ServerState,
  body: any,
  vertex: ReturnType<typeof vertexRouteOf>,
): { refusal: string } | { context: Exclude<MockContextOutcome, { error: string }> } {
  let messagesBody = body;
  if (vertex) {
    const adapted = messagesBodyOfVertex(vertex, body);
    if ("refusal" in adapted) return adapted;
    messagesBody = adapted.body;
  }
  const malformed = historyRefusal(messagesBody.messages);
  if (malformed !== undefined) return { refusal: malformed };
  const context = applyMockContextManagement(
    messagesBody,
    exchange.request.headers,
    state.contextManagement,
    state.compaction,
  );
  if ("error" in context) return { refusal: context.error };
  if (context.editedMessages) state.requests.at(-1)!.editedMessages = context.editedMessages;
  return { context };
}

/**
 * The message for a step: its content cut at the request's first stop sequence when the step
 * gives no stop of its own, its usage or the estimate.
 */
function toMessageBody(
  step: MockResponse,
  body: any,
  number: number,
  inputUsage: Omit<Usage, "output_tokens">,
): MockMessageBody {
  const scripted =
    typeof step.content === "string" ? [{ type: "text" as const, text: step.content }] : step.content;
  const ownStop = step.stop_reason !== undefined || step.stop_sequence !== undefined;
  const stopSequences = Array.isArray(body.stop_sequences)
    ? body.stop_sequences.filter((value: unknown) => typeof value === "string")
    : [];
  const cut = ownStop || stopSequences.length === 0 ? undefined : cutAtStopSequence(scripted, stopSequences);
  return buildMessageBody({
    content: cut?.content ?? scripted,
    stopReason: step.stop_reason,
    stopSequence: cut?.stopSequence ?? step.stop_sequence,
    usage: step.usage,
    id: step.id ?? `msg_mock_${number}`,
    model: step.model ?? (typeof body.model === "string" ? body.model : "mock-model"),
    requestChars: 0,
    inputUsage,
  });
}

/** Refuses the request as the API does: a 400 `invalid_request_error` saying why. */
function refuse(exchange: Exchange, message: string): void {
  sendJson(exchange, 400, apiErrorBody("invalid_request_error", message, exchange.requestId));
}

/** Why the prompt cache or the thinking check refuses the request, or `undefined`. */
function cacheOrThinkingRefusal(
  body: any,
  state: ServerState,
  cached: ReturnType<MockPromptCache["prepare"]> | undefined,
): string | undefined {
  return (cached && "error" in cached ? cached.error : undefined) ?? state.thinking?.check(body);
}

/** The API key a request carries (`x-api-key`, else a bearer token); "" when keyless. */
function apiKeyOf(headers: IncomingHttpHeaders): string {
  const key = headers["x-api-key"];
  if (typeof key === "string" && key) return key;
  const authorization = headers.authorization;
  return typeof authorization === "string" ? authorization.replace(/^Bearer\s+/i, "") : "";
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
