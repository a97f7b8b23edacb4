/**
 * The tracing seam of the loop. Without `telemetry` enabled every call below is a no-op on shared
 * objects (nothing allocated per turn); with it, the OpenTelemetry implementation is loaded lazily
 * from `./open-telemetry` (`./otel-api` loads `@opentelemetry/api` at run time).
 * @module
 */
import type { ModelRequest } from "../model/client";

/** A span value. */
export type SpanAttributeValue = string | number | boolean | string[];

/** One span in progress. */
export interface SpanHandle {
  set(attributes: Record<string, SpanAttributeValue | undefined>): void;
  /** Marks the span failed, recording the error. */
  fail(error: unknown): void;
  /** Records a named event at this moment (a pause, a resume), with its attributes. */
  event(name: string, attributes?: Record<string, SpanAttributeValue | undefined>): void;
  end(): void;
  /**
   * Runs `work` with this span as the active context, so spans started inside it (HTTP
   * instrumentation, a tool's own tracing) become its children. Absent when tracing is off: callers
   * then call `work` directly, with no closure.
   */
  activate?<T>(work: () => T): T;
}

/** Creates the spans the loop reports. */
export interface Telemetry {
  /** `invoke_agent`: one per query. */
  query(model: string): SpanHandle;
  /** `chat <model>`: one per model request attempt. */
  modelCall(parent: SpanHandle, request: ModelRequest): SpanHandle;
  /** `execute_tool <name>`: one per tool call. */
  toolCall(parent: SpanHandle, toolName: string, toolUseId: string): SpanHandle;
  /** `compaction`: one per compaction attempt (its model call is a child). */
  compaction(parent: SpanHandle, trigger: "auto" | "overflow" | "tool_result"): SpanHandle;
  /** The settings it records with; absent when tracing is off (a subagent's child inherits them). */
  readonly settings?: TelemetryOptions;
}

/**
 * The tracing a subagent's child agent nests in: the parent query's settings, and the
 * `execute_tool` span of the call that starts the child (the parent of the child's `invoke_agent`).
 */
export interface InheritedTracing {
  readonly settings: TelemetryOptions;
  readonly span: SpanHandle;
}

/** The span of a disabled telemetry. */
export const NOOP_SPAN: SpanHandle = Object.freeze({ set() {}, fail() {}, event() {}, end() {} });

/** Telemetry that records nothing. */
export const NOOP_TELEMETRY: Telemetry = Object.freeze({
  query: () => NOOP_SPAN,
  modelCall: () => NOOP_SPAN,
  toolCall: () => NOOP_SPAN,
  compaction: () => NOOP_SPAN,
});

/** `AgentOptions.telemetry`. */
export interface TelemetryOptions {
  /** An OpenTelemetry `Tracer`. @default trace.getTracer("agent-lattice") from `@opentelemetry/api` */
  tracer?: unknown;
  /** `gen_ai.agent.name` on the query span. */
  agentName?: string;
  /**
   * `gen_ai.provider.name` on model spans. @default what the client's `endpoint` says: the built-in
   * client names the providers of its documented endpoints (`"deepseek"`, `"moonshot"` …) and
   * `"anthropic"` otherwise
   */
  providerName?: string;
}
