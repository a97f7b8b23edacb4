/**
 * A tracer provider that starts every span as a child of the agent's model span current at its
 * start (see `model/sdk-span-parenting.ts`), for the Anthropic SDK client a caller injects: its
 * `anthropic.messages.create` span then sits under `chat <model>`, with or without an
 * OpenTelemetry context manager. Loaded with the rest of the OpenTelemetry implementation only.
 * @module
 */
import type { Context, Span, SpanOptions, Tracer, TracerOptions, TracerProvider } from "@opentelemetry/api";
import { modelSpanNow } from "../model/sdk-span-parenting";
import { openTelemetryApi } from "./otel-api";

/** The context a span starts in: `given` (or the active one), with the current model span as parent. */
function parentContext(given: Context | undefined): Context | undefined {
  const modelSpan = modelSpanNow() as Span | undefined;
  const { context, trace } = openTelemetryApi();
  return modelSpan ? trace.setSpan(given ?? context.active(), modelSpan) : given;
}

/** A tracer whose spans start under the current model span, when there is one. */
class ParentingTracer implements Tracer {
  constructor(private readonly tracer: Tracer) {}

  startSpan(name: string, options?: SpanOptions, given?: Context): Span {
    return this.tracer.startSpan(name, options, parentContext(given));
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: unknown[]): ReturnType<F> {
    const work = rest.pop() as F;
    const [options, given] = rest as [SpanOptions | undefined, Context | undefined];
    const parent = parentContext(given) ?? openTelemetryApi().context.active();
    return this.tracer.startActiveSpan(name, options ?? {}, parent, work) as ReturnType<F>;
  }
}

/** A tracer provider over `base` (the global provider when `undefined`) whose tracers parent to the model span. */
export class ParentingTracerProvider implements TracerProvider {
  constructor(private readonly base: unknown) {}

  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    const provider =
      (this.base as TracerProvider | undefined) ?? openTelemetryApi().trace.getTracerProvider();
    return new ParentingTracer(provider.getTracer(name, version, options));
  }
}
