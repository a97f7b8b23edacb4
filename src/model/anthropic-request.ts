/**
 * The request half of the built-in Anthropic client: a {@link ModelRequest} becomes the body of
 * `POST /v1/messages`, holding API fields only.
 * @module
 */
import type { ModelMessage, TextBlock } from "../messages/types";
import { withToolSearchTool } from "./anthropic-tool-search";
import { placeCacheMarkers } from "./cache-markers";
import type { JsonSchema, ModelRequest, ModelSettingsField, ModelToolDefinition } from "./client";
import {
  betasOfEdits,
  CONTEXT_MANAGEMENT_BETA,
  toWireContextManagement,
  type WireContextManagement,
} from "./context-management";
import {
  type Effort,
  RESERVED_BODY_FIELDS,
  type ServiceTier,
  type ThinkingConfig,
  type ToolChoice,
} from "./model-settings";

/** `tool_choice` as the Messages API reads it. */
export type WireToolChoice =
  | { type: "auto" | "any"; disable_parallel_tool_use?: boolean }
  | { type: "tool"; name: string; disable_parallel_tool_use?: boolean }
  | { type: "none" };

/** `thinking` as the Messages API reads it. */
export type WireThinking =
  | { type: "enabled"; budget_tokens: number }
  | { type: "adaptive" }
  | { type: "disabled" };

/**
 * The Messages API body, without `stream` (the caller sets it): declared here, so the package
 * depends on no SDK's types. Fields of `extraBody` are written over it as given.
 */
export type AnthropicRequestBody = {
  model: string;
  max_tokens: number;
  messages: Array<{ role: ModelMessage["role"]; content: ModelMessage["content"] }>;
  system?: string | TextBlock[];
  /** The tools; with a deferred one, the search tool's declaration too ({@link withToolSearchTool}). */
  tools?: Array<ModelToolDefinition | { type: string; name: string }>;
  tool_choice?: WireToolChoice;
  thinking?: WireThinking;
  output_config?: { format?: { type: "json_schema"; schema: JsonSchema }; effort?: Effort };
  metadata?: { user_id?: string };
  service_tier?: ServiceTier;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  cache_control?: unknown;
  context_management?: WireContextManagement;
};

/**
 * Maps a request to the wire body: `maxTokens` → `max_tokens`, `system` and `tools` when present,
 * the model settings under their API names (`temperature`, `topP` → `top_p`, `topK` → `top_k`,
 * `stopSequences` → `stop_sequences`, `toolChoice` / `parallelToolCalls` → `tool_choice` with
 * `disable_parallel_tool_use`, `thinking` → `thinking` with `budget_tokens`, `effort` and
 * `outputFormat` → `output_config.effort` / `.format` (without our `parse`), `metadata.userId` →
 * `metadata.user_id`, `serviceTier` → `service_tier`), then `extraBody` (never over `model`,
 * `messages`, `max_tokens`, `tools`, `stream` or `system`), then, with `promptCaching`, the cache
 * markers ({@link placeCacheMarkers}). Assistant messages lose the metadata the SDK keeps beside
 * them (`providerResponseId`, `model`, `usage`, `stop_reason`, `stop_sequence`); content blocks are
 * passed by reference — thinking blocks and signatures byte for byte — and only blocks that get a
 * cache marker are copied.
 */
export function toAnthropicRequestBody(
  request: ModelRequest,
  options: { nativeTools?: boolean } = {},
): AnthropicRequestBody {
  const body: AnthropicRequestBody = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: request.messages.map(toWireMessage),
  };
  if (request.system !== undefined && request.system.length > 0) body.system = request.system;
  if (request.tools && request.tools.length > 0)
    body.tools = withToolSearchTool(wireTools(request.tools, options.nativeTools));
  for (const write of SETTING_WRITERS_IN_ORDER) write(body, request);
  if (request.contextManagement) body.context_management = toWireContextManagement(request.contextManagement);
  mergeExtraBody(body, request.extraBody);
  return request.promptCaching ? placeCacheMarkers(body, request.promptCaching) : body;
}

/** Writes one model setting of a request onto the body. */
type SettingWriter = (body: AnthropicRequestBody, request: ModelRequest) => void;

/** The settings written over the finished body, after `context_management`, by {@link toAnthropicRequestBody}. */
type OverBodySetting = "extraBody" | "promptCaching";

/**
 * Each model setting under its Messages API name (`MODEL_SETTINGS[key].wire`), in the order the
 * body holds them. The type fails to compile when a setting of {@link ModelSettingsField} has no
 * writer here (or is not one of the two written over the finished body).
 */
const SETTING_WRITERS: { readonly [K in Exclude<ModelSettingsField, OverBodySetting>]: SettingWriter } = {
  temperature: (body, { temperature }) => {
    if (temperature !== undefined) body.temperature = temperature;
  },
  topP: (body, { topP }) => {
    if (topP !== undefined) body.top_p = topP;
  },
  topK: (body, { topK }) => {
    if (topK !== undefined) body.top_k = topK;
  },
  stopSequences: (body, { stopSequences }) => {
    if (stopSequences && stopSequences.length > 0) body.stop_sequences = [...stopSequences];
  },
  toolChoice: (body, request) => {
    const toolChoice = wireToolChoice(request.toolChoice, request.parallelToolCalls);
    // The API refuses a tool_choice without tools (a compaction request has none).
    if (toolChoice && body.tools) body.tool_choice = toolChoice;
  },
  // Part of `tool_choice` (`disable_parallel_tool_use`): written with `toolChoice`, just above.
  parallelToolCalls: () => {},
  thinking: (body, { thinking }) => {
    if (thinking) body.thinking = wireThinking(thinking);
  },
  // `output_config` holds the effort and the JSON output format (not a model setting) together.
  effort: (body, { effort, outputFormat }) => {
    const outputConfig: NonNullable<AnthropicRequestBody["output_config"]> = {};
    if (outputFormat) outputConfig.format = { type: "json_schema", schema: outputFormat.schema };
    if (effort) outputConfig.effort = effort;
    if (outputConfig.format || outputConfig.effort) body.output_config = outputConfig;
  },
  metadata: (body, { metadata }) => {
    if (metadata?.userId !== undefined) body.metadata = { user_id: metadata.userId };
  },
  serviceTier: (body, { serviceTier }) => {
    if (serviceTier) body.service_tier = serviceTier;
  },
};

const SETTING_WRITERS_IN_ORDER: readonly SettingWriter[] = Object.freeze(Object.values(SETTING_WRITERS));

/**
 * `tool_choice` on the wire. `parallelToolCalls: false` adds `disable_parallel_tool_use: true` to
 * `auto`, `any` and a named tool (with no `toolChoice`, to `auto`); `none` has no such field.
 */
export function wireToolChoice(
  choice: ToolChoice | undefined,
  parallelToolCalls: boolean | undefined,
): WireToolChoice | undefined {
  const serial = parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined) return parallelToolCalls === false ? { type: "auto", ...serial } : undefined;
  if (choice === "none") return { type: "none" };
  if (choice === "auto" || choice === "any") return { type: choice, ...serial };
  return { type: "tool", name: choice.name, ...serial };
}

/** `thinking` on the wire: `budgetTokens` → `budget_tokens`. */
export function wireThinking(thinking: ThinkingConfig): WireThinking {
  if (thinking.type === "enabled") return { type: "enabled", budget_tokens: thinking.budgetTokens };
  return { type: thinking.type };
}

/** Writes `extraBody`'s fields over the body, except the fields the SDK owns. */
function mergeExtraBody(body: AnthropicRequestBody, extraBody: Record<string, unknown> | undefined): void {
  if (!extraBody) return;
  const target = body as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(extraBody)) {
    if (RESERVED_BODY_FIELDS.includes(key) || key === "__proto__" || value === undefined) continue;
    target[key] = value;
  }
}

/**
 * The `anthropic-beta` header a request needs, or `undefined`: the context-management beta when it
 * asks for context edits or declares a native tool, the compaction beta when it asks for server
 * compaction (comma-separated when both).
 */
export function betaHeaderOf(request: ModelRequest, nativeTools = false): string | undefined {
  const betas = request.contextManagement ? betasOfEdits(request.contextManagement) : [];
  if (
    nativeTools &&
    request.tools?.some((tool) => tool.native_type) &&
    !betas.includes(CONTEXT_MANAGEMENT_BETA)
  )
    betas.unshift(CONTEXT_MANAGEMENT_BETA);
  return betas.length > 0 ? betas.join(",") : undefined;
}

/**
 * The tools as sent: a tool with a `native_type` as `{ type, name }` when the provider honours it
 * (`nativeTools`), else as a plain tool without that field; the array as given when none has one.
 */
function wireTools(
  tools: ModelToolDefinition[],
  nativeTools: boolean | undefined,
): NonNullable<AnthropicRequestBody["tools"]> {
  if (!tools.some((tool) => tool.native_type)) return tools;
  return tools.map((tool) => {
    if (!tool.native_type) return tool;
    if (nativeTools) return { type: tool.native_type, name: tool.name };
    const { native_type: _native, ...plain } = tool;
    return plain;
  });
}

/** A history message as the API accepts it: `role` and `content`, nothing else. */
function toWireMessage(message: ModelMessage): {
  role: ModelMessage["role"];
  content: ModelMessage["content"];
} {
  return { role: message.role, content: message.content };
}

/**
 * The body of `POST /v1/messages/count_tokens` for `request`: what its prompt is made of, with the
 * context edits it asks of the provider (`context_management`, server compaction left out), so the
 * count is of what the model would read.
 */
export function toCountTokensBody(request: ModelRequest): Record<string, unknown> {
  const { compact: _compact, ...edits } = request.contextManagement ?? {};
  const contextManagement = edits.clearToolUses || edits.clearThinking ? edits : undefined;
  const full = toAnthropicRequestBody({
    ...request,
    contextManagement,
    promptCaching: undefined,
    extraBody: undefined,
  });
  const body: Record<string, unknown> = { model: full.model, messages: full.messages };
  if (full.system !== undefined) body.system = full.system;
  if (full.tools !== undefined) body.tools = full.tools;
  if (full.tool_choice !== undefined) body.tool_choice = full.tool_choice;
  if (full.thinking !== undefined) body.thinking = full.thinking;
  if (full.context_management !== undefined) body.context_management = full.context_management;
  return body;
}
