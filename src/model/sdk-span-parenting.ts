/**
 * The seam that parents the spans an Anthropic SDK client starts (`anthropic.messages.create`) to
 * the agent's `chat` span. It holds no OpenTelemetry code: the implementation registers itself
 * here when an agent with `telemetry` loads it, and the built-in client over an SDK client of the
 * caller's asks for it on each request.
 *
 * Why a seam, and not the active OpenTelemetry context: without a context manager registered
 * (`BasicTracerProvider` alone, as in many setups), the context a span is activated in does not
 * reach the code it calls, and the SDK's span would start as an orphan root. The SDK starts its
 * span synchronously inside `messages.create`, which the client calls synchronously inside the
 * `chat` span's `activate`: the span current here during that call is the one to parent to.
 * @module
 */

/** What the OpenTelemetry implementation offers an SDK client. */
export interface SdkSpanParenting {
  /**
   * A tracer provider over `base` (an SDK client's own `tracerProvider`; the global one when
   * `undefined`) whose spans start as children of the model span current at their start, when
   * there is one, and as `base` would start them otherwise.
   */
  tracerProvider(base: unknown): unknown;
}

let parenting: SdkSpanParenting | undefined;
let currentModelSpan: unknown;

/** Registers the implementation (once; later calls are ignored). */
export function registerSdkSpanParenting(implementation: SdkSpanParenting): void {
  parenting ??= implementation;
}

/** The implementation, once an agent with telemetry has loaded it. */
export function sdkSpanParenting(): SdkSpanParenting | undefined {
  return parenting;
}

/** Runs `work` with `span` (an OpenTelemetry `Span`) as the current model span, for its synchronous part. */
export function runInModelSpan<T>(span: unknown, work: () => T): T {
  const previous = currentModelSpan;
  currentModelSpan = span;
  try {
    return work();
  } finally {
    currentModelSpan = previous;
  }
}

/** The model span whose request is being sent right now, if any. */
export function modelSpanNow(): unknown {
  return currentModelSpan;
}
