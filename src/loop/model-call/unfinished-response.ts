/**
 * What a streamed response had shown when it was cut off — by an interrupt, an abort, a request
 * deadline or a failure mid-stream: the text streamed so far and the usage the provider had
 * reported (`message_start` reports the input tokens, `message_delta` the output so far). The
 * provider bills those tokens, so a query that ends on such a response counts them, and its text
 * is the result's partial text.
 * @module
 */

import { type PartialUsage, readUsage, toUsage } from "../../messages/reported-usage";
import type { ModelStreamEvent } from "../../messages/stream-event";
import type { Usage } from "../../messages/types";

/** Follows the raw stream events of one attempt. Cheap: it keeps only text and usage. */
export class UnfinishedResponse {
  /** The text of `text_delta`s received so far. */
  text = "";
  /** Whether any event of the stream arrived (the provider answered, even if only in part). */
  received = false;
  private reported: PartialUsage | undefined;

  constructor(
    /** The model the attempt was sent to; the serving model once `message_start` names it. */
    public model: string,
  ) {}

  /** The usage reported so far, or `undefined` when the stream reported none. */
  get usage(): Usage | undefined {
    return this.reported && toUsage(this.reported);
  }

  /** Takes one raw event into account. */
  observe(event: ModelStreamEvent): void {
    this.received = true;
    switch (event.type) {
      case "content_block_delta": {
        const delta = event.delta as { type?: unknown; text?: unknown } | undefined;
        if (delta?.type === "text_delta" && typeof delta.text === "string") this.text += delta.text;
        return;
      }
      case "message_start": {
        const message = event.message as { usage?: unknown; model?: unknown } | undefined;
        if (typeof message?.model === "string" && message.model) this.model = message.model;
        this.merge(message?.usage);
        return;
      }
      case "message_delta":
        this.merge(event.usage);
        return;
    }
  }

  private merge(raw: unknown): void {
    const reported = readUsage(raw);
    if (reported) this.reported = this.reported ? Object.assign(this.reported, reported) : reported;
  }
}
