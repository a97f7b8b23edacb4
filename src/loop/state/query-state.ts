/**
 * The state of one query: its counters, its cost ledger, its result text, its denials, its
 * cancellation and the channel its messages take. Created by the agent for each prompt cycle.
 * @module
 */
import type { ModelPricing } from "../../cost/pricing";
import { CostLedger, type SpendSink } from "../../cost/usage";
import type { StageDecision } from "../../guardrails/run-guardrails";
import type { PermissionDenial, SDKMessage } from "../../messages/sdk-messages";
import type { MessageMeta, StopReason } from "../../messages/types";
import { NOOP_SPAN, type SpanHandle } from "../../telemetry/telemetry";
import type { RequestSettings } from "./loop-config";
import { OutgoingMessages, type StoreNotices } from "./outgoing-messages";
import { QuerySignals } from "./query-signals";

/** How a query starts. */
export interface QuerySetup {
  /** The caller's signal: aborting it ends the query `error_abort`. */
  signal: AbortSignal | undefined;
  /** Deadline of each model request in this query (the per-query override or the agent default). */
  requestTimeoutMs: number | undefined;
  startedAt: number;
  /** The model settings of this query's main requests: the agent's, with the query's overrides. */
  settings: Readonly<RequestSettings>;
  /** The output budget of this query's main responses (the query's `maxTokens` or the agent's). */
  maxTokens: number;
  pricing: Readonly<Record<string, ModelPricing>>;
  /** Where the ledger passes on what it records, as it comes (a subagent's child: the parent's budget). */
  spendUpstream?: SpendSink;
  /** Where the history store reports its failures. */
  storeNotices: StoreNotices<SDKMessage<unknown>>;
  /** What every message the query yields is cleaned of (see `OutgoingMessages`). */
  secrets?: readonly string[];
  /** The agent whose settings `settings` and `maxTokens` are (`AgentOptions.name`). */
  agent?: string;
  /** With handoffs: the agent answering now, whose spending the ledger keeps apart (`agent_usage`). */
  agentOf?: () => string;
  /**
   * A handoff's specialist answers: its settings and output budget, with the query's overrides
   * (`QueryOptions`). Absent: the query's settings stay as they are.
   */
  settingsFor?: (agent: AgentModelSettings) => { settings: Readonly<RequestSettings>; maxTokens: number };
}

/** An agent's own model settings and output budget (its `LoopConfig.modelSettings`). */
export interface AgentModelSettings {
  readonly request: Readonly<RequestSettings>;
  readonly maxTokens: number;
}

/** One running query. */
export class QueryState {
  /** When the query was created (for `duration_ms`). */
  readonly startedAt: number;
  /** Deadline of each model request in this query. */
  readonly requestTimeoutMs: number | undefined;
  /** The model settings of this query's main requests: the answering agent's, with the query's overrides. */
  settings: Readonly<RequestSettings>;
  /** The output budget of this query's main responses. */
  maxTokens: number;
  /** The agent whose settings `settings` are. */
  private agent: string | undefined;
  private readonly settingsFor: QuerySetup["settingsFor"];
  /** Usage and cost of every response of this query. */
  readonly ledger: CostLedger;
  /** Tool calls refused by a permission rule, a hook or `canUseTool`. */
  readonly denials: PermissionDenial[] = [];
  /** Its cancellation. */
  readonly signals: QuerySignals;
  /** Notices and handed-over messages on their way to the consumer. */
  readonly outgoing: OutgoingMessages<SDKMessage<unknown>>;
  /** Model requests answered (a request retried after overflow recovery counts once). */
  /** The checkpoint of the prompt this query added (`meta.checkpoint_id`); unset for a resume. */
  checkpointId: string | undefined = undefined;
  turns = 0;
  /** The stop reason of the latest response. */
  stopReason: StopReason | null = null;
  /** Which stop sequence ended the latest response, when it reported one. */
  stopSequence: string | null | undefined = undefined;
  /** Text of the latest assistant response (continuations joined). */
  resultText = "";
  /**
   * The result text of a query that ends without success: the latest text it produced — of the
   * latest response that had text, or of a response cut off while streaming — never blank when
   * some response of this query had text.
   */
  partialText = "";
  /** Text-only max_tokens continuations made so far. */
  continuations = 0;
  /** Whether overflow recovery already ran in this query. */
  overflowRecoveryUsed = false;
  /** The `invoke_agent` span of this query (a no-op without telemetry). */
  span: SpanHandle = NOOP_SPAN;
  /** The next response continues a text cut at max_tokens: join its text to the result. */
  private joinNextText = false;
  /** The parallel input guardrails' decision, while the first request races it. */
  inputCheck: Promise<StageDecision> | undefined = undefined;
  /**
   * The stream events of the current request, held back until its response is checked (output or
   * parallel input guardrails with `includePartialMessages`); undefined when nothing is held.
   */
  heldEvents: SDKMessage<unknown>[] | undefined = undefined;
  /**
   * The `meta` the loop gave the latest response when it built it from its own clock and arithmetic
   * alone (times, latency, cost: no string anyone else wrote), so history's redaction need not walk
   * it; unset when anything else went into it, or other code could reach it before it is recorded.
   */
  turnMeta: MessageMeta | undefined = undefined;

  constructor(setup: QuerySetup) {
    this.startedAt = setup.startedAt;
    this.requestTimeoutMs = setup.requestTimeoutMs;
    this.settings = setup.settings;
    this.maxTokens = setup.maxTokens;
    this.agent = setup.agent;
    this.settingsFor = setup.settingsFor;
    this.ledger = new CostLedger(setup.pricing, setup.spendUpstream, setup.agentOf);
    this.signals = new QuerySignals(setup.signal);
    this.outgoing = new OutgoingMessages(setup.storeNotices, setup.secrets);
  }

  /**
   * The text the model wrote in its latest answer, whitespace-only blocks included (history drops
   * them, the result text keeps them: "JST. Opened in", paragraph breaks).
   */
  answeredText = "";

  /** The answer's text becomes the result text (joined to the previous one after a continuation). */
  takeText(): void {
    const text = this.answeredText;
    this.resultText = this.joinNextText ? this.resultText + text : text;
    this.joinNextText = false;
    if (this.resultText !== "") this.partialText = this.resultText;
  }

  /** A response cut off while streaming: its text so far is the latest text of the query. */
  takeUnfinishedText(text: string): void {
    if (text) this.partialText = this.joinNextText ? this.resultText + text : text;
  }

  /**
   * Agent `name` answers (a handoff): the main requests take its settings, with the query's
   * overrides. A no-op when they already are its.
   */
  settleAgent(name: string, modelSettings: AgentModelSettings): void {
    if (name === this.agent || !this.settingsFor) return;
    const { settings, maxTokens } = this.settingsFor(modelSettings);
    this.settings = settings;
    this.maxTokens = maxTokens;
    this.agent = name;
  }

  /** The next response continues this one's text, cut at max_tokens. */
  continueText(): void {
    this.continuations += 1;
    this.joinNextText = true;
  }
}
