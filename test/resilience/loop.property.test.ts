/**
 * Property: whatever the model does and whatever goes wrong — text, tool calls (read-only and
 * mutating, synchronous or not, failing or not), truncation, transient and fatal errors, hangs
 * past the deadline, aborts and interrupts at random points, budgets and turn limits — every query
 * ends with exactly one result message, last, whose subtype, text, turn count, usage and cost are
 * what a reference model of the loop predicts; history stays well-formed; and the agent takes the
 * next prompt.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { costOf, findPricing } from "../../src/cost/pricing";
import {
  type Agent,
  type ContentBlock,
  createAgent,
  DEFAULT_PRICING,
  defineTool,
  isWellFormedHistory,
  type ResultSubtype,
  type SDKMessage,
  type SDKResultMessage,
  type Usage,
} from "../../src/index";
import { createScriptedClient, type ScriptedResponse } from "../../src/testing/index";

const MODEL = "claude-sonnet-4-6";
const PRICE = findPricing(MODEL, DEFAULT_PRICING)!;
const REQUEST_TIMEOUT_MS = 15;

// ---------------------------------------------------------------------------------------------
// Scenario shapes

type CallAction = "none" | "fail" | "abort" | "interrupt";
interface CallPlan {
  tool: "read" | "write";
  action: CallAction;
  /** The tool answers synchronously (returns or throws without a promise). */
  sync: boolean;
}

/** A turn the loop goes on after (unless a limit or a cancellation inside it ends the query). */
type OngoingTurn =
  | { kind: "tools"; text: string; calls: CallPlan[] }
  | { kind: "truncatedTool"; text: string; calls: CallPlan[] }
  | { kind: "truncatedText"; text: string };

/** A turn that ends the query one way or another. */
type FinalTurn =
  | { kind: "text"; text: string }
  | { kind: "fatal" }
  | { kind: "exhausted" }
  | { kind: "hang" }
  | { kind: "cancelInRequest"; how: "abort" | "interrupt" }
  | { kind: "cancelInRetryWait"; how: "abort" | "interrupt" };

type Turn = (OngoingTurn | FinalTurn) & { faults: number; usage: Usage };

interface Settings {
  maxRetries: number;
  maxTurns: number;
  maxTokensContinuations: number;
  toolConcurrency: number;
  maxBudgetUsd: number | undefined;
  includePartialMessages: boolean;
}

// ---------------------------------------------------------------------------------------------
// Generators

const usageArbitrary: fc.Arbitrary<Usage> = fc.record({
  input_tokens: fc.integer({ min: 0, max: 5_000 }),
  output_tokens: fc.integer({ min: 0, max: 2_000 }),
  cache_creation_input_tokens: fc.integer({ min: 0, max: 3_000 }),
  cache_read_input_tokens: fc.integer({ min: 0, max: 3_000 }),
});

const textArbitrary = fc.constantFrom("", "Working on it. ", "Partial ans", "wer. ", "Done.", "Note: ");

const callArbitrary: fc.Arbitrary<CallPlan> = fc.record({
  tool: fc.constantFrom("read", "write"),
  action: fc.oneof(
    { weight: 12, arbitrary: fc.constant<CallAction>("none") },
    { weight: 3, arbitrary: fc.constant<CallAction>("fail") },
    { weight: 1, arbitrary: fc.constant<CallAction>("abort") },
    { weight: 1, arbitrary: fc.constant<CallAction>("interrupt") },
  ),
  sync: fc.boolean(),
});

const ongoingArbitrary: fc.Arbitrary<OngoingTurn> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("tools" as const),
      text: textArbitrary,
      calls: fc.array(callArbitrary, { minLength: 1, maxLength: 4 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("truncatedTool" as const),
      text: textArbitrary,
      calls: fc.array(callArbitrary, { minLength: 1, maxLength: 2 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("truncatedText" as const), text: textArbitrary }) },
);

const finalArbitrary: fc.Arbitrary<FinalTurn> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("text" as const), text: textArbitrary }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("fatal" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("exhausted" as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("hang" as const) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("cancelInRequest" as const),
      how: fc.constantFrom("abort" as const, "interrupt" as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("cancelInRetryWait" as const),
      how: fc.constantFrom("abort" as const, "interrupt" as const),
    }),
  },
);

function withFaultsAndUsage<T>(turn: fc.Arbitrary<T>): fc.Arbitrary<T & { faults: number; usage: Usage }> {
  return fc
    .record({
      turn,
      faults: fc.oneof(
        { weight: 4, arbitrary: fc.constant(0) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 3 }) },
      ),
      usage: usageArbitrary,
    })
    .map(({ turn, faults, usage }) => ({ ...turn, faults, usage }));
}

/** One query: its turns, and what the caller does around it. */
interface QueryPlan {
  turns: Turn[];
  /** `interrupt()` on the idle agent just before the query (must not leak into it). */
  interruptWhileIdle: boolean;
  /** The query's signal is already aborted when it starts. */
  preAborted: boolean;
  /** The consumer stops reading (breaks out of the loop) after this many messages. */
  breakAfter: number | undefined;
}

const queryArbitrary: fc.Arbitrary<QueryPlan> = fc.record({
  turns: fc
    .tuple(
      fc.array(withFaultsAndUsage(ongoingArbitrary), { maxLength: 5 }),
      withFaultsAndUsage(finalArbitrary),
    )
    .map(([ongoing, final]) => [...ongoing, final] as Turn[]),
  interruptWhileIdle: fc.boolean(),
  preAborted: fc.oneof(
    { weight: 12, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  breakAfter: fc.oneof(
    { weight: 6, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 10 }) },
  ),
});

const settingsArbitrary: fc.Arbitrary<Settings> = fc.record({
  maxRetries: fc.integer({ min: 0, max: 2 }),
  maxTurns: fc.integer({ min: 1, max: 7 }),
  maxTokensContinuations: fc.integer({ min: 0, max: 2 }),
  toolConcurrency: fc.integer({ min: 1, max: 3 }),
  maxBudgetUsd: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.double({ min: 0, max: 0.2, noNaN: true }) },
  ),
  includePartialMessages: fc.boolean(),
});

// ---------------------------------------------------------------------------------------------
// The reference model: what the loop must report for one query.

interface Expected {
  subtype: ResultSubtype;
  numTurns: number;
  usage: Required<Omit<Usage, "cache_creation">>;
  costUsd: number;
  text: string;
  stopReason: string | null;
  retries: number;
  /** Calls that must never run (from truncated responses or over-budget responses). */
  unrunCallIds: string[];
}

function expectedOutcome(plan: QueryPlan, settings: Settings, callIds: string[][]): Expected {
  const turns = plan.turns;
  const usage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
  let costUsd = 0;
  let numTurns = 0;
  let retries = 0;
  let continuations = 0;
  let text = "";
  // A query that does not succeed reports the latest text it produced, never a blank after text.
  let partialText = "";
  let joinNext = false;
  let stopReason: string | null = null;
  let cancelled: "abort" | "interrupt" | undefined;
  const unrunCallIds: string[] = [];
  const end = (subtype: ResultSubtype): Expected => ({
    subtype,
    numTurns,
    usage,
    costUsd,
    text: subtype === "success" ? text : partialText,
    stopReason,
    retries,
    unrunCallIds,
  });

  if (plan.preAborted) return end("error_abort");
  for (const [index, turn] of turns.entries()) {
    if (cancelled === "abort") return end("error_abort");
    if (cancelled === "interrupt") return end("interrupted");
    if (numTurns >= settings.maxTurns) return end("error_max_turns");
    numTurns += 1;

    if (turn.kind === "exhausted" || turn.faults > settings.maxRetries) {
      retries += settings.maxRetries;
      return end("error_during_execution");
    }
    retries += turn.faults;
    switch (turn.kind) {
      case "fatal":
        return end("error_during_execution");
      case "hang":
        return end("error_timeout");
      case "cancelInRequest":
        return end(turn.how === "abort" ? "error_abort" : "interrupted");
      case "cancelInRetryWait":
        // One more transient failure, whose retry wait is cancelled — unless no retry is left.
        if (turn.faults + 1 > settings.maxRetries) return end("error_during_execution");
        retries += 1;
        return end(turn.how === "abort" ? "error_abort" : "interrupted");
    }

    // A response arrives: it is recorded, costed, and enters history.
    addUsage(usage, turn.usage);
    costUsd += costOf(turn.usage, PRICE);
    stopReason = turn.kind === "tools" ? "tool_use" : turn.kind === "text" ? "end_turn" : "max_tokens";
    text = joinNext ? text + turn.text : turn.text;
    if (text !== "") partialText = text;
    joinNext = false;
    const ids = callIds[index] ?? [];
    if (settings.maxBudgetUsd !== undefined && costUsd > settings.maxBudgetUsd) {
      unrunCallIds.push(...ids);
      return end("error_max_budget_usd");
    }
    switch (turn.kind) {
      case "text":
        return end("success");
      case "truncatedText":
        if (continuations < settings.maxTokensContinuations) {
          continuations += 1;
          joinNext = true;
          continue;
        }
        return end("success");
      case "truncatedTool":
        unrunCallIds.push(...ids);
        continue;
      case "tools":
        if (turn.calls.some((call) => call.action === "abort")) cancelled = "abort";
        else if (turn.calls.some((call) => call.action === "interrupt")) cancelled = "interrupt";
        continue;
    }
  }
  throw new Error("a query script always ends with a final turn");
}

function addUsage(total: Required<Omit<Usage, "cache_creation">>, part: Usage): void {
  total.input_tokens += part.input_tokens;
  total.output_tokens += part.output_tokens;
  total.cache_creation_input_tokens += part.cache_creation_input_tokens ?? 0;
  total.cache_read_input_tokens += part.cache_read_input_tokens ?? 0;
}

// ---------------------------------------------------------------------------------------------
// The world: a scripted client playing the turns, tools acting out their plans, injected sleep.

class World {
  agent!: Agent;
  controller = new AbortController();
  turns: Turn[] = [];
  callIds: string[][] = [];
  private turnIndex = 0;
  private faultsServed = 0;
  private cancelInNextSleep: "abort" | "interrupt" | undefined;
  private nextCallId = 0;
  readonly callPlans = new Map<string, CallPlan>();
  readonly executions = new Map<string, number>();

  constructor(readonly settings: Settings) {}

  startQuery(plan: QueryPlan): void {
    const turns = plan.turns;
    this.turns = turns;
    this.turnIndex = 0;
    this.faultsServed = 0;
    this.cancelInNextSleep = undefined;
    this.controller = new AbortController();
    if (plan.preAborted) this.controller.abort(new Error("aborted before it started"));
    if (plan.interruptWhileIdle) this.agent.interrupt();
    this.callIds = turns.map((turn) =>
      "calls" in turn
        ? turn.calls.map((plan) => {
            const id = `toolu_${++this.nextCallId}`;
            this.callPlans.set(id, plan);
            return id;
          })
        : [],
    );
  }

  /** The scripted client's step: a transient fault, or this turn's response. */
  step(): ScriptedResponse | Error {
    const turn = this.turns[this.turnIndex];
    if (!turn) return new Error("the script has no turn left (the loop asked for more than expected)");
    if (turn.kind === "exhausted") return transient();
    if (this.faultsServed < turn.faults) {
      this.faultsServed += 1;
      return transient();
    }
    if (turn.kind === "cancelInRetryWait") {
      this.cancelInNextSleep = turn.how;
      return transient();
    }
    const ids = this.callIds[this.turnIndex]!;
    this.turnIndex += 1;
    this.faultsServed = 0;
    switch (turn.kind) {
      case "fatal":
        return Object.assign(new Error("invalid request"), { status: 400 });
      case "hang":
        return { content: "never", hang: true };
      case "cancelInRequest":
        this.cancel(turn.how);
        return { content: "too late", usage: turn.usage };
      case "text":
        return { content: blocks(turn.text, []), stop_reason: "end_turn", usage: turn.usage };
      case "truncatedText":
        return { content: blocks(turn.text, []), stop_reason: "max_tokens", usage: turn.usage };
      case "truncatedTool":
        return { content: blocks(turn.text, ids), stop_reason: "max_tokens", usage: turn.usage };
      case "tools":
        return { content: blocks(turn.text, ids), stop_reason: "tool_use", usage: turn.usage };
    }
  }

  sleep(signal: AbortSignal): Promise<void> {
    const how = this.cancelInNextSleep;
    this.cancelInNextSleep = undefined;
    if (!how) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
    return new Promise((_, reject) => {
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      this.cancel(how);
    });
  }

  execute(id: string): string | Promise<string> {
    this.executions.set(id, (this.executions.get(id) ?? 0) + 1);
    const plan = this.callPlans.get(id)!;
    if (plan.sync) return this.actOut(id, plan);
    return Promise.resolve().then(() => this.actOut(id, plan));
  }

  private actOut(id: string, plan: CallPlan): string {
    if (plan.action === "fail") throw new Error(`tool ${id} failed`);
    if (plan.action === "abort" || plan.action === "interrupt") this.cancel(plan.action);
    return `result of ${id}`;
  }

  cancel(how: "abort" | "interrupt"): void {
    if (how === "abort") this.controller.abort(new Error("cancelled by the test"));
    else this.agent.interrupt();
  }

  tools() {
    const make = (name: "read" | "write") =>
      defineTool({
        name,
        inputSchema: z.object({ id: z.string() }),
        readOnly: name === "read",
        execute: ({ id }) => this.execute(id),
      });
    return [make("read"), make("write")];
  }
}

function transient(): Error {
  return Object.assign(new Error("overloaded"), { status: 529, error: { type: "overloaded_error" } });
}

function blocks(text: string, ids: string[]): ContentBlock[] {
  const content: ContentBlock[] = text ? [{ type: "text", text }] : [];
  for (const id of ids) content.push({ type: "tool_use", id, name: nameOf(id), input: { id } });
  return content;
}

let planLookup: Map<string, CallPlan> = new Map();
function nameOf(id: string): string {
  return planLookup.get(id)!.tool;
}

// ---------------------------------------------------------------------------------------------

async function runScenario(settings: Settings, queries: QueryPlan[]): Promise<void> {
  const world = new World(settings);
  planLookup = world.callPlans;
  const client = createScriptedClient(() => world.step(), { record: false });
  world.agent = createAgent({
    model: MODEL,
    client,
    tools: world.tools(),
    maxTurns: settings.maxTurns,
    maxTokensContinuations: settings.maxTokensContinuations,
    toolConcurrency: settings.toolConcurrency,
    maxBudgetUsd: settings.maxBudgetUsd,
    includePartialMessages: settings.includePartialMessages,
    // The model of this test runs a turn's tools after its response; a read tool that interrupts
    // would, started early, cut the response itself (covered in test/tool-calls/streamed-tool-calls).
    streamingToolExecution: false,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    retry: { maxRetries: settings.maxRetries, initialDelayMs: 10, maxDelayMs: 100 },
    _internal: { sleep: (_ms, signal) => world.sleep(signal) },
  });

  for (const plan of [...queries, finalQuery()]) {
    world.startQuery(plan);
    const expected = expectedOutcome(plan, settings, world.callIds);
    const messages: SDKMessage[] = [];
    for await (const message of world.agent.query("go", { signal: world.controller.signal })) {
      messages.push(message);
      if (plan.breakAfter !== undefined && messages.length >= plan.breakAfter && message.type !== "result")
        break;
    }
    const history = await world.agent.getHistory();
    expect(isWellFormedHistory(history)).toBe(true);
    for (const count of world.executions.values()) expect(count).toBe(1);
    const results = messages.filter((message) => message.type === "result");
    if (results.length === 0) {
      // The consumer left early: nothing more to check here; the next query proves the guard was released.
      expect(plan.breakAfter).toBeDefined();
      continue;
    }
    expect(results).toHaveLength(1);
    expect(messages.at(-1)).toBe(results[0]);
    const result = results[0] as SDKResultMessage;

    expect(result.subtype).toBe(expected.subtype);
    expect(result.is_error).toBe(expected.subtype !== "success" && expected.subtype !== "interrupted");
    expect(result.num_turns).toBe(expected.numTurns);
    expect(result.result).toBe(expected.text);
    expect(result.stop_reason).toBe(expected.stopReason);
    expect(result.usage).toEqual(expected.usage);
    expect(result.total_cost_usd).toBeCloseTo(expected.costUsd, 12);
    const modelUsage = Object.values(result.model_usage);
    expect(modelUsage.reduce((sum, entry) => sum + entry.cost_usd, 0)).toBeCloseTo(result.total_cost_usd, 12);
    const retryNotices = messages.filter(
      (message) => message.type === "system" && message.subtype === "api_retry",
    );
    expect(retryNotices).toHaveLength(expected.retries);
    for (const id of expected.unrunCallIds) expect(world.executions.get(id) ?? 0).toBe(0);
  }
}

function finalQuery(): QueryPlan {
  const turn: Turn = {
    kind: "text",
    text: "The last word.",
    faults: 0,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
  return { turns: [turn], interruptWhileIdle: false, preAborted: false, breakAfter: undefined };
}

describe("the loop under random model behaviour and faults", () => {
  it("keeps its invariants after every query", async () => {
    await fc.assert(
      fc.asyncProperty(
        settingsArbitrary,
        fc.array(queryArbitrary, { minLength: 1, maxLength: 3 }),
        runScenario,
      ),
      { numRuns: 150 },
    );
  });
});
