/**
 * The order a streamed Messages API response must keep: one `message_start` first, each content
 * block started once before its deltas and stopped once after them, deltas that fit their block,
 * nothing after `message_stop`. A stream that breaks it fails as malformed rather than being
 * assembled into a response that silently lost (or misplaced) content.
 * @module
 */
import { ProviderError } from "../errors";
import type { ModelStreamEvent } from "../messages/stream-event";

/** The `errorType` of a {@link ProviderError} for a stream that broke the protocol. */
export const MALFORMED_STREAM_ERROR_TYPE = "malformed_stream";

/** The event types whose order is checked; any other (`ping`, types added later) may come anywhere. */
const ORDERED: ReadonlySet<string> = new Set([
  "message_start",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "message_delta",
  "message_stop",
]);

/** The block type each known delta belongs to (`input_json_delta` to any block with an input). */
const BLOCK_OF_DELTA: Readonly<Record<string, string>> = {
  text_delta: "text",
  citations_delta: "text",
  thinking_delta: "thinking",
  signature_delta: "thinking",
  compaction_delta: "compaction",
};
const WITHOUT_INPUT: ReadonlySet<string> = new Set(["text", "thinking", "redacted_thinking", "compaction"]);

/** Follows one stream's events and throws at the first that breaks the protocol. */
export class StreamProtocol {
  private started = false;
  private ended = false;
  /** The type of each block started and not stopped yet, by index. */
  private readonly open = new Map<number, string>();
  private readonly closed = new Set<number>();

  /** `source`: how errors name the service, e.g. "Anthropic API" or "Model provider 127.0.0.1:8080". */
  constructor(private readonly source = "Anthropic API") {}

  /**
   * Checks `event` against the events before it. `partial` says whether content was already
   * streamed (the failure's `partial`).
   * @throws {ProviderError} `errorType: "malformed_stream"`, retryable, naming what was wrong.
   */
  check(event: ModelStreamEvent, partial: boolean): void {
    const problem = this.problemOf(event);
    if (problem !== undefined) {
      throw new ProviderError(`${this.source} stream is malformed: ${problem}.`, {
        errorType: MALFORMED_STREAM_ERROR_TYPE,
        retryable: true,
        partial,
      });
    }
  }

  private problemOf(event: ModelStreamEvent): string | undefined {
    const { type } = event;
    if (this.ended) return `a ${describeType(type)} event after message_stop`;
    if (!ORDERED.has(type)) return undefined;
    if (type === "message_start") {
      if (this.started) return "a second message_start";
      this.started = true;
      return undefined;
    }
    if (!this.started) return `a ${type} event before message_start`;
    switch (event.type) {
      case "content_block_start":
        return this.startBlock(event.index, event.content_block);
      case "content_block_delta":
        return this.deltaProblem(event.index, event.delta);
      case "content_block_stop":
        return this.stopBlock(event.index);
      case "message_stop":
        this.ended = true;
        return undefined;
      default:
        return undefined;
    }
  }

  private startBlock(index: unknown, block: unknown): string | undefined {
    if (!isBlockIndex(index)) return `a content_block_start with the index ${describeIndex(index)}`;
    if (this.open.has(index) || this.closed.has(index))
      return `a second content_block_start for block ${index}`;
    const type = (block as { type?: unknown } | null | undefined)?.type;
    if (typeof type !== "string" || type === "")
      return `a content_block_start for block ${index} without a block type`;
    this.open.set(index, type);
    return undefined;
  }

  private deltaProblem(index: unknown, delta: unknown): string | undefined {
    const blockType = this.openBlock(index, "content_block_delta");
    if (typeof blockType !== "object") return blockType;
    const deltaType = (delta as { type?: unknown } | null | undefined)?.type;
    if (typeof deltaType !== "string") return `a content_block_delta for block ${index} without a delta type`;
    const expected = BLOCK_OF_DELTA[deltaType];
    const fits =
      deltaType === "input_json_delta"
        ? !WITHOUT_INPUT.has(blockType.type)
        : expected === undefined || expected === blockType.type;
    return fits ? undefined : `a ${deltaType} for block ${index}, which is a ${blockType.type} block`;
  }

  private stopBlock(index: unknown): string | undefined {
    const blockType = this.openBlock(index, "content_block_stop");
    if (typeof blockType !== "object") return blockType;
    this.open.delete(index as number);
    this.closed.add(index as number);
    return undefined;
  }

  /** The open block at `index`, or what is wrong with an `event` for it. */
  private openBlock(index: unknown, event: string): { type: string } | string {
    if (!isBlockIndex(index)) return `a ${event} with the index ${describeIndex(index)}`;
    const type = this.open.get(index);
    if (type !== undefined) return { type };
    return this.closed.has(index)
      ? `a ${event} for block ${index} after its content_block_stop`
      : `a ${event} for block ${index}, which was never started`;
  }
}

function isBlockIndex(index: unknown): index is number {
  return typeof index === "number" && Number.isInteger(index) && index >= 0 && index < 10_000;
}

function describeIndex(index: unknown): string {
  return index === undefined ? "missing" : JSON.stringify(index).slice(0, 20);
}

/** An event type as sent, kept short (it is provider data). */
function describeType(type: string): string {
  return JSON.stringify(type.slice(0, 40)).slice(1, -1);
}
