import { describe, expect, it } from "vitest";
import type { SDKMessage } from "../../src/index";
import { ChunkBatch } from "../../src/ui/chunk-batch";
import { toUIMessageStream, type UIStreamChunk } from "../../src/ui/index";
import { expectValidChunks, finalMessage } from "./ui-test-kit";

/** A stream event of the top-level query, as the loop yields it. */
function event(payload: Record<string, unknown>): SDKMessage<unknown> {
  return { type: "stream_event", event: payload } as unknown as SDKMessage<unknown>;
}

const textDelta = (text: string) =>
  event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } });

/** A turn that streams `deltas` as text deltas, each released only when `gate(index)` settles. */
async function* turn(
  deltas: string[],
  gate: (index: number) => Promise<void>,
): AsyncGenerator<SDKMessage<unknown>> {
  yield event({ type: "message_start", message: {} });
  yield event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } });
  for (let index = 0; index < deltas.length; index++) {
    await gate(index);
    yield textDelta(deltas[index]!);
  }
  yield event({ type: "content_block_stop", index: 0 });
  yield {
    type: "assistant",
    message: { role: "assistant", content: [{ type: "text", text: deltas.join("") }] },
  } as unknown as SDKMessage<unknown>;
}

describe("ChunkBatch", () => {
  it("joins neighbouring deltas of one part, keeps every other chunk and the order", () => {
    const delivered: UIStreamChunk[] = [];
    const pending: (() => void)[] = [];
    const batch = new ChunkBatch(
      (chunk) => delivered.push(chunk),
      (callback) => pending.push(callback),
    );
    batch.push({ type: "text-delta", id: "a", delta: "Hel" });
    batch.push({ type: "text-delta", id: "a", delta: "lo" });
    batch.push({ type: "text-delta", id: "b", delta: "x" });
    batch.push({ type: "tool-input-delta", toolCallId: "t", inputTextDelta: '{"ci' });
    batch.push({ type: "tool-input-delta", toolCallId: "t", inputTextDelta: 'ty":1}' });
    batch.push({ type: "text-end", id: "a" });
    batch.push({ type: "reasoning-delta", id: "r", delta: "1" });
    batch.push({ type: "reasoning-delta", id: "r", delta: "2" });
    expect(delivered).toEqual([]); // nothing before the task ends
    expect(pending).toHaveLength(1); // one scheduled hand-over per batch, not per chunk
    pending[0]!();
    expect(delivered).toEqual([
      { type: "text-delta", id: "a", delta: "Hello" },
      { type: "text-delta", id: "b", delta: "x" },
      { type: "tool-input-delta", toolCallId: "t", inputTextDelta: '{"city":1}' },
      { type: "text-end", id: "a" },
      { type: "reasoning-delta", id: "r", delta: "12" },
    ]);
    batch.push({ type: "text-delta", id: "a", delta: "!" }); // a new batch: not joined into a chunk already out
    pending[1]!();
    expect(delivered.at(-1)).toEqual({ type: "text-delta", id: "a", delta: "!" });
    expect(delivered[0]).toEqual({ type: "text-delta", id: "a", delta: "Hello" });
  });

  it("drops what comes after discard()", () => {
    const delivered: UIStreamChunk[] = [];
    const batch = new ChunkBatch(
      (chunk) => delivered.push(chunk),
      () => {},
    );
    batch.push({ type: "start-step" });
    batch.discard();
    batch.push({ type: "finish-step" });
    batch.flush();
    expect(delivered).toEqual([]);
  });
});

describe("toUIMessageStream batching", () => {
  it("sends each delta that arrives in its own task before the next one arrives (no added latency)", async () => {
    const deltas = ["Once", " upon", " a", " time"];
    const read: string[] = [];
    let seen: () => void = () => {};
    // Delta n+1 is released only once the reader has seen delta n: a batch that waited for the
    // next message before handing on would never end here (the test would time out).
    const gate = async (index: number) => {
      while (read.length < index) await new Promise<void>((resolve) => (seen = resolve));
    };
    const reader = toUIMessageStream(turn(deltas, gate)).getReader();
    const rest: UIStreamChunk[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (value.type === "text-delta") {
        read.push(value.delta);
        seen();
      } else if (read.length > 0) rest.push(value);
    }
    expect(read).toEqual(deltas); // one chunk per delta
    expect(rest.map((chunk) => chunk.type)).toEqual(["text-end", "message-metadata", "finish"]);
  });

  it("joins deltas that arrive at once into one chunk, and the message reads the same", async () => {
    const deltas = Array.from({ length: 1000 }, (_, index) => `${index % 10}`);
    const chunks: UIStreamChunk[] = [];
    for await (const chunk of toUIMessageStream(
      turn(deltas, async () => {}),
      {
        messageId: "m-batch",
      },
    ) as unknown as AsyncIterable<UIStreamChunk>)
      chunks.push(chunk);
    await expectValidChunks(chunks);
    const textDeltas = chunks.filter((chunk) => chunk.type === "text-delta");
    expect(textDeltas.length).toBeLessThan(10);
    const message = await finalMessage(chunks);
    expect(message.parts.find((part) => part.type === "text")).toMatchObject({ text: deltas.join("") });
  });

  it("reads at most 16 chunks ahead of a reader that does not read (the query waits)", async () => {
    let pulled = 0;
    async function* manyParts(): AsyncGenerator<SDKMessage<unknown>> {
      yield event({ type: "message_start", message: {} });
      for (let index = 0; index < 1000; index++) {
        pulled++;
        // A new part each time: nothing joins, every message is a chunk of its own.
        yield event({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const stream = toUIMessageStream(manyParts());
    const reader = stream.getReader();
    await reader.read(); // start
    for (let tick = 0; tick < 100; tick++) await new Promise((resolve) => setImmediate(resolve));
    expect(pulled).toBeLessThanOrEqual(20);
    expect(pulled).toBeGreaterThan(1);
    await reader.cancel();
  });
});
