/**
 * What a query yields: one discriminated union, with the result message always last.
 * @module
 */
import type { AppliedContextEdit } from "./applied-context-edit";
import type { PendingApproval } from "./approvals";
import type { PendingInput } from "./pending-inputs";
import type { ModelStreamEvent } from "./stream-event";
import type { AssistantModelMessage, GuardrailRecord, StopReason, Usage, UserModelMessage } from "./types";

/** How a query ended. */
export type ResultSubtype =
  | "success"
  | "error_max_turns"
  | "error_abort"
  | "error_timeout"
  | "interrupted"
  | "error_missing_output"
  | "error_max_budget_usd"
  | "error_during_execution"
  /** The query paused: the calls in `pending_approvals` wait for a person's decision (not an error). */
  | "requires_approval"
  /**
   * The query paused: the questions in `pending_inputs` (an MCP server's elicitation during a tool
   * call) wait for a person's answer (not an error). Resume with `prompt({ inputs })`.
   */
  | "requires_input"
  /** A guardrail tripped (`guardrail` names it): the turn was withdrawn, nothing after the trip ran. */
  | "guardrail_tripwire";

/** Usage and cost of one model, as listed on a result. */
export type ModelUsage = Usage & { cost_usd: number };

/** A tool call that a permission rule, mode, hook or `canUseTool` refused. */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
  /** Which rule refused it. */
  source: "disallowedTools" | "permissionMode" | "hook" | "canUseTool" | "approval";
  message: string;
}

/** The last message of every query. */
export interface SDKResultMessage<T = unknown> {
  type: "result";
  subtype: ResultSubtype;
  /** False for `success` and `interrupted`. */
  is_error: boolean;
  /** Final text; on errors the partial text so far. */
  result: string;
  /** With `outputSchema` (or `outputFormat`), on success: the validated payload. */
  structuredResult?: T;
  /** Why the query failed: TimeoutError, MissingOutputError, the provider error … */
  error?: Error;
  /** Summed over this query's model requests, compaction included. */
  usage: Usage;
  /** From the last response. */
  stop_reason: StopReason | null;
  /** Which stop sequence ended the last response, when one did. */
  stop_sequence?: string | null;
  /** Model requests made by this query (compaction and summaries not counted). */
  num_turns: number;
  total_cost_usd: number;
  /** Per model actually used. */
  model_usage: Record<string, ModelUsage>;
  duration_ms: number;
  /** Tool calls refused by permissions or hooks during this query. */
  permission_denials: PermissionDenial[];
  /** With `requires_approval`: every call waiting for a decision, in the model's order. */
  pending_approvals?: PendingApproval[];
  /** With `requires_input`: every question waiting for an answer (`prompt({ inputs: { [id]: answer } })`). */
  pending_inputs?: PendingInput[];
  /**
   * The checkpoint the query's prompt started (its `meta.checkpoint_id` in history): pass it to
   * `agent.rewind({ to })` to go back to just before this prompt, or `agent.fork({ at })`. Absent
   * when the query added no prompt (a resume with `{ approvals }`, a prompt a hook blocked).
   */
  checkpoint_id?: string;
  /** With `guardrail_tripwire`: the guardrail that tripped, its stage, message and info. */
  guardrail?: GuardrailTrip;
  /**
   * An agent with handoffs (`AgentOptions.handoffs`): this query's usage and cost by the agent
   * whose request it was (its name), then by model — `model_usage` split by who answered. A
   * compaction or summary request counts under the agent active when it ran.
   */
  agent_usage?: Record<string, Record<string, ModelUsage>>;
}

/** The guardrail that tripped, on a `guardrail_tripwire` result. */
export interface GuardrailTrip {
  name: string;
  stage: GuardrailRecord["stage"];
  message?: string;
  info?: unknown;
}

/** Status of one MCP server, as reported on `init`. */
export interface McpServerStatus {
  name: string;
  status: "connected" | "failed";
  error?: string;
  tools?: string[];
  /** Tools the server lists that the agent cannot call, and why (e.g. they require MCP tasks). */
  skipped?: Array<{ tool: string; reason: string }>;
}

/** The system messages a query may yield. */
export type SDKSystemMessage =
  | { type: "system"; subtype: "init"; model: string; tools: string[]; mcp_servers?: McpServerStatus[] }
  | {
      type: "system";
      subtype: "compaction";
      compacted_messages: number;
      usage: Usage;
      trigger: "auto" | "overflow";
      /**
       * Who compacted: `"provider"` for the provider's server compaction (`usage` is the
       * compaction's own, `compacted_messages` the messages before its block); absent: the SDK.
       */
      where?: "provider";
    }
  | { type: "system"; subtype: "compaction_failed"; error: Error; consecutive_failures: number }
  | { type: "system"; subtype: "compaction_disabled"; reason: string }
  | {
      type: "system";
      subtype: "tool_result_compaction";
      tool_use_id: string;
      tool_name: string;
      original_chars: number;
      compacted_chars: number;
      usage: Usage;
    }
  | {
      type: "system";
      subtype: "tool_result_compaction_failed";
      tool_use_id: string;
      tool_name: string;
      error: Error;
    }
  | {
      type: "system";
      subtype: "api_retry";
      attempt: number;
      max_retries: number;
      delay_ms: number;
      status?: number;
      error_type?: string;
      error: Error;
      model: string;
    }
  | { type: "system"; subtype: "model_fallback"; from: string; to: string; error: Error }
  | { type: "system"; subtype: "unknown_pricing"; model: string; message: string }
  | { type: "system"; subtype: "max_tokens_continuation"; continuation: number }
  | { type: "system"; subtype: "store_error"; operation: "load" | "append" | "replace"; error: Error }
  | { type: "system"; subtype: "hook_error"; hook: string; error: Error }
  /**
   * A guardrail refused, tripped or redacted something (`guardrail.verdict`), as recorded in
   * history's meta. Allows are not reported.
   */
  | { type: "system"; subtype: "guardrail"; guardrail: GuardrailRecord }
  /**
   * A `transfer_to_<name>` call passed control from agent `from` to agent `to`
   * (`AgentOptions.handoffs`): `to` answers from the next request on. Follows the `user` message
   * carrying the call's result (its `meta.handoff` records the same).
   */
  | { type: "system"; subtype: "handoff"; from: string; to: string }
  /** A guardrail with `onError: "allow"` failed (threw, timed out) and was counted as an allow. */
  | {
      type: "system";
      subtype: "guardrail_error";
      guardrail: string;
      stage: GuardrailRecord["stage"];
      error: Error;
    }
  /**
   * Context editing cleared more of the requests (`contextManagement`): reported when what is
   * cleared changes, with the edits applied to the request just answered — by the provider
   * (`applied_edits` as it reported them) or by the SDK on the outgoing request. History keeps
   * everything.
   */
  | {
      type: "system";
      subtype: "context_edits";
      where: "provider" | "client";
      applied_edits: AppliedContextEdit[];
    }
  /**
   * The provider ignored what was asked of it (`feature`: context editing, or server compaction)
   * or refused it (`"tool_search"`: a request with deferred tools answered 400, and sent again
   * with the agent's own `search_tools`): the SDK does it on its side from now on, for this
   * conversation.
   */
  | {
      type: "system";
      subtype: "context_management_fallback";
      feature: "context_editing" | "compaction" | "tool_search";
      message: string;
    };

/**
 * Everything a query yields. A message a subagent's child agent yielded carries
 * `parent_tool_use_id`: the id of the parent's tool call that started the child (see
 * `defineSubagent`); the query's own messages never have it.
 */
export type SDKMessage<T = unknown> = (
  | SDKSystemMessage
  | { type: "assistant"; message: AssistantModelMessage }
  | { type: "user"; message: UserModelMessage }
  | { type: "stream_event"; event: ModelStreamEvent }
  | SDKResultMessage<T>
) & { parent_tool_use_id?: string };
