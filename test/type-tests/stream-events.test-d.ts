/**
 * Type test, checked by `tsc --noEmit` (strict): narrowing a `stream_event` on `type` reaches every
 * field of the event and of its delta with its type and no cast; unknown future events still fit
 * the union and narrow by their own `type`; `textDeltas` yields strings.
 */
import { expectTypeOf } from "vitest";
import {
  type ContentBlockDelta,
  type ModelStreamEvent,
  type SDKMessage,
  type StreamContentBlock,
  textDeltas,
  type UnknownStreamEvent,
} from "../../src/index";

declare const messages: AsyncIterable<SDKMessage>;

export async function theObviousNarrowingCompiles(): Promise<void> {
  for await (const m of messages) {
    if (
      m.type === "stream_event" &&
      m.event.type === "content_block_delta" &&
      m.event.delta.type === "text_delta"
    ) {
      expectTypeOf(m.event.delta.text).toEqualTypeOf<string>();
      expectTypeOf(m.event.index).toEqualTypeOf<number>();
    }
  }
}

export function everyKnownEventNarrows(event: ModelStreamEvent): void {
  switch (event.type) {
    case "message_start":
      expectTypeOf(event.message.id).toEqualTypeOf<string | undefined>();
      expectTypeOf(event.message.usage?.input_tokens).toEqualTypeOf<number | null | undefined>();
      return;
    case "content_block_start":
      expectTypeOf(event.content_block).toEqualTypeOf<StreamContentBlock>();
      if (event.content_block.type === "tool_use")
        expectTypeOf(event.content_block.name).toEqualTypeOf<string>();
      if (event.content_block.type === "thinking")
        expectTypeOf(event.content_block.signature).toEqualTypeOf<string>();
      return;
    case "content_block_delta":
      expectTypeOf(event.delta).toEqualTypeOf<ContentBlockDelta>();
      if (event.delta.type === "input_json_delta")
        expectTypeOf(event.delta.partial_json).toEqualTypeOf<string>();
      if (event.delta.type === "thinking_delta") expectTypeOf(event.delta.thinking).toEqualTypeOf<string>();
      if (event.delta.type === "signature_delta") expectTypeOf(event.delta.signature).toEqualTypeOf<string>();
      if (event.delta.type === "citations_delta")
        expectTypeOf(event.delta.citation.type).toEqualTypeOf<string>();
      return;
    case "content_block_stop":
      expectTypeOf(event.index).toEqualTypeOf<number>();
      return;
    case "message_delta":
      expectTypeOf(event.delta.stop_sequence).toEqualTypeOf<string | null | undefined>();
      return;
    case "error":
      expectTypeOf(event.error.message).toEqualTypeOf<string>();
      return;
    case "message_stop":
    case "ping":
      return;
    default:
      // An event type this version does not know (the union stays whole here): its fields are `unknown`.
      expectTypeOf(event.type).toEqualTypeOf<string>();
      expectTypeOf(event.payload).toEqualTypeOf<unknown>();
  }
}

export function unknownEventsStillFitAndNarrow(event: ModelStreamEvent): void {
  const future = JSON.parse('{"type":"future_event","payload":1}') as ModelStreamEvent;
  expectTypeOf<UnknownStreamEvent>().toMatchTypeOf<ModelStreamEvent>();
  if (future.type === "future_event") {
    expectTypeOf(future.payload).toEqualTypeOf<unknown>();
    expectTypeOf((future as Record<string, unknown>).delta).toEqualTypeOf<unknown>();
  }
  // Read loosely, as code written for the earlier `{ type: string; [key: string]: unknown }` did.
  const loose: { type: string; [key: string]: unknown } = event;
  expectTypeOf(loose.type).toEqualTypeOf<string>();
  const delta = (event.delta as { type?: string } | undefined)?.type;
  expectTypeOf(delta).toEqualTypeOf<string | undefined>();
}

export function eventsAreBuiltWithoutCasts(): ModelStreamEvent[] {
  return [
    { type: "message_start", message: { id: "msg_1", model: "m", usage: { input_tokens: 3 } } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } },
    { type: "message_stop" },
  ];
}

export async function textDeltasYieldsStrings(): Promise<void> {
  for await (const text of textDeltas(messages)) expectTypeOf(text).toEqualTypeOf<string>();
  expectTypeOf(textDeltas(messages)).toMatchTypeOf<AsyncIterable<string>>();
}
