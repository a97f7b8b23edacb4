/**
 * Hook and permission types. Every hook takes one object and returns a partial override (or
 * nothing); hooks of one event run in registration order and their overrides merge left to right.
 * @module
 */
import type { ModelMessage, ToolResultBlock } from "../messages/types";
import type { ModelRequest } from "../model/client";
import type { ToolOutput } from "../tools/tool";

/** A hook with an optional tool-name matcher and timeout. */
export interface HookMatcher<I, O> {
  /** Which tools it applies to: exact name, `*` for all, or a RegExp. Ignored by non-tool events. */
  matcher?: string | RegExp;
  /** Runs the hook. May return a partial override. Throwing or timing out is reported, never fatal. */
  handler: (input: I) => O | void | Promise<O | void>;
  /** How long the handler may run. @default 60000 */
  timeoutMs?: number;
}

/** Input of `preToolUse`. */
export interface PreToolUseInput {
  toolName: string;
  input: unknown;
  toolUseId: string;
  signal: AbortSignal;
}
/** Override from `preToolUse`: block the call (the model sees `message`) or rewrite its input. */
export interface PreToolUseOutput {
  block?: boolean;
  message?: string;
  updatedInput?: unknown;
}
/** Input of `postToolUse`. */
export interface PostToolUseInput {
  toolName: string;
  input: unknown;
  toolUseId: string;
  output: ToolResultBlock;
}
/** Override from `postToolUse`: replace the result. */
export interface PostToolUseOutput {
  updatedOutput?: ToolOutput;
}
/** Input of `userPromptSubmit`. */
export interface UserPromptSubmitInput {
  prompt: string | import("../messages/types").ContentBlock[];
}
/** Override from `userPromptSubmit`: rewrite the prompt, or block it (the query ends without a model call). */
export interface UserPromptSubmitOutput {
  updatedPrompt?: string | import("../messages/types").ContentBlock[];
  block?: boolean;
  message?: string;
}
/** Input of `preCompact`. */
export interface PreCompactInput {
  trigger: "auto" | "overflow";
  messages: readonly ModelMessage[];
}
/** Override from `preCompact`: skip this compaction, or add instructions to the summary prompt. */
export interface PreCompactOutput {
  skip?: boolean;
  customInstructions?: string;
}
/** Input of `stop`: the loop is about to end with this text. */
export interface StopInput {
  result: string;
  stopReason: string | null;
  numTurns: number;
}
/** Override from `stop`: add a user message and continue the loop (bounded by maxTurns). */
export interface StopOutput {
  continueWith?: string;
}
/** Input of `onModelRequest` as a hook. */
export interface ModelRequestInput {
  request: ModelRequest;
}
/** Override from `onModelRequest`: a replacement request for this call only. */
export interface ModelRequestOutput {
  request?: ModelRequest;
}

/** Hooks by event. */
export interface Hooks {
  preToolUse?: HookMatcher<PreToolUseInput, PreToolUseOutput>[];
  postToolUse?: HookMatcher<PostToolUseInput, PostToolUseOutput>[];
  userPromptSubmit?: HookMatcher<UserPromptSubmitInput, UserPromptSubmitOutput>[];
  preCompact?: HookMatcher<PreCompactInput, PreCompactOutput>[];
  stop?: HookMatcher<StopInput, StopOutput>[];
  onModelRequest?: HookMatcher<ModelRequestInput, ModelRequestOutput>[];
}

/** Decision of {@link CanUseTool}. */
export type PermissionResult =
  | { behavior: "allow"; updatedInput?: unknown }
  | { behavior: "deny"; message: string }
  /** A person must decide: the batch pauses, the query ends `requires_approval` with `message` shown. */
  | { behavior: "ask"; message?: string };

/** Asked before a tool runs (in `default` mode, for tools that are not read-only). */
export type CanUseTool = (
  toolName: string,
  input: unknown,
  context: { signal: AbortSignal; toolUseId: string },
) => Promise<PermissionResult> | PermissionResult;

/**
 * - `default`: read-only tools run; others ask `canUseTool` when one is set.
 * - `plan`: only read-only tools run; others are denied with an explanation.
 * - `bypassPermissions`: every tool runs without asking (lists still apply; a tool's own
 *   `needsApproval` still asks).
 * - `askBeforeWrites`: read-only tools and `allowedTools` run; every other call waits for a
 *   person's approval (the query ends `requires_approval`); `canUseTool` is not asked about them.
 */
export type PermissionMode = "default" | "plan" | "bypassPermissions" | "askBeforeWrites";

/** How long one hook may run before it counts as failed. */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;
