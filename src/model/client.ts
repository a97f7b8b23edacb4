/**
 * The provider boundary: the loop talks to a model only through {@link ModelClient}.
 * @module
 */

import type { ModelStreamEvent } from "../messages/stream-event";
import type { AssistantModelMessage, ModelMessage, TextBlock } from "../messages/types";
import type { ContextEdits } from "./context-management";
import type { ModelEndpoint } from "./endpoint";
import type {
  CacheTtl,
  Effort,
  ModelSettings,
  PromptCachingConfig,
  PromptCachingOption,
  RequestMetadata,
  ServiceTier,
  ThinkingConfig,
  ToolChoice,
} from "./model-settings";

export type {
  CacheTtl,
  Effort,
  ModelSettings,
  ModelStreamEvent,
  PromptCachingConfig,
  PromptCachingOption,
  RequestMetadata,
  ServiceTier,
  ThinkingConfig,
  ToolChoice,
};

/** The names of the model settings a {@link ModelRequest} carries (`promptCaching` included). */
export type ModelSettingsField = keyof ModelSettings | "promptCaching";

/** A JSON Schema object, as sent to the model for tool inputs and output formats. */
export type JsonSchema = { [key: string]: unknown };

/**
 * A tool as declared to the model. `native_type`, when set, names the provider's own declaration of
 * the tool (`memory_20250818`): a client that knows it sends `{ type: native_type, name }` to a
 * provider that honours it, and the plain definition elsewhere; it is never sent as a field.
 *
 * `defer_loading: true` (tool search, provider side): the provider
 * keeps the definition out of the prompt until its search tool finds it — the built-in client then
 * declares the Messages API's search tool and its beta.
 */
export type ModelToolDefinition = {
  name: string;
  description?: string;
  input_schema: JsonSchema;
  native_type?: string;
  defer_loading?: boolean;
};

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

/**
 * One request to the model. The model settings (`temperature` … `extraBody`) are the resolved values
 * for this request — the agent's, with a query's overrides — and absent when not set, so the
 * provider's defaults apply; a custom client or `onModelRequest` may read and change them. The
 * built-in client maps each to its Messages API field (`topP` → `top_p`, `toolChoice` →
 * `tool_choice` …) and places the cache markers when `promptCaching` is present.
 */
export interface ModelRequest extends ModelSettings {
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
  /**
   * Prompt caching, when on: the client marks what this request shares with the next as cacheable
   * (`cache_control` with this TTL). Absent: no marker at all.
   */
  promptCaching?: PromptCachingConfig;
  /**
   * Context editing for the provider to apply to this request (`context_management.edits`, with
   * the `context-management-2025-06-27` beta). Absent: none asked of the provider (the agent may
   * have edited `messages` itself).
   */
  contextManagement?: ContextEdits;
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
  /**
   * Credentials this client holds (its key, a token, a password in its base URL): an agent using
   * the client redacts them wherever it redacts its own key. `createAnthropicClient` sets it, as a
   * non-enumerable property (so `util.inspect` and JSON do not show it).
   */
  readonly secrets?: readonly string[];
  /**
   * True when every message `createMessage` resolves with is a new object that the client neither
   * keeps nor hands to anyone else: an agent then records that very object, its turn `meta` added
   * in place, instead of a copy (one copy of a response a turn saved). Leave it unset for a client
   * that caches, records or shares the messages it returns. The built-in client over HTTP and
   * `createScriptedClient` set it.
   */
  readonly freshMessages?: boolean;
  /**
   * Counts the input tokens of a request without running it (the Messages API's
   * `POST /v1/messages/count_tokens`), for `agent.getContextUsage()`. Optional: without it, the
   * agent estimates.
   */
  countTokens?(request: ModelRequest): Promise<number>;
}
