/**
 * The chunks made while the current task runs, handed on together when it ends: a delta that
 * follows a delta of the same part in one batch is joined into it (one `text-delta` instead of
 * many). Whatever reaches the stream through I/O — a real model's SSE events, each read in its own
 * task — still goes out as soon as its task ends; what arrives at once (a burst of events parsed
 * from one network read, a client that hands events over without I/O) costs one chunk, not one per
 * event. Order is kept: only neighbours of the same part are joined.
 * @module
 */
import type { UIStreamChunk } from "./ui-chunk";

type Schedule = (callback: () => void) => void;

/** The end of the current task: `setImmediate` where it exists (Node, Bun), else a zero timeout. */
const scheduleAfterTask: Schedule =
  typeof globalThis.setImmediate === "function"
    ? (callback) => {
        globalThis.setImmediate(callback);
      }
    : (callback) => {
        setTimeout(callback, 0);
      };

/** Collects chunks and hands them to `deliver`, in order, once the task that made them ends. */
export class ChunkBatch {
  private chunks: UIStreamChunk[] = [];
  private scheduled = false;
  private closed = false;

  constructor(
    private readonly deliver: (chunk: UIStreamChunk) => void,
    private readonly schedule: Schedule = scheduleAfterTask,
  ) {}

  /** How many chunks wait to be handed on. */
  get size(): number {
    return this.chunks.length;
  }

  /** Adds a chunk (joined into the previous one when both are deltas of the same part). */
  push(chunk: UIStreamChunk): void {
    if (this.closed) return;
    const last = this.chunks[this.chunks.length - 1];
    if (last !== undefined && joinDelta(last, chunk)) return;
    this.chunks.push(chunk);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Hands on every waiting chunk now. */
  flush(): void {
    const chunks = this.chunks;
    if (chunks.length === 0) return;
    this.chunks = [];
    for (const chunk of chunks) this.deliver(chunk);
  }

  /** Hands on what waits, then drops whatever comes later (the stream was closed or cancelled). */
  close(): void {
    if (!this.closed) this.flush();
    this.closed = true;
  }

  /** Drops what waits and whatever comes later. */
  discard(): void {
    this.chunks = [];
    this.closed = true;
  }
}

/** Appends `next`'s delta to `last` when both are deltas of the same part; true when it did. */
function joinDelta(last: UIStreamChunk, next: UIStreamChunk): boolean {
  if (next.type !== last.type) return false;
  if (next.type === "text-delta" || next.type === "reasoning-delta") {
    const previous = last as typeof next;
    if (previous.id !== next.id) return false;
    previous.delta += next.delta;
    return true;
  }
  if (next.type === "tool-input-delta") {
    const previous = last as typeof next;
    if (previous.toolCallId !== next.toolCallId) return false;
    previous.inputTextDelta += next.inputTextDelta;
    return true;
  }
  return false;
}
