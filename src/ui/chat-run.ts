/**
 * One live run of a conversation on the server: it reads the query's UI chunks by itself (whoever
 * listens), keeps every chunk of the message so far, and serves them to any number of listeners —
 * the POST that started it, a reloaded page's reconnect, a second tab. With no listener left it
 * waits `graceMs` for one to come back, then interrupts the run. Its last chunk (`finish`) goes out
 * only once the owner has let go of the conversation (`beforeLastChunk`).
 * @module
 */
import type { UIStreamChunk } from "./ui-chunk";

/** A listener of a run: the controller of one response's chunk stream. */
type Listener = ReadableStreamDefaultController<UIStreamChunk>;

/** What a run needs from its owner. */
export interface ChatRunSettings {
  /** The chunks of the run (a `toUIMessageStream` of the query). */
  chunks: ReadableStream<UIStreamChunk>;
  /** Interrupts the query (the run then ends `interrupted` and its chunks end). */
  interrupt: () => void;
  /** How long the run goes on without listeners before it is interrupted. */
  graceMs: number;
  /**
   * Chunks that rebuild the earlier part of the message this run continues (an approval's
   * resume), sent right after `start` to a listener that reconnects (it has not got that part).
   */
  rebuild?: readonly UIStreamChunk[];
  /**
   * Called once the query's chunks have all been read, before the last one (`finish`) reaches any
   * listener: the owner lets go of the conversation here, so a client that acts on the finish finds
   * it free. The listeners get `finish` and are closed even when it throws.
   */
  beforeLastChunk?: () => Promise<void>;
}

/** A live run. */
export class ChatRun {
  private readonly buffer: UIStreamChunk[] = [];
  private readonly listeners = new Set<Listener>();
  /** Reconnected listeners that get the rebuilt part once the `start` chunk is in. */
  private readonly awaitingRebuild = new Set<Listener>();
  private graceTimer: ReturnType<typeof setTimeout> | undefined;
  /** The query is over: every chunk has been read. */
  private finished = false;
  /** The last chunk has gone out and the listeners are closed. */
  private closed = false;
  private interruptRequested = false;
  /** Settles once the query is over, `beforeLastChunk` has run and every listener got the last chunk. */
  readonly done: Promise<void>;

  constructor(private readonly settings: ChatRunSettings) {
    this.done = this.pump();
  }

  /** Whether the query is over. */
  get isDone(): boolean {
    return this.finished;
  }

  /** Whether a response is reading the run now. */
  get attached(): boolean {
    return this.listeners.size > 0;
  }

  /** Whether the run was asked to stop (and is ending). */
  get stopping(): boolean {
    return this.interruptRequested;
  }

  /** Interrupts the run now (an explicit stop, or a newer message superseding it). */
  stop(): void {
    this.clearGrace();
    if (this.finished || this.interruptRequested) return;
    this.interruptRequested = true;
    this.settings.interrupt();
  }

  /**
   * A stream of the run's chunks from its `start` (every chunk so far, then the live ones); it
   * ends with the run. Cancelling it (the client went away) detaches it.
   */
  listen(options: { reconnect?: boolean } = {}): ReadableStream<UIStreamChunk> {
    let self: Listener;
    const rebuild = options.reconnect ? (this.settings.rebuild ?? []) : [];
    return new ReadableStream<UIStreamChunk>({
      start: (controller) => {
        self = controller;
        this.buffer.forEach((chunk, index) => {
          controller.enqueue(chunk);
          if (index === 0) for (const rebuilt of rebuild) controller.enqueue(rebuilt);
        });
        if (this.buffer.length === 0 && rebuild.length > 0) this.awaitingRebuild.add(controller);
        if (this.closed) {
          controller.close();
          return;
        }
        this.listeners.add(controller);
        this.clearGrace();
      },
      cancel: () => this.detach(self),
    });
  }

  private detach(listener: Listener): void {
    this.awaitingRebuild.delete(listener);
    if (!this.listeners.delete(listener) || this.listeners.size > 0 || this.finished) return;
    this.clearGrace();
    this.graceTimer = setTimeout(() => this.stop(), this.settings.graceMs);
    this.graceTimer.unref?.();
  }

  private clearGrace(): void {
    if (this.graceTimer !== undefined) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
  }

  private async pump(): Promise<void> {
    const reader = this.settings.chunks.getReader();
    let finish: UIStreamChunk | undefined; // held back until the owner has let go of the conversation
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (finish !== undefined) this.deliver(finish);
        finish = value.type === "finish" ? value : undefined;
        if (finish === undefined) this.deliver(value);
      }
    } finally {
      this.finished = true;
      this.clearGrace();
      try {
        await this.settings.beforeLastChunk?.();
      } finally {
        if (finish !== undefined) this.deliver(finish);
        this.closed = true;
        for (const listener of this.listeners) listener.close();
        this.listeners.clear();
      }
    }
  }

  /** Keeps `chunk` and sends it to every listener. */
  private deliver(chunk: UIStreamChunk): void {
    this.buffer.push(chunk);
    for (const listener of this.listeners) {
      try {
        listener.enqueue(chunk);
        if (this.awaitingRebuild.delete(listener))
          for (const rebuilt of this.settings.rebuild ?? []) listener.enqueue(rebuilt);
      } catch {
        this.listeners.delete(listener); // its stream was torn down without a cancel
      }
    }
  }
}
