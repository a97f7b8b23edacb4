/**
 * The provider boundary: the loop talks to a model only through {@link ModelClient}.
 * @module
 */

import type { ModelStreamEvent } from "../messages/stream-event";
import type { AssistantModelMessage, ModelMessage, TextBlock } from "../messages/types";
import type { ModelEndpoint } from "./endpoint";

export type { ModelStreamEvent };

/** A JSON Schema object, as sent to the model for tool inputs and output formats. */
export type JsonSchema = { [key: string]: unknown };

/** A tool as declared to the model. */
export type ModelToolDefinition = { name: string; description?: string; input_schema: JsonSchema };

/**
 * Provider-native structured output: the response text must be JSON matching `schema`.
 * The built-in client sends it as the Messages API's `output_config.format`.
 */
export type OutputFormat = {
  type: "json_schema";
  schema: JsonSchema;
  /** Optional validator for the parsed JSON; when absent the parsed JSON is returned as is. */
  parse?: (input: unknown) => unknown;
};

/** One request to the model. */
export interface ModelRequest {
  model: string;
  system?: string | TextBlock[];
  messages: ModelMessage[];
  tools?: ModelToolDefinition[];
  maxTokens: number;
  /** Provider-native JSON schema output, when the caller asked for it. */
  outputFormat?: OutputFormat;
  /** Aborted on cancel, interrupt or deadline. */
  signal: AbortSignal;
  /** This request's deadline in milliseconds, when one applies. */
  timeoutMs?: number;
  /** Raw stream events, for partial messages. Streaming clients call it as events arrive. */
  onEvent?: (event: ModelStreamEvent) => void;
}

/**
 * Anything that can answer a {@link ModelRequest}. Errors it throws are classified by the loop:
 * a numeric `status` of 408, 409, 429, 5xx or 529, a `type` / `error.type` of
 * `"overloaded_error"`, or a network error is transient (retried); anything else fails the query.
 */
export interface ModelClient {
  createMessage(request: ModelRequest): Promise<AssistantModelMessage>;
  /** The service this client talks to, for tracing (`gen_ai.provider.name`, `server.address`). */
  readonly endpoint?: ModelEndpoint;
}
