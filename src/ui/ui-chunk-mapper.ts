/**
 * The translation of a query's messages into UI message stream chunks, one message at a time.
 * Stateful (which blocks are open, whether a model turn streamed), allocation-light: each event
 * becomes at most one chunk object, handed to `emit` as it is made.
 * @module
 */
import type {
  AssistantModelMessage,
  ContentBlock,
  ModelStreamEvent,
  SDKMessage,
  ToolResultBlock,
  Usage,
  UserModelMessage,
} from "../index";
import { redact, unsafeTailStart } from "../shared/redact";
import { errorText } from "./error-text";
import { endChunks } from "./run-end";
import { SubagentProgressTracker } from "./subagent-progress";
import type { UIStreamChunk } from "./ui-chunk";

/** What kind of part a streamed content block became. */
type OpenBlock =
  | { kind: "text"; id: string; held: string }
  | { kind: "reasoning"; id: string }
  | { kind: "tool"; id: string }
  | { kind: "other" };

/** Settings of a {@link UIChunkMapper}. */
export interface UIChunkMapperSettings {
  /** Prefix of the text and reasoning part ids (unique per stream). */
  idPrefix: string;
  /**
   * Secrets to remove from streamed text and error texts (credential shapes go too). A streamed
   * text's tail that may still grow into one is held until the next delta or the block's end.
   */
  secrets: readonly string[];
  /** Tool calls the person denied: their error results are sent as `tool-output-denied`. */
  deniedToolCallIds: ReadonlySet<string>;
}

/** Turns SDK messages into UI chunks; `emit` receives each chunk in order. */
export class UIChunkMapper {
  private stepOpen = false;
  private turnStreamed = false;
  private turn = 0;
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly usage: Usage = { input_tokens: 0, output_tokens: 0 };
  private readonly subagents = new SubagentProgressTracker();

  constructor(
    private readonly settings: UIChunkMapperSettings,
    private readonly emit: (chunk: UIStreamChunk) => void,
  ) {}

  /** Translates one message. */
  map(message: SDKMessage<unknown>): void {
    if (message.parent_tool_use_id !== undefined) {
      const chunk = this.subagents.update(message.parent_tool_use_id, message);
      if (chunk) this.emit(chunk);
      return;
    }
    switch (message.type) {
      case "stream_event":
        this.event(message.event);
        return;
      case "assistant":
        this.assistant(message.message);
        return;
      case "user":
        this.toolResults(message.message);
        return;
      case "result":
        this.closeBlocks();
        this.closeStep();
        for (const pending of message.pending_approvals ?? []) {
          if (pending.parent_tool_use_id !== undefined) continue; // a child's call: no part of ours
          this.emit({
            type: "tool-approval-request",
            approvalId: pending.tool_use_id,
            toolCallId: pending.tool_use_id,
          });
        }
        for (const input of message.pending_inputs ?? [])
          this.emit({ type: "data-input", id: input.id, data: input });
        for (const chunk of endChunks(message, this.settings.secrets)) this.emit(chunk);
        return;
      case "system":
        // A handoff is part of the answer: who answers from the next step on.
        if (message.subtype === "handoff")
          this.emit({
            type: "data-handoff",
            id: `handoff-${this.turn}`,
            data: { from: message.from, to: message.to },
          });
        return; // other system notices (retries, compaction …) are not part of the message
      default:
        return;
    }
  }

  /** Ends the stream after a failure thrown by the query itself (not a result). */
  fail(error: unknown): void {
    this.closeBlocks();
    this.closeStep();
    this.emit({ type: "error", errorText: errorText(error, this.settings.secrets) });
    this.emit({ type: "finish", finishReason: "error", messageMetadata: { end: "error_during_execution" } });
  }

  private startTurn(): void {
    this.closeBlocks();
    this.closeStep();
    this.turn++;
    this.stepOpen = true;
    this.emit({ type: "start-step" });
  }

  private closeStep(): void {
    if (!this.stepOpen) return;
    this.stepOpen = false;
    this.emit({ type: "finish-step" });
  }

  private closeBlocks(): void {
    for (const block of this.blocks.values()) this.closeBlock(block);
    this.blocks.clear();
  }

  private closeBlock(block: OpenBlock): void {
    if (block.kind === "text") {
      if (block.held !== "")
        this.emit({ type: "text-delta", id: block.id, delta: redact(block.held, this.settings.secrets) });
      this.emit({ type: "text-end", id: block.id });
    } else if (block.kind === "reasoning") this.emit({ type: "reasoning-end", id: block.id });
  }

  private event(event: ModelStreamEvent): void {
    switch (event.type) {
      case "message_start":
        this.startTurn();
        this.turnStreamed = true;
        return;
      case "content_block_start":
        this.blockStart(event.index as number, event.content_block as ContentBlock);
        return;
      case "content_block_delta":
        this.blockDelta(event.index as number, event.delta as { type: string; [key: string]: unknown });
        return;
      case "content_block_stop": {
        const block = this.blocks.get(event.index as number);
        if (block === undefined) return;
        this.blocks.delete(event.index as number);
        this.closeBlock(block);
        return;
      }
      default:
        return;
    }
  }

  private blockStart(index: number, block: ContentBlock): void {
    const id = `${this.settings.idPrefix}-${this.turn}-${index}`;
    if (block.type === "text") {
      this.blocks.set(index, { kind: "text", id, held: "" });
      this.emit({ type: "text-start", id });
    } else if (block.type === "thinking") {
      this.blocks.set(index, { kind: "reasoning", id });
      this.emit({ type: "reasoning-start", id });
    } else if (block.type === "tool_use") {
      this.blocks.set(index, { kind: "tool", id: block.id });
      this.emit({ type: "tool-input-start", toolCallId: block.id, toolName: block.name, dynamic: true });
    } else {
      this.blocks.set(index, { kind: "other" });
    }
  }

  private blockDelta(index: number, delta: { type: string; [key: string]: unknown }): void {
    const block = this.blocks.get(index);
    if (block === undefined || block.kind === "other") return;
    if (block.kind === "text" && delta.type === "text_delta") {
      this.textDelta(block, delta.text as string);
    } else if (block.kind === "reasoning" && delta.type === "thinking_delta") {
      this.emit({ type: "reasoning-delta", id: block.id, delta: delta.thinking as string });
    } else if (block.kind === "tool" && delta.type === "input_json_delta") {
      this.emit({
        type: "tool-input-delta",
        toolCallId: block.id,
        inputTextDelta: delta.partial_json as string,
      });
    }
  }

  private assistant(message: AssistantModelMessage): void {
    const streamed = this.turnStreamed;
    this.turnStreamed = false;
    if (!streamed) this.startTurn();
    this.closeBlocks();
    for (let index = 0; index < message.content.length; index++) {
      const block = message.content[index]!;
      if (!streamed) this.wholeBlock(index, block);
      if (block.type === "tool_use") {
        this.emit({
          type: "tool-input-available",
          toolCallId: block.id,
          toolName: block.name,
          input: block.input,
          dynamic: true,
        });
      }
    }
    if (message.usage) {
      this.usage.input_tokens += message.usage.input_tokens;
      this.usage.output_tokens += message.usage.output_tokens;
    }
    this.emit({
      type: "message-metadata",
      messageMetadata: { usage: { ...this.usage }, numTurns: this.turn },
    });
  }

  /**
   * A streamed text delta: each delta was redacted alone, so a secret or credential written across
   * two deltas is redacted here, over the text joined — what may still grow into one is held back.
   */
  private textDelta(block: { id: string; held: string }, text: string): void {
    const joined = block.held + text;
    const cut = unsafeTailStart(joined, this.settings.secrets);
    block.held = joined.slice(cut);
    if (cut > 0)
      this.emit({
        type: "text-delta",
        id: block.id,
        delta: redact(joined.slice(0, cut), this.settings.secrets),
      });
  }

  /** A block of a turn that did not stream (no partial messages): sent whole. */
  private wholeBlock(index: number, block: ContentBlock): void {
    const id = `${this.settings.idPrefix}-${this.turn}-${index}`;
    if (block.type === "text") {
      this.emit({ type: "text-start", id });
      this.emit({ type: "text-delta", id, delta: redact(block.text, this.settings.secrets) });
      this.emit({ type: "text-end", id });
    } else if (block.type === "thinking") {
      this.emit({ type: "reasoning-start", id });
      this.emit({ type: "reasoning-delta", id, delta: block.thinking });
      this.emit({ type: "reasoning-end", id });
    }
  }

  private toolResults(message: UserModelMessage): void {
    if (typeof message.content === "string") return;
    for (const block of message.content) {
      if (block.type !== "tool_result") continue;
      const toolCallId = block.tool_use_id;
      if (this.settings.deniedToolCallIds.has(toolCallId) && block.is_error) {
        this.emit({ type: "tool-output-denied", toolCallId });
      } else if (block.is_error) {
        const text = errorText(resultText(block) || "The tool call failed.", this.settings.secrets);
        this.emit({ type: "tool-output-error", toolCallId, errorText: text, dynamic: true });
      } else {
        this.emit({ type: "tool-output-available", toolCallId, output: resultOutput(block), dynamic: true });
      }
    }
  }
}

/** The text of a tool result (its text blocks joined). */
function resultText(block: ToolResultBlock): string {
  if (typeof block.content === "string") return block.content;
  return block.content
    .filter((part) => part.type === "text")
    .map((part) => (part as { text: string }).text)
    .join("\n");
}

/** A tool result's output for the client: its text, or its blocks when it holds more than text. */
function resultOutput(block: ToolResultBlock): unknown {
  if (typeof block.content === "string") return block.content;
  return block.content.every((part) => part.type === "text") ? resultText(block) : block.content;
}
