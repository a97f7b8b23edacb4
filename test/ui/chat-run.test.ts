/**
 * `ChatRun`: its last chunk (`finish`) reaches listeners only after `beforeLastChunk` — the hook in
 * which the chat endpoint lets go of the conversation — has settled, and reaches them even when the
 * hook fails; a listener that comes meanwhile gets it too.
 */
import { describe, expect, it } from "vitest";
import { ChatRun } from "../../src/ui/chat-run";
import type { UIStreamChunk } from "../../src/ui/index";

const CHUNKS: UIStreamChunk[] = [
  { type: "start", messageId: "m1" },
  { type: "text-start", id: "t1" },
  { type: "text-delta", id: "t1", delta: "Hi." },
  { type: "text-end", id: "t1" },
  { type: "finish", finishReason: "stop" },
];

/** The query's chunks, all at once. */
function queryChunks(): ReadableStream<UIStreamChunk> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of CHUNKS) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** A promise the test settles. */
function gate(): { opened: Promise<void>; open: () => void; fail: (error: Error) => void } {
  let open!: () => void;
  let fail!: (error: Error) => void;
  const opened = new Promise<void>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { opened, open, fail };
}

/** Reads `stream` chunk by chunk into `into`, to its end. */
async function collect(stream: ReadableStream<UIStreamChunk>, into: UIStreamChunk[]): Promise<void> {
  for await (const chunk of stream as unknown as AsyncIterable<UIStreamChunk>) into.push(chunk);
}

describe("ChatRun", () => {
  it("holds the finish chunk until beforeLastChunk has settled, then sends it and ends", async () => {
    const release = gate();
    let called!: () => void;
    const hookCalled = new Promise<void>((resolve) => {
      called = resolve;
    });
    const run = new ChatRun({
      chunks: queryChunks(),
      interrupt: () => {},
      graceMs: 60_000,
      beforeLastChunk: () => {
        called();
        return release.opened;
      },
    });
    const read: UIStreamChunk[] = [];
    const reading = collect(run.listen(), read);
    await Promise.race([
      hookCalled,
      run.done.then(() => Promise.reject(new Error("the run ended without calling beforeLastChunk"))),
    ]);
    expect(run.isDone).toBe(true);
    // Everything but the finish is out while the owner lets go.
    await until(() => read.length === CHUNKS.length - 1);
    const late: UIStreamChunk[] = [];
    const lateReading = collect(run.listen({ reconnect: true }), late);
    release.open();
    await Promise.all([reading, lateReading, run.done]);
    expect(read).toEqual(CHUNKS);
    expect(late).toEqual(CHUNKS);
    // Once ended, a listener gets the whole run at once.
    const after: UIStreamChunk[] = [];
    await collect(run.listen(), after);
    expect(after).toEqual(CHUNKS);
  });

  it("sends the finish chunk and ends its listeners even when beforeLastChunk fails", async () => {
    const release = gate();
    const run = new ChatRun({
      chunks: queryChunks(),
      interrupt: () => {},
      graceMs: 60_000,
      beforeLastChunk: () => release.opened,
    });
    const read: UIStreamChunk[] = [];
    const reading = collect(run.listen(), read);
    release.fail(new Error("the lock's release failed"));
    await expect(run.done).rejects.toThrow("the lock's release failed");
    await reading;
    expect(read).toEqual(CHUNKS);
  });
});

/** Yields to the event loop until `condition` holds: a liveness bound only, never a measure of speed. */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > giveUpAt) throw new Error("condition not reached");
    await new Promise((resolve) => setImmediate(resolve));
  }
}
