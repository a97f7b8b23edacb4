/**
 * Output caps: every cut is announced in the text itself, so the model knows it saw only part.
 * @module
 */

/**
 * `text` when it fits in `maxChars`; otherwise its head, cut at a line end when one is near, followed
 * by a notice saying how much was left out and, when given, what to do about it.
 */
export function keepHead(text: string, maxChars: number, advice?: string): string {
  if (text.length <= maxChars) return text;
  let end = maxChars;
  const lineEnd = text.lastIndexOf("\n", maxChars);
  if (lineEnd > maxChars * 0.8) end = lineEnd;
  const omitted = text.length - end;
  const notice = `[Output truncated: ${omitted} of ${text.length} characters omitted.${advice ? ` ${advice}` : ""}]`;
  return `${text.slice(0, end).replace(/\n$/, "")}\n${notice}`;
}

/** Keeps the last `maxChars` characters of a growing text, counting what it dropped. */
export class TailBuffer {
  private chunks: string[] = [];
  private keptChars = 0;
  /** Characters dropped from the front so far. */
  droppedChars = 0;

  constructor(private readonly maxChars: number) {}

  /** Appends text, dropping from the front what no longer fits. */
  append(text: string): void {
    if (text.length === 0) return;
    this.chunks.push(text);
    this.keptChars += text.length;
    while (this.keptChars > this.maxChars) {
      const first = this.chunks[0]!;
      const excess = this.keptChars - this.maxChars;
      if (first.length <= excess) {
        this.chunks.shift();
        this.keptChars -= first.length;
        this.droppedChars += first.length;
      } else {
        this.chunks[0] = first.slice(excess);
        this.keptChars -= excess;
        this.droppedChars += excess;
      }
    }
  }

  /** The kept text, preceded by a truncation notice when anything was dropped. */
  toString(): string {
    const kept = this.chunks.join("");
    if (this.droppedChars === 0) return kept;
    return (
      `[Output truncated: the first ${this.droppedChars} characters were dropped; showing the last ${kept.length}.]\n` +
      kept
    );
  }
}

/**
 * A line's text for display: cut to `maxChars`, with a marker giving its full length when it was
 * longer (`length` is the full length when `text` was already cut while reading).
 */
export function formatLine(line: { text: string; length: number }, maxChars: number): string {
  if (line.length <= maxChars && line.text.length <= maxChars) return line.text;
  return `${line.text.slice(0, maxChars)}… [line truncated: ${line.length} characters]`;
}
