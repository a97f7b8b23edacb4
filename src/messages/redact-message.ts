/**
 * The redaction boundary: every message that leaves the agent — yielded to the consumer, recorded
 * in history (hence stored and sent to the model), shown by the CLI — passes {@link redactMessage}
 * with the agent's secrets. Whatever produced it (a hook's error, a permission callback, a tool's
 * output, a store, a provider), no configured secret and no credential-shaped string survives it.
 *
 * A secret split across the text blocks of one content array is redacted too: the blocks are read
 * joined, as the model receives them (see `redact-across-blocks.ts`).
 *
 * Left as they are, because changing them would break them: thinking and redacted thinking blocks
 * (their signature covers the text), server compaction's `compaction` blocks (signed and sent back
 * verbatim; summarised from a history already redacted) and base64 payloads (images, documents).
 * @module
 */
import { type KeepAsIs, MUST_COPY, redactCopying } from "../shared/redact-value";
import { isKeptType, scanMessage } from "./message-scan";
import { redactAcrossBlocks } from "./redact-across-blocks";

/** Signed thinking, server compaction's signed summary and base64 payloads are never rewritten. */
const keepAsIs: KeepAsIs = (value) => isKeptType((value as { type?: unknown }).type);

/** Brands what {@link redactMessage} returned (a type only: nothing is added to the value). */
declare const REDACTED_BRAND: unique symbol;

/**
 * A value that passed {@link redactMessage}: it holds no secret, so it can be delivered again
 * without another walk (a history entry handed over to the consumer, say).
 */
export type Redacted<M> = M & { readonly [REDACTED_BRAND]: true };

/**
 * `message` (a model message, an SDK message, any value) with every secret replaced by
 * `[redacted]` — the same object when it holds none. `loopMeta` is the message's `meta` when the
 * loop built it alone from its own clock and arithmetic (see `redactValue`'s `vouched`): kept as it is.
 */
export function redactMessage<M>(message: M, secrets: readonly string[], loopMeta?: object): Redacted<M> {
  // One walk; in each array, across blocks first, over the texts as written: a block redacted alone
  // would hide its half.
  const rules = { secrets, keep: keepAsIs, acrossItems: redactAcrossBlocks, vouched: loopMeta };
  if (scanMessage(message, rules) !== MUST_COPY) return message as Redacted<M>;
  return redactCopying(message, rules) as Redacted<M>;
}
