/**
 * Step 2 of the loop: the main request of a turn, made and its answer taken in. Its fields and
 * settings are built on the first turn of a query and refreshed on each one rather than rebuilt (a
 * model call copies them into the request it sends, so refreshing them later changes nothing sent).
 * @module
 */
import { isBlankText } from "../../messages/blank-text";
import type { AssistantModelMessage, MessageMeta } from "../../messages/types";
import { copyWith } from "../../shared/copy-with";
import { isoTime } from "../../shared/iso-time";
import type { LoopContext } from "../state/loop-context";
import type { QueryState } from "../state/query-state";
import { callModel, type ModelCallSettings, type RequestBase, type StreamObserver } from "./call-model";
import { manageContext, observeContext } from "./manage-context";
import { type ModelCallTiming, type ModelOutcome, type ModelReply, unfinishedOf } from "./model-outcome";
import { recordUsage } from "./record-usage";
import { setRequestSettings } from "./request-settings";

/** The main request's parts, reused by every turn of one query. */
export class MainRequest {
  private base: RequestBase | undefined;
  private callSettings: ModelCallSettings | undefined;
  /** Stream events are held back until the response is checked (see {@link QueryState.heldEvents}). */
  private readonly holdEvents: boolean;
  /** This request races the parallel input guardrails: it sends the prompt they check. */
  private racing = false;
  /** The agent the fields and settings were built for: a handoff rebuilds them for the specialist. */
  private agent: string | undefined;

  constructor(
    private readonly loop: LoopContext<unknown>,
    private readonly query: QueryState,
  ) {
    const { guardrails, modelSettings } = loop.config;
    this.holdEvents =
      modelSettings.streamEvents &&
      (guardrails?.output !== undefined || guardrails?.parallelInput !== undefined);
  }

  /**
   * Makes this turn's request (`streamedCalls`: what starts read-only calls while it streams) and
   * takes in what it returned: context management's report, the usage (an `unknown_pricing` notice
   * may follow) and the result text — or, cut off while streaming, the text it had shown.
   */
  call(streamedCalls: StreamObserver | undefined, signal?: AbortSignal): Promise<ModelReply> {
    const { loop, query } = this;
    if (loop.config.agentName !== this.agent) this.changeAgent();
    const settings = this.settings();
    settings.streamedCalls = streamedCalls;
    settings.signal = signal;
    this.racing = signal !== undefined;
    // Held back until the response is checked: output guardrails, or parallel input ones racing it.
    if (this.holdEvents) settings.heldEvents = query.heldEvents = [];
    return callModel(loop, query, this.fields(), settings).then(this.takeIn);
  }

  /** What the call returned, taken in (a handler made once: a turn's call costs one reaction, no closure). */
  private readonly takeIn = (reply: ModelOutcome): ModelReply => {
    observeContext(this.loop, this.query, reply);
    return takeReply(this.loop, this.query, reply);
  };

  /** Another agent answers from this turn on (a handoff): its system prompt, tools, model and settings. */
  private changeAgent(): void {
    const { config } = this.loop;
    this.agent = config.agentName;
    this.base = undefined;
    this.callSettings = undefined;
    this.query.settleAgent(config.agentName, config.modelSettings);
  }

  /** The request fields of this turn: the history and tool set as they are now. */
  private fields(): RequestBase {
    const { conversation } = this.loop;
    if (!this.base) {
      const { modelSettings } = this.loop.config;
      this.base = {
        system: conversation.systemPrompt(modelSettings.systemPrompt),
        messages: conversation.history.messages,
        tools: conversation.tools.requestDefinitions(conversation.history.messages),
        maxTokens: this.query.maxTokens,
        outputFormat: modelSettings.outputFormat,
        // The query's settings (the agent's, with its overrides), resolved once per query.
        settings: setRequestSettings(this.query.settings),
      };
    }
    // Cached until the tool set changes, or tool search finds more (appended); a forced deferred tool is loaded.
    this.base.tools = conversation.tools.requestDefinitions(
      conversation.history.messages,
      this.base.settings.toolChoice,
    );
    // History (replaced by compaction and replaceHistory), or the edited copy this turn sends.
    manageContext(this.loop, this.base, conversation.model, this.racing);
    return this.base;
  }

  /** The call settings of this turn: the model as `setModel()` left it. */
  private settings(): ModelCallSettings {
    const model = this.loop.conversation.model;
    if (!this.callSettings) {
      const { modelSettings } = this.loop.config;
      this.callSettings = {
        model,
        fallbackModel: modelSettings.fallbackModel,
        streamEvents: modelSettings.streamEvents,
        applyRequestHooks: true,
      };
    }
    this.callSettings.model = model;
    return this.callSettings;
  }
}

/** A response's usage is counted and its text kept; a request cut off while streaming leaves its text. */
function takeReply(loop: LoopContext<unknown>, query: QueryState, reply: ModelOutcome): ModelReply {
  if (reply.kind !== "response") {
    const text = unfinishedOf(reply)?.text;
    if (text) query.takeUnfinishedText(text);
    return { kind: "unanswered", failure: reply };
  }
  query.answeredText = textOf(reply.message);
  recordUsage(loop.conversation, query, reply.model, reply.message.usage, query.outgoing.emit);
  // With handoffs, who answered is recorded beside the turn (a name from the agent's own options).
  const agent = loop.config.handoffs ? loop.config.agentName : undefined;
  const response = withTurnMeta(
    withoutBlankText(reply.message),
    reply.timing,
    query.ledger.lastCostUsd,
    agent,
    loop.services.client.freshMessages === true,
  );
  // Nothing but the loop's numbers, time stamps and agent name: history need not walk it (see QueryState.turnMeta).
  query.turnMeta =
    reply.message.meta === undefined && reply.timing?.fallbackFrom === undefined ? response.meta : undefined;
  query.stopReason = response.stop_reason ?? null;
  query.stopSequence = response.stop_sequence;
  return { kind: "answered", response };
}

/**
 * The response as history may hold it: without blank text blocks (empty or whitespace only), which
 * the provider refuses when they are sent back. The client's message is not changed.
 */
function withoutBlankText(message: AssistantModelMessage): AssistantModelMessage {
  if (!message.content.some(isBlankText)) return message;
  return { ...message, content: message.content.filter((block) => !isBlankText(block)) };
}

/**
 * The response with what the turn was beside it ({@link MessageMeta}: times, latency, cost,
 * retries, fallback, the agent that answered) — recorded, never sent. A new object, so the client's
 * message is not changed — unless the client says its messages are fresh (`freshMessages`: nobody
 * else holds them), then the meta is added to the message itself.
 */
function withTurnMeta(
  message: AssistantModelMessage,
  timing: ModelCallTiming | undefined,
  costUsd: number,
  agent: string | undefined,
  inPlace: boolean,
): AssistantModelMessage {
  const meta: MessageMeta = { ...message.meta };
  if (agent !== undefined) meta.agent = agent;
  if (timing) {
    meta.started_at = isoTime(timing.startedAt);
    meta.ended_at = isoTime(timing.endedAt);
    meta.latency_ms = timing.endedAt - timing.startedAt;
    if (timing.retries > 0) meta.retries = timing.retries;
    if (timing.fallbackFrom !== undefined) meta.fallback_from = timing.fallbackFrom;
  }
  meta.cost_usd = costUsd;
  if (!inPlace) return copyWith(message, "meta", meta);
  message.meta = meta;
  return message;
}

/** The text blocks of `message` joined, whitespace-only ones included. */
function textOf(message: AssistantModelMessage): string {
  let text = "";
  for (const block of message.content) if (block.type === "text") text += block.text;
  return text;
}
