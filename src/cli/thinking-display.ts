/**
 * The model's thinking as it streams (`thinking_delta` stream events), shown dimmed above the
 * answer on a terminal — redacted and with control characters neutralised, like the answer.
 * @module
 */
import type { Redactor } from "./redact";
import { neutraliseControls, type OutputStream, type Style } from "./terminal";

/** Writes the thinking of one response after another to the answer stream. */
export class ThinkingDisplay {
  /** Text held back: it may be the beginning of a secret that the next piece completes. */
  private held = "";
  /** A thinking block is being shown (its text has started and not yet been closed). */
  private open = false;

  constructor(
    private readonly stream: OutputStream,
    private readonly style: Style,
    private readonly redact: Redactor,
  ) {}

  /** Whether thinking text is being shown and not yet closed. */
  get showing(): boolean {
    return this.open;
  }

  /** Shows one piece of thinking text; the caller has ended any answer line first. */
  write(text: string): void {
    if (text === "") return;
    this.open = true;
    const pending = this.held + text;
    const cut = this.redact.unsafeTailStart(pending);
    this.held = pending.slice(cut);
    this.emit(pending.slice(0, cut));
  }

  /** The thinking block is over: writes what was held back and ends its line with a blank one. */
  close(): void {
    if (!this.open) return;
    this.emit(this.held);
    this.held = "";
    this.open = false;
    this.stream.write("\n\n");
  }

  private emit(text: string): void {
    if (text === "") return;
    this.stream.write(this.style.dim(neutraliseControls(this.redact(text))));
  }
}
