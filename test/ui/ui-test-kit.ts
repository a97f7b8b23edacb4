/**
 * Helpers of the UI tests: every chunk checked against the `ai` package's own chunk schema, and
 * the UI message the chunks build, read with `ai`'s own `readUIMessageStream`.
 */
import { readUIMessageStream, type UIMessage, uiMessageChunkSchema } from "ai";
import { expect } from "vitest";
import type { UIStreamChunk } from "../../src/ui/index";

/** Reads every chunk of `stream`, failing the test on one the protocol's schema refuses. */
export async function readChunks(stream: ReadableStream<UIStreamChunk>): Promise<UIStreamChunk[]> {
  const chunks: UIStreamChunk[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<UIStreamChunk>) chunks.push(chunk);
  await expectValidChunks(chunks);
  return chunks;
}

/** Fails when one of `chunks` does not validate against `ai`'s `uiMessageChunkSchema`. */
export async function expectValidChunks(chunks: readonly unknown[]): Promise<void> {
  const schema = uiMessageChunkSchema();
  for (const chunk of chunks) {
    const result = await schema.validate!(chunk);
    if (!result.success)
      throw new Error(`chunk refused by ai's schema: ${JSON.stringify(chunk)}: ${result.error}`);
  }
}

/** Every state of the UI message `chunks` build, in order, as `readUIMessageStream` yields them. */
export async function uiMessages(
  chunks: readonly UIStreamChunk[],
  message?: UIMessage,
): Promise<UIMessage[]> {
  const errors: unknown[] = [];
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const states: UIMessage[] = [];
  for await (const state of readUIMessageStream({
    stream: stream as never,
    message,
    onError: (error) => errors.push(error),
    terminateOnError: false,
  })) {
    states.push(structuredClone(state));
  }
  for (const error of errors) {
    if (!chunks.some((chunk) => chunk.type === "error")) throw error;
  }
  return states;
}

/** The last state of the UI message `chunks` build. */
export async function finalMessage(
  chunks: readonly UIStreamChunk[],
  message?: UIMessage,
): Promise<UIMessage> {
  const states = await uiMessages(chunks, message);
  expect(states.length).toBeGreaterThan(0);
  return states.at(-1)!;
}

/** The chunk types, in order (for asserting on the sequence). */
export function chunkTypes(chunks: readonly UIStreamChunk[]): string[] {
  return chunks.map((chunk) => chunk.type);
}
