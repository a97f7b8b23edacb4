/**
 * OpenTelemetry spans with the GenAI semantic conventions: `invoke_agent`, `chat <model>`,
 * `execute_tool <name>`, `compaction`. Loaded only when `telemetry` is enabled.
 * @module
 */
import type { Span, SpanKind, Tracer } from "@opentelemetry/api";
import type { ModelRequest } from "../model/client";
import type { ModelEndpoint } from "../model/endpoint";
import { registerSdkSpanParenting, runInModelSpan } from "../model/sdk-span-parenting";
import { redact } from "../shared/redact";
import { redactValue } from "../shared/redact-value";
import { loadOpenTelemetryApi, openTelemetryApi } from "./otel-api";
import { ParentingTracerProvider } from "./parenting-tracer";
import type { SpanAttributeValue, SpanHandle, Telemetry, TelemetryOptions } from "./telemetry";

const TRACER_NAME = "agent-lattice";

/** `error`, or a copy whose message and stack no longer hold a secret (traces leave the process). */
function withoutSecrets(error: Error, secrets: readonly string[]): Error {
  const message = redact(error.message, secrets);
  const stack = error.stack === undefined ? undefined : redact(error.stack, secrets);
  if (message === error.message && stack === error.stack) return error;
  const copy = new Error(message);
  copy.name = error.name;
  copy.stack = stack;
  return copy;
}

class OtelSpan implements SpanHandle {
  constructor(
    readonly span: Span,
    private readonly secrets: readonly string[],
  ) {}
  set(attributes: Record<string, SpanAttributeValue | undefined>): void {
    // The span's redaction boundary: no attribute it records holds a secret (traces leave the process).
    for (const [key, value] of Object.entries(attributes))
      if (value !== undefined) this.span.setAttribute(key, redactValue(value, this.secrets));
  }
  event(name: string, attributes: Record<string, SpanAttributeValue | undefined> = {}): void {
    const recorded: Record<string, SpanAttributeValue> = {};
    for (const [key, value] of Object.entries(attributes))
      if (value !== undefined) recorded[key] = redactValue(value, this.secrets);
    this.span.addEvent(name, recorded);
  }
  fail(error: unknown): void {
    const failure = withoutSecrets(error instanceof Error ? error : new Error(String(error)), this.secrets);
    this.span.recordException(failure);
    this.span.setAttribute("error.type", failure.name || "Error");
    this.span.setStatus({ code: openTelemetryApi().SpanStatusCode.ERROR, message: failure.message });
  }
  end(): void {
    this.span.end();
  }
  activate<T>(work: () => T): T {
    const { context, trace } = openTelemetryApi();
    return context.with(trace.setSpan(context.active(), this.span), work);
  }
}

/** A `chat` span: while it is active, an SDK client's spans are parented to it (see `model/sdk-span-parenting.ts`). */
class ModelCallSpan extends OtelSpan {
  override activate<T>(work: () => T): T {
    return runInModelSpan(this.span, () => super.activate(work));
  }
}

/** Loads `@opentelemetry/api` (rejects without it), then builds telemetry as {@link createOpenTelemetry} does. */
export async function loadOpenTelemetry(...args: Parameters<typeof createOpenTelemetry>): Promise<Telemetry> {
  await loadOpenTelemetryApi();
  return createOpenTelemetry(...args);
}

/**
 * Builds telemetry on a tracer (the global one by default). `endpoint` is the model client's, for
 * the provider and server attributes of model spans; `secrets` are kept out of recorded errors.
 * With `parentSpan` (a subagent's child: the parent's `execute_tool` span) every query span is its
 * child; without it, a child of the active context.
 */
export function createOpenTelemetry(
  options: TelemetryOptions = {},
  endpoint?: ModelEndpoint,
  secrets: readonly string[] = [],
  parentSpan?: SpanHandle,
): Telemetry {
  const { context, trace, SpanKind } = openTelemetryApi();
  const tracer = (options.tracer as Tracer | undefined) ?? trace.getTracer(TRACER_NAME);
  registerSdkSpanParenting({ tracerProvider: (base) => new ParentingTracerProvider(base) });
  const server = serverAttributes(options, endpoint);
  const child = (
    parent: SpanHandle,
    name: string,
    kind: SpanKind,
    attributes: Record<string, SpanAttributeValue>,
    Handle: typeof OtelSpan = OtelSpan,
  ) => {
    const parentContext =
      parent instanceof OtelSpan ? trace.setSpan(context.active(), parent.span) : context.active();
    return new Handle(
      tracer.startSpan(name, { kind, attributes: redactedAttributes(attributes, secrets) }, parentContext),
      secrets,
    );
  };
  return {
    settings: options,
    query(model) {
      const attributes: Record<string, SpanAttributeValue> = {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.request.model": model,
      };
      if (options.agentName) attributes["gen_ai.agent.name"] = options.agentName;
      const name = options.agentName ? `invoke_agent ${options.agentName}` : "invoke_agent";
      const parentContext =
        parentSpan instanceof OtelSpan ? trace.setSpan(context.active(), parentSpan.span) : undefined;
      return new OtelSpan(
        tracer.startSpan(
          name,
          { kind: SpanKind.INTERNAL, attributes: redactedAttributes(attributes, secrets) },
          parentContext,
        ),
        secrets,
      );
    },
    modelCall(parent, request: ModelRequest) {
      const attributes = {
        "gen_ai.operation.name": "chat",
        ...server,
        "gen_ai.request.model": request.model,
        "gen_ai.request.max_tokens": request.maxTokens,
      };
      return child(parent, `chat ${request.model}`, SpanKind.CLIENT, attributes, ModelCallSpan);
    },
    toolCall(parent, toolName, toolUseId) {
      return child(parent, `execute_tool ${toolName}`, SpanKind.INTERNAL, {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": toolName,
        "gen_ai.tool.call.id": toolUseId,
      });
    },
    compaction(parent, trigger) {
      return child(parent, "compaction", SpanKind.INTERNAL, { "agent_lattice.compaction.trigger": trigger });
    },
  };
}

/** `gen_ai.provider.name`, and `server.address` / `server.port` when the client knows them. */
function serverAttributes(
  options: TelemetryOptions,
  endpoint: ModelEndpoint | undefined,
): Record<string, SpanAttributeValue> {
  const attributes: Record<string, SpanAttributeValue> = {
    "gen_ai.provider.name": options.providerName ?? endpoint?.providerName ?? "anthropic",
  };
  if (endpoint?.address) attributes["server.address"] = endpoint.address;
  if (endpoint?.port !== undefined) attributes["server.port"] = endpoint.port;
  return attributes;
}

/** Start attributes pass the same redaction boundary as `set`: a tool call id may hold a key. */
function redactedAttributes(
  attributes: Record<string, SpanAttributeValue>,
  secrets: readonly string[],
): Record<string, SpanAttributeValue> {
  const redacted: Record<string, SpanAttributeValue> = {};
  for (const [key, value] of Object.entries(attributes)) redacted[key] = redactValue(value, secrets);
  return redacted;
}
