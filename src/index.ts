/**
 * agent-lattice: the public surface of the root entry. Every export here is public API; named
 * exports only. This entry never imports an optional peer dependency.
 * @module
 */

export type {
  Checkpoint,
  ForkOptions,
  RewindOptions,
  RewindResult,
  UntrackedCall,
} from "./agent/checkpoint-methods";
export {
  type ClearThinkingOptions,
  type ClearToolUsesOptions,
  type ContextManagementOptions,
  type ContextManagementWhere,
  DEFAULT_CLEAR_AT_LEAST_TOKENS,
  DEFAULT_CLEAR_TRIGGER_TOKENS,
  DEFAULT_KEEP_THINKING_TURNS,
  DEFAULT_KEEP_TOOL_USES,
} from "./agent/context-options";
export type { ContextUsage, ContextUsageByCategory } from "./agent/context-usage";
export { type Agent, createAgent } from "./agent/create-agent";
export { defineHandoff, type Handoff, type HandoffDefinition } from "./agent/handoff";
export type {
  AgentOptions,
  AutoCompactOptions,
  CompactToolResultsOptions,
  InternalOptions,
  QueryOptions,
  RetryOptions,
} from "./agent/options";
export {
  DEFAULT_AGENT_NAME,
  DEFAULT_COMPACTION_THRESHOLD_TOKENS,
  DEFAULT_COMPACTION_WINDOW_SHARE,
  DEFAULT_KEEP_RECENT_MESSAGES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MAX_TURNS,
  DEFAULT_RETRY_INITIAL_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_TOOL_CONCURRENCY,
  DEFAULT_TOOL_RESULT_THRESHOLD_CHARS,
} from "./agent/options";
export type { ToolSearchOption, ToolSearchSettings } from "./agent/tool-search-option";
export { DEFAULT_COMPACTION_PROMPT, DEFAULT_TOOL_RESULT_SUMMARY_PROMPT } from "./compaction/prompt";
export { isWellFormedHistory, type WellFormedOptions } from "./compaction/well-formed";
export { DEFAULT_PRICING, type LongPromptPricing, type ModelPricing } from "./cost/pricing";
export {
  AbortError,
  AgentLatticeError,
  BudgetExceededError,
  ConcurrentQueryError,
  ContextWindowExceededError,
  ConversationConflictError,
  GuardrailError,
  GuardrailTripwireError,
  HistoryStoreError,
  HookFailure,
  InvalidOptionError,
  MaxTurnsError,
  MissingOutputError,
  PromptBlockedError,
  ProviderError,
  type ProviderErrorDetails,
  StructuredOutputError,
  TimeoutError,
} from "./errors";
export {
  DEFAULT_GUARDRAIL_TIMEOUT_MS,
  defineGuardrail,
  type Guardrail,
  type GuardrailContext,
  type GuardrailDefinition,
  type GuardrailStage,
  type GuardrailVerdict,
} from "./guardrails/guardrail";
export { type JudgeGuardrailOptions, judgeGuardrail } from "./guardrails/judge";
export {
  findPii,
  isCardNumber,
  isIban,
  type PiiFinding,
  type PiiGuardrailOptions,
  type PiiKind,
  piiGuardrail,
} from "./guardrails/pii";
export {
  type HistoryRange,
  type HistoryWindow,
  readHistoryWindow,
} from "./history/history-window";
export {
  createJsonlHistoryStore,
  type JsonlHistoryStore,
  type JsonlHistoryStoreOptions,
} from "./history/jsonl";
export { DEFAULT_RUN_CLAIM_TTL_MS, type RunClaim, type RunClaimOptions } from "./history/run-claim";
export { defineHistoryStore, type HistoryStore } from "./history/store";
export { isWithdrawn, withoutWithdrawnTurns } from "./history/withdrawn-turns";
export {
  type CanUseTool,
  DEFAULT_HOOK_TIMEOUT_MS,
  type HookMatcher,
  type Hooks,
  type ModelRequestInput,
  type ModelRequestOutput,
  type PermissionMode,
  type PermissionResult,
  type PostToolUseInput,
  type PostToolUseOutput,
  type PreCompactInput,
  type PreCompactOutput,
  type PreToolUseInput,
  type PreToolUseOutput,
  type StopInput,
  type StopOutput,
  type UserPromptSubmitInput,
  type UserPromptSubmitOutput,
} from "./hooks/types";
export type {
  McpCatalog,
  McpPromptInfo,
  McpPromptResult,
  McpResourceContents,
  McpResourceInfo,
  McpResourceTemplateInfo,
} from "./integrations/mcp/catalog-types";
export type {
  McpHttpServerConfig,
  McpLogEntry,
  McpProgress,
  McpServerConfig,
  McpSseServerConfig,
  McpStdioServerConfig,
} from "./integrations/mcp/config";
export type {
  McpElicitationAnswer,
  McpElicitationContext,
  McpElicitationHandler,
  McpElicitationRequest,
} from "./integrations/mcp/elicitation-types";
export type {
  McpHttpAuth,
  McpOAuthClientProvider,
  McpPrivateKeyJwt,
  McpStoredCredentials,
  McpTokenStore,
} from "./integrations/mcp/oauth/auth-options";
export { filterHandoffHistory, type HistoryMessage, TRANSFER_TOOL_PREFIX } from "./loop/handoff-history";
export type { HandoffHistoryForm } from "./loop/state/loop-config";
export type { AppliedContextEdit } from "./messages/applied-context-edit";
export type {
  ApprovalDecision,
  ApprovalDecisions,
  ApprovalInput,
  PendingApproval,
} from "./messages/approvals";
export type { AnsweredInput, InputAnswer, InputAnswers, PendingInput } from "./messages/pending-inputs";
export type { PromptInput } from "./messages/prompt-input";
export type {
  GuardrailTrip,
  McpServerStatus,
  ModelUsage,
  PermissionDenial,
  ResultSubtype,
  SDKMessage,
  SDKResultMessage,
  SDKSystemMessage,
} from "./messages/sdk-messages";
export type {
  CitationsDelta,
  ContentBlockDelta,
  ContentBlockDeltaEvent,
  ContentBlockStartEvent,
  ContentBlockStopEvent,
  ErrorEvent,
  InputJsonDelta,
  KnownStreamEventType,
  MessageDeltaEvent,
  MessageStartEvent,
  MessageStopEvent,
  ModelStreamEvent,
  PingEvent,
  SignatureDelta,
  StreamContentBlock,
  StreamMessageStart,
  StreamUsage,
  TextDelta,
  ThinkingDelta,
  UnknownContentBlockDelta,
  UnknownStreamContentBlock,
  UnknownStreamEvent,
} from "./messages/stream-event";
export { textDeltas } from "./messages/text-deltas";
export type {
  AssistantModelMessage,
  CacheCreationUsage,
  CompactionBlock,
  ContentBlock,
  GuardrailRecord,
  HandoffRecord,
  ImageBlock,
  MessageMeta,
  ModelMessage,
  RedactedThinkingBlock,
  ServerToolUseBlock,
  StopReason,
  TextBlock,
  ThinkingBlock,
  ToolReference,
  ToolResultBlock,
  ToolSearchToolResultBlock,
  ToolUseBlock,
  Usage,
  UserModelMessage,
} from "./messages/types";
export { type AnthropicClientOptions, createAnthropicClient } from "./model/anthropic";
export type {
  JsonSchema,
  ModelClient,
  ModelRequest,
  ModelSettingsField,
  ModelToolDefinition,
  OutputFormat,
} from "./model/client";
export { CLEARED_TOOL_RESULT } from "./model/context-editing";
export type { ClearThinkingEdit, ClearToolUsesEdit, ContextEdits } from "./model/context-management";
export {
  CLAUDE_CONTEXT_WINDOW,
  CLAUDE_LONG_CONTEXT_WINDOW,
  CONTEXT_WINDOWS,
  contextWindowOf,
  LONG_CONTEXT_MODELS,
} from "./model/context-windows";
export type { ModelEndpoint, ProviderFeatures, ProviderProfile } from "./model/endpoint";
export type {
  CacheTtl,
  Effort,
  ModelSettings,
  PromptCachingConfig,
  PromptCachingOption,
  RequestMetadata,
  ServiceTier,
  ThinkingConfig,
  ToolChoice,
} from "./model/model-settings";
export { isPromptTooLongError } from "./model/prompt-too-long";
export {
  type RankedTool,
  type RankToolsOptions,
  rankTools,
  type ToolRank,
  ToolRanker,
} from "./shared/tool-ranker";
export type { ToolSearchSynonyms } from "./shared/tool-synonyms";
export { type LoadSkillsOptions, loadSkills } from "./skills/load-skills";
export {
  DEFAULT_INSTRUCTIONS_MAX_BYTES,
  type ProjectInstructions,
} from "./skills/project-instructions";
export { defineSkill, type Skill, type SkillDefinition, type SkillWarning } from "./skills/skill";
export { SkillFormatError } from "./skills/skill-format-error";
export { defineSubagent } from "./subagents/define-subagent";
export {
  MAX_SUBAGENT_DEPTH,
  type SubagentCall,
  type SubagentDefinition,
} from "./subagents/subagent-definition";
export type { TelemetryOptions } from "./telemetry/telemetry";
export type { AgentToolContext } from "./tools/agent-context";
export { defineTool, type ToolDefinition } from "./tools/define-tool";
export type { CheckpointFiles, FileCheckpoints, FileRestoreReport } from "./tools/file-checkpoints";
export type { OutputSchema } from "./tools/output-schema";
export type {
  InferSchema,
  ParseWithJsonSchema,
  SchemaLike,
  StandardSchemaWithJsonSchema,
} from "./tools/schema";
export { SEARCH_TOOLS_TOOL_NAME } from "./tools/search-tools-tool";
export { SUBMIT_OUTPUT_EXCLUSIVE_BATCH, SUBMIT_OUTPUT_TOOL_NAME } from "./tools/submit-output";
export type { NeedsApproval, ParseResult, Tool, ToolContext, ToolOutput } from "./tools/tool";
export { createToolContext } from "./tools/tool-context";
