/**
 * Builders of history messages and fast-check generators of histories, for the compaction tests.
 */
import fc from "fast-check";
import type {
  AssistantModelMessage,
  ContentBlock,
  ModelMessage,
  ToolUseBlock,
  UserModelMessage,
} from "../../src/messages/types";

/** A user prompt. */
export function prompt(text: string): UserModelMessage {
  return { role: "user", content: text };
}

/** An assistant answer without tool calls. */
export function reply(text: string): AssistantModelMessage {
  return { role: "assistant", content: [{ type: "text", text }], stop_reason: "end_turn" };
}

/** An assistant message calling `read_file` once per id (the input names the id). */
export function calls(...ids: string[]): AssistantModelMessage {
  return {
    role: "assistant",
    content: ids.map(
      (id): ToolUseBlock => ({ type: "tool_use", id, name: "read_file", input: { path: `${id}.txt` } }),
    ),
    stop_reason: "tool_use",
  };
}

/** A user message answering each id with a tool_result. */
export function results(...ids: string[]): UserModelMessage {
  return {
    role: "user",
    content: ids.map((id) => ({ type: "tool_result", tool_use_id: id, content: `contents of ${id}` })),
  };
}

/** What one step of a generated well-formed history adds. */
type WellFormedStep =
  | { kind: "prompt" }
  | { kind: "reply"; thinking: boolean }
  | { kind: "tools"; count: number; thinking: boolean; errors: boolean[]; trailingText: boolean };

const wellFormedStep: fc.Arbitrary<WellFormedStep> = fc.oneof(
  fc.constant({ kind: "prompt" as const }),
  fc.record({ kind: fc.constant("reply" as const), thinking: fc.boolean() }),
  fc.record({
    kind: fc.constant("tools" as const),
    count: fc.integer({ min: 1, max: 4 }),
    thinking: fc.boolean(),
    errors: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    trailingText: fc.boolean(),
  }),
);

/**
 * Random well-formed histories: a first user prompt, then prompts, assistant answers (some with
 * thinking), and tool rounds of 1–4 calls each followed by their results (some errors, some with a
 * text block after the results), possibly ending with calls still awaiting their results. Every
 * tool_use id, input, result text and thinking signature is unique, so tests can look for them.
 */
export const wellFormedHistory: fc.Arbitrary<ModelMessage[]> = fc
  .record({
    steps: fc.array(wellFormedStep, { maxLength: 30 }),
    danglingCalls: fc.integer({ min: 0, max: 4 }),
  })
  .map(({ steps, danglingCalls }) => buildWellFormedHistory(steps, danglingCalls));

function buildWellFormedHistory(steps: readonly WellFormedStep[], danglingCalls: number): ModelMessage[] {
  let counter = 0;
  const nextId = () => `toolu_${++counter}`;
  const messages: ModelMessage[] = [prompt(`task number ${++counter}`)];
  for (const step of steps) {
    if (step.kind === "prompt") messages.push(prompt(`follow-up ${++counter}`));
    if (step.kind === "reply") {
      const thinking = step.thinking && ++counter;
      messages.push(assistant(thinking, [{ type: "text", text: `answer ${++counter}` }]));
    }
    if (step.kind === "tools") {
      const thinking = step.thinking && ++counter;
      const uses = Array.from({ length: step.count }, () => toolUse(nextId()));
      messages.push(assistant(thinking, uses), toolResults(uses, step.errors, step.trailingText));
    }
  }
  if (danglingCalls > 0)
    messages.push(
      assistant(
        false,
        Array.from({ length: danglingCalls }, () => toolUse(nextId())),
      ),
    );
  return messages;
}

function assistant(thinking: number | false, blocks: ContentBlock[]): AssistantModelMessage {
  const thought: ContentBlock[] =
    thinking === false
      ? []
      : [
          { type: "thinking", thinking: `hidden thought ${thinking}`, signature: `SIGNATURE-${thinking}` },
          { type: "redacted_thinking", data: `REDACTED-${thinking}` },
        ];
  return { role: "assistant", content: [...thought, ...blocks] };
}

function toolUse(id: string): ToolUseBlock {
  return { type: "tool_use", id, name: `tool_for_${id}`, input: { target: `input-of-${id}` } };
}

function toolResults(
  uses: readonly ToolUseBlock[],
  errors: readonly boolean[],
  trailingText: boolean,
): UserModelMessage {
  const blocks: ContentBlock[] = uses.map((use, index) => ({
    type: "tool_result",
    tool_use_id: use.id,
    content: index % 2 === 0 ? `output-of-${use.id}` : [{ type: "text", text: `output-of-${use.id}` }],
    is_error: errors[index] === true,
  }));
  if (trailingText) blocks.push({ type: "text", text: "a note after the results" });
  return { role: "user", content: blocks };
}

/** What one step of a generated orderly (but not necessarily well-formed) history adds. */
type OrderlyStep =
  | { kind: "prompt" }
  | { kind: "reply" }
  | { kind: "calls"; count: number }
  | { kind: "results"; answer: boolean[]; orphans: number; trailingText: boolean };

const orderlyStep: fc.Arbitrary<OrderlyStep> = fc.oneof(
  fc.constant({ kind: "prompt" as const }),
  fc.constant({ kind: "reply" as const }),
  fc.record({ kind: fc.constant("calls" as const), count: fc.integer({ min: 1, max: 4 }) }),
  fc.record({
    kind: fc.constant("results" as const),
    answer: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
    orphans: fc.integer({ min: 0, max: 2 }),
    trailingText: fc.boolean(),
  }),
);

/**
 * Random "orderly" histories that need not be well formed — the shapes a crash or a bad repair
 * leaves behind: every tool_use id is unique and every result comes after its call, but results may
 * arrive late (after other messages), some calls are never answered, some results answer a call
 * that does not exist, and the history may start with any message.
 */
export const orderlyHistory: fc.Arbitrary<ModelMessage[]> = fc
  .array(orderlyStep, { minLength: 0, maxLength: 30 })
  .map((steps) => buildOrderlyHistory(steps));

function buildOrderlyHistory(steps: readonly OrderlyStep[]): ModelMessage[] {
  let counter = 0;
  let pending: string[] = [];
  const messages: ModelMessage[] = [];
  for (const step of steps) {
    if (step.kind === "prompt") messages.push(prompt(`prompt ${++counter}`));
    if (step.kind === "reply") messages.push(reply(`answer ${++counter}`));
    if (step.kind === "calls") {
      const ids = Array.from({ length: step.count }, () => `toolu_${++counter}`);
      pending.push(...ids);
      messages.push(calls(...ids));
    }
    if (step.kind === "results") {
      const answered = pending.filter((_, index) => step.answer[index % step.answer.length]);
      pending = pending.filter((id) => !answered.includes(id));
      const orphans = Array.from({ length: step.orphans }, () => `orphan_${++counter}`);
      const message = results(...answered, ...orphans);
      if (step.trailingText) (message.content as ContentBlock[]).push({ type: "text", text: "note" });
      messages.push(message);
    }
  }
  return messages;
}
