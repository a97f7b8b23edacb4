/**
 * Assembling a streamed Messages API response: raw server-sent events in, one
 * {@link AssistantModelMessage} out.
 * @module
 */
import { ProviderError } from "../errors";
import type { AppliedContextEdit } from "../messages/applied-context-edit";
import { type PartialUsage, readUsage, toUsage } from "../messages/reported-usage";
import type { AssistantModelMessage, ContentBlock, StopReason, Usage } from "../messages/types";
import { readStopSequence, toContentBlock } from "./anthropic-response";
import type { ModelStreamEvent } from "./client";
import { readAppliedEdits } from "./context-management";
import { readCompactionUsage } from "./server-compaction";
import { StreamProtocol } from "./stream-protocol";

/**
 * Stop reasons of a response cut off mid-output: a tool input it was streaming may be incomplete
 * JSON. The loop never runs such calls (`max_tokens`) or discards the response whole (the context
 * window ran out, which overflow recovery handles), so an incomplete input is no failure then.
 */
const CUT_OFF_STOP_REASONS: ReadonlySet<string> = new Set(["max_tokens", "model_context_window_exceeded"]);

/** A block being streamed, with the input JSON received so far. */
interface BlockInProgress {
  block: ContentBlock;
  partialJson: string;
  /** The input JSON could not be parsed at `content_block_stop`. */
  malformedInput: boolean;
}

/**
 * Folds the events of one streamed response into an assistant message: text from `text_delta`s,
 * the input of any block that receives `input_json_delta` pieces (`tool_use`, `server_tool_use`,
 * `mcp_tool_use` …; a `tool_use` without any is `{}`), thinking and its signature,
 * redacted thinking as started, usage merged from `message_start` and `message_delta` (the later
 * report of a bucket wins), `stop_reason` and `stop_sequence`, the response id and the serving model.
 * Blocks keep the order of their indexes; a thinking block's signature is the concatenation of its
 * `signature_delta`s, byte for byte. A stream out of the protocol's order (see {@link StreamProtocol})
 * fails as malformed.
 */
export class StreamedMessageAssembler {
  private readonly blocks: Array<BlockInProgress | undefined> = [];
  private usage: PartialUsage | undefined;
  private stopReason: StopReason | null = null;
  private stopSequence: string | undefined;
  private responseId: string | undefined;
  private servingModel: string | undefined;
  private stopped = false;
  /** The edits the provider applied (`message_delta`'s `context_management`), when it reported them. */
  private contextManagement: AppliedContextEdit[] | undefined;
  /** The usage of a server compaction (`usage.iterations`' `compaction` entries), when reported. */
  private compactionUsage: Usage | undefined;
  private readonly protocol: StreamProtocol;

  /** `source`: how errors name the service, e.g. "Anthropic API" or "Model provider 127.0.0.1:8080". */
  constructor(private readonly source = "Anthropic API") {
    this.protocol = new StreamProtocol(source);
  }

  /** Whether any content block has started: a failure from now on loses visible output. */
  get hasContent(): boolean {
    return this.blocks.some((entry) => entry !== undefined);
  }

  /** Whether the response ended properly (`message_stop`, or a `message_delta` carrying the stop reason). */
  get isComplete(): boolean {
    return this.stopped || this.stopReason !== null;
  }

  /**
   * Applies one raw event. Unknown events and deltas are ignored.
   * @throws {ProviderError} (`malformed_stream`, retryable) for an event out of the protocol's order.
   */
  apply(event: ModelStreamEvent): void {
    this.protocol.check(event, this.hasContent);
    switch (event.type) {
      case "message_start":
        this.startMessage(event.message);
        break;
      case "content_block_start":
        this.startBlock(event.index, event.content_block);
        break;
      case "content_block_delta":
        this.applyDelta(this.blockAt(event.index), event.delta);
        break;
      case "content_block_stop":
        this.stopBlock(this.blockAt(event.index));
        break;
      case "message_delta":
        this.applyMessageDelta(event.delta, event.usage);
        this.contextManagement ??= readAppliedEdits(
          (event as { context_management?: unknown }).context_management,
        );
        break;
      case "message_stop":
        this.stopped = true;
        break;
    }
  }

  /**
   * The assembled message. A streamed input that is not valid JSON becomes `{}` when the response was
   * cut off — at `max_tokens`, or by the context window (`model_context_window_exceeded`) — since the
   * loop never runs such calls; otherwise it is a provider failure.
   */
  toMessage(): AssistantModelMessage {
    const entries = this.blocks.filter((entry): entry is BlockInProgress => entry !== undefined);
    for (const entry of entries) {
      if (entry.partialJson && !entry.malformedInput) this.finishInput(entry);
    }
    const malformed = entries.find((entry) => entry.malformedInput);
    if (malformed && !CUT_OFF_STOP_REASONS.has(this.stopReason ?? "")) {
      throw new ProviderError(
        `${this.source} stream: a ${malformed.block.type} block's input is not valid JSON.`,
        { errorType: "invalid_tool_input", retryable: true, partial: true },
      );
    }
    const message: AssistantModelMessage = {
      role: "assistant",
      content: entries.map((entry) => entry.block),
      stop_reason: this.stopReason,
    };
    if (this.stopSequence !== undefined) message.stop_sequence = this.stopSequence;
    if (this.usage) message.usage = toUsage(this.usage);
    if (this.responseId) message.providerResponseId = this.responseId;
    if (this.servingModel) message.model = this.servingModel;
    if (this.contextManagement)
      message.meta = { context_management: { applied_edits: this.contextManagement } };
    if (this.compactionUsage) message.meta = { ...message.meta, compaction_usage: this.compactionUsage };
    return message;
  }

  private startMessage(message: unknown): void {
    if (typeof message !== "object" || message === null) return;
    const { id, model, usage } = message as Record<string, unknown>;
    if (typeof id === "string" && id) this.responseId = id;
    if (typeof model === "string" && model) this.servingModel = model;
    this.mergeUsage(usage);
  }

  private startBlock(index: unknown, contentBlock: unknown): void {
    if (!isBlockIndex(index)) return;
    const block = toContentBlock(contentBlock);
    if (block.type === "tool_use" && !hasKeys(block.input)) block.input = {};
    this.blocks[index] = { block, partialJson: "", malformedInput: false };
  }

  private applyDelta(entry: BlockInProgress | undefined, delta: unknown): void {
    if (!entry || typeof delta !== "object" || delta === null) return;
    const piece = delta as Record<string, unknown>;
    const block = entry.block as unknown as Record<string, unknown>;
    switch (piece.type) {
      case "text_delta":
        if (typeof piece.text === "string") block.text = `${block.text ?? ""}${piece.text}`;
        return;
      case "input_json_delta":
        if (typeof piece.partial_json === "string") entry.partialJson += piece.partial_json;
        return;
      case "thinking_delta":
        if (typeof piece.thinking === "string") block.thinking = `${block.thinking ?? ""}${piece.thinking}`;
        return;
      case "signature_delta":
        if (typeof piece.signature === "string")
          block.signature = `${block.signature ?? ""}${piece.signature}`;
        return;
      case "compaction_delta":
        // Server compaction: the summary and its opaque part arrive whole, in one delta.
        if (piece.content !== undefined) block.content = piece.content;
        if (piece.encrypted_content !== undefined) block.encrypted_content = piece.encrypted_content;
        return;
      case "citations_delta":
        if (piece.citation !== undefined) {
          block.citations = [...(Array.isArray(block.citations) ? block.citations : []), piece.citation];
        }
        return;
    }
  }

  private stopBlock(entry: BlockInProgress | undefined): void {
    if (entry?.partialJson) this.finishInput(entry);
  }

  /** Parses the `input_json_delta` pieces a block received into its `input`, whatever the block's type. */
  private finishInput(entry: BlockInProgress): void {
    const block = entry.block as unknown as Record<string, unknown>;
    try {
      block.input = JSON.parse(entry.partialJson);
      entry.partialJson = "";
    } catch {
      block.input = {};
      entry.malformedInput = true;
    }
  }

  private applyMessageDelta(delta: unknown, usage: unknown): void {
    if (typeof delta === "object" && delta !== null) {
      const { stop_reason: stopReason, stop_sequence: stopSequence } = delta as Record<string, unknown>;
      if (typeof stopReason === "string" && stopReason) this.stopReason = stopReason;
      const matched = readStopSequence(stopSequence);
      if (matched !== undefined) this.stopSequence = matched;
    }
    this.mergeUsage(usage);
  }

  private mergeUsage(raw: unknown): void {
    this.compactionUsage = readCompactionUsage(raw) ?? this.compactionUsage;
    const reported = readUsage(raw);
    if (!reported) return;
    const merged: PartialUsage = { ...this.usage, ...reported };
    // A later total of cache writes without its split makes the earlier split stale.
    const split = merged.cache_creation;
    if (
      split &&
      !reported.cache_creation &&
      reported.cache_creation_input_tokens !== undefined &&
      reported.cache_creation_input_tokens !==
        split.ephemeral_5m_input_tokens + split.ephemeral_1h_input_tokens
    ) {
      delete merged.cache_creation;
    }
    this.usage = merged;
  }

  private blockAt(index: unknown): BlockInProgress | undefined {
    return isBlockIndex(index) ? this.blocks[index] : undefined;
  }
}

function isBlockIndex(index: unknown): index is number {
  return typeof index === "number" && Number.isInteger(index) && index >= 0 && index < 10_000;
}

function hasKeys(value: unknown): boolean {
  return typeof value === "object" && value !== null && Object.keys(value).length > 0;
}
