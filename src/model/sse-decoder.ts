/**
 * A decoder of server-sent events (the WHATWG `text/event-stream` format): text in, in chunks cut
 * anywhere, events out. Lines end in LF, CRLF or CR; an empty line ends an event; `data:` lines
 * join with LF; `event:` names it; comments (`:` lines), `id:` and `retry:` are skipped.
 * @module
 */

/** One server-sent event. */
export interface ServerSentEvent {
  /** The `event:` field, `""` when absent. */
  event: string;
  /** The `data:` lines, joined with LF. */
  data: string;
}

/** Decodes the text of an event stream, chunk by chunk; keeps no more than the unfinished line. */
export class SseDecoder {
  private pending = "";
  private event = "";
  private data: string[] = [];
  /** A CR ended the last chunk: an LF starting the next one belongs to it. */
  private afterCarriageReturn = false;

  /** Takes the next piece of text; returns the events it completed, in order. */
  push(text: string): ServerSentEvent[] {
    const events: ServerSentEvent[] = [];
    let start = 0;
    if (this.afterCarriageReturn && text.charCodeAt(0) === 10) start = 1;
    this.afterCarriageReturn = false;
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code !== 10 && code !== 13) continue;
      const line = this.pending + text.slice(start, index);
      this.pending = "";
      if (code === 13) {
        if (index + 1 === text.length) this.afterCarriageReturn = true;
        else if (text.charCodeAt(index + 1) === 10) index++;
      }
      start = index + 1;
      this.takeLine(line, events);
    }
    if (start < text.length) this.pending += text.slice(start);
    return events;
  }

  /** The end of the stream: an event whose blank line never came is still delivered. */
  end(): ServerSentEvent[] {
    const events: ServerSentEvent[] = [];
    if (this.pending) {
      this.takeLine(this.pending, events);
      this.pending = "";
    }
    this.takeLine("", events);
    return events;
  }

  private takeLine(line: string, events: ServerSentEvent[]): void {
    if (line === "") {
      if (this.data.length > 0) events.push({ event: this.event, data: this.data.join("\n") });
      this.event = "";
      this.data = [];
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ":" — a comment
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
  }
}
