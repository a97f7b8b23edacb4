/**
 * `defineHandoff`: a specialist the conversation can be handed to. The model of the agent that
 * lists it sees a `transfer_to_<name>` tool; once it calls it, the specialist answers the same
 * conversation (one Agent, one history) with its own system prompt, tools, model and settings.
 * @module
 */
import { InvalidOptionError } from "../errors";
import type { HandoffHistoryForm } from "../loop/state/loop-config";
import type { ModelClient } from "../model/client";
import type { ModelSettingsInput } from "../model/model-settings";
import type { Skill } from "../skills/skill";
import type { ParseWithJsonSchema, SchemaLike } from "../tools/schema";
import type { Tool } from "../tools/tool";

/**
 * What `defineHandoff` takes. Besides the fields below, the model settings (`temperature`,
 * `thinking`, `effort`, `toolChoice` …) are the specialist's own: none of the root agent's is
 * carried over but `promptCaching`, `metadata` and `serviceTier`. Everything else — hooks,
 * permissions, guardrails, limits, retries, pricing, compaction, telemetry, the store, the
 * `outputSchema` — is the agent's, shared by every agent of the conversation.
 */
export interface HandoffDefinition extends ModelSettingsInput {
  /** The specialist's name: `transfer_to_<name>` is its tool. 1–52 letters, digits, `_` or `-`. */
  name: string;
  /** What the model of the agent handing off reads to decide when to call the transfer tool. */
  description: string;
  /** The specialist's system prompt. @default none */
  systemPrompt?: string;
  /** The specialist's own tools; none of the root's unless listed here. @default [] */
  tools?: Tool[];
  /** The specialist's model. @default the root agent's `model` */
  model?: string;
  /** The specialist's model client. @default the root agent's client */
  client?: ModelClient;
  /**
   * What the specialist's requests carry of the conversation; stored history always keeps
   * everything. `"full"`: all of it. `"none"`: the prompt that opened the turn of the handoff, then
   * the transfer call, its result and what follows. `"summary"`: the same, the prompt opened by a
   * plain-text transcript of the conversation before that turn. A function: given a copy of the
   * messages, returns those to send — repaired to a well-formed request, not refused (see
   * `filterHandoffHistory`). @default "full"
   */
  history?: HandoffHistoryForm;
  /**
   * The transfer tool's input (zod, Standard Schema with JSON Schema, or `{ parse, jsonSchema }`):
   * what the model passes when it hands off, validated like any tool input and kept in history
   * with the call. @default `{ reason?: string }`
   */
  inputSchema?: SchemaLike<unknown>;
  /** The specialists this one may hand off to in turn. @default [] */
  handoffs?: Handoff[];
  /** The specialist's skills (folders or `defineSkill` skills), as `AgentOptions.skills`. */
  skills?: Array<string | Skill>;
  /** Output budget of each of its responses. @default the root agent's `maxTokens` */
  maxTokens?: number;
  /** Its fallback model. @default the root's `fallbackModel` when `model` is not set, else none */
  fallbackModel?: string;
  /**
   * Offer the specialist a `transfer_to_<parent>` tool that hands the conversation back to the
   * agent that lists it (the root agent's tool is `transfer_to_<AgentOptions.name>`, by default
   * `transfer_to_main`). @default true
   */
  handBack?: boolean;
}

/** A specialist made by {@link defineHandoff}, listed in `AgentOptions.handoffs` (or a handoff's `handoffs`). */
export interface Handoff {
  /** Marks the object as a handoff. */
  readonly kind: "handoff";
  /** The specialist's name. */
  readonly name: string;
  /** The definition, as given (checked). */
  readonly definition: Readonly<HandoffDefinition>;
}

/** Letters, digits, `_` and `-`: with the prefix, at most the 64 characters of a tool name. */
const HANDOFF_NAME = /^[A-Za-z0-9_-]{1,52}$/;

/**
 * Defines a specialist to hand the conversation to. List it in `AgentOptions.handoffs`; the model
 * sees the tool `transfer_to_<name>`.
 *
 * @throws InvalidOptionError when the name, description, tools, history form or handoffs are invalid
 * @example
 * const billing = defineHandoff({
 *   name: "billing",
 *   description: "Invoices, refunds and payment methods.",
 *   systemPrompt: "You are the billing specialist.",
 *   tools: [lookupInvoice],
 * });
 * const agent = createAgent({ model: "claude-sonnet-4-6", name: "triage", handoffs: [billing] });
 */
export function defineHandoff(definition: HandoffDefinition): Handoff {
  const { name, description } = definition ?? ({} as HandoffDefinition);
  if (typeof name !== "string" || !HANDOFF_NAME.test(name))
    throw new InvalidOptionError(
      `defineHandoff: name must be 1–52 letters, digits, _ or - (the tool is transfer_to_<name>), got ${JSON.stringify(name)}.`,
    );
  if (typeof description !== "string" || description.trim().length === 0)
    throw new InvalidOptionError(`defineHandoff "${name}": description must be a non-empty string.`);
  const { history, tools, handoffs, model, systemPrompt, handBack } = definition;
  if (
    history !== undefined &&
    typeof history !== "function" &&
    history !== "full" &&
    history !== "none" &&
    history !== "summary"
  )
    throw new InvalidOptionError(
      `defineHandoff "${name}": history must be "full", "summary", "none" or a function, got ${JSON.stringify(history)}.`,
    );
  if (tools !== undefined && !Array.isArray(tools))
    throw new InvalidOptionError(`defineHandoff "${name}": tools must be an array of tools.`);
  checkHandoffList(handoffs, `defineHandoff "${name}": handoffs`);
  if (model !== undefined && (typeof model !== "string" || model.length === 0))
    throw new InvalidOptionError(`defineHandoff "${name}": model must be a non-empty string.`);
  if (systemPrompt !== undefined && typeof systemPrompt !== "string")
    throw new InvalidOptionError(`defineHandoff "${name}": systemPrompt must be a string.`);
  if (handBack !== undefined && typeof handBack !== "boolean")
    throw new InvalidOptionError(`defineHandoff "${name}": handBack must be true or false.`);
  return Object.freeze({ kind: "handoff", name, definition: Object.freeze({ ...definition }) });
}

/**
 * Checks a list of handoffs (`AgentOptions.handoffs`, a handoff's `handoffs`).
 * @throws InvalidOptionError naming `where`
 */
export function checkHandoffList(list: unknown, where: string): void {
  if (list === undefined) return;
  if (!Array.isArray(list) || !list.every(isHandoff))
    throw new InvalidOptionError(`${where} must be an array of handoffs made by defineHandoff().`);
}

function isHandoff(value: unknown): value is Handoff {
  const candidate = value as Partial<Handoff> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    candidate.kind === "handoff" &&
    typeof candidate.name === "string"
  );
}

/**
 * `{ reason?: string }`, the transfer tool's input unless the handoff has an `inputSchema`. Written
 * out rather than with zod: importing the root entry must not load a schema library.
 */
export const DEFAULT_TRANSFER_INPUT: ParseWithJsonSchema<{ reason?: string }> = {
  jsonSchema: {
    type: "object",
    properties: {
      reason: { type: "string", description: "Why the conversation is handed over, in one sentence." },
    },
    additionalProperties: false,
  },
  parse(input: unknown): { reason?: string } {
    const value = (input ?? {}) as { reason?: unknown };
    if (typeof value !== "object" || (value.reason !== undefined && typeof value.reason !== "string"))
      throw new TypeError("The input takes `reason`: a string, why the conversation is handed over.");
    return value.reason === undefined ? {} : { reason: value.reason };
  },
};
