/**
 * fast-check generators of well-formed conversation histories holding every kind of block the loop
 * records: prompts (text, images), answers with thinking and redacted thinking (signed), tool rounds
 * (parallel calls, errors, text after the results), handoff transfers (`transfer_to_<name>`),
 * subagent calls with block results, the provider's tool search (its call and result in one
 * message, or across a `pause_turn` continuation), server compaction blocks, and a pause for
 * approval at the end (the calls, then the marker). Every id, text and signature is unique.
 */
import fc from "fast-check";
import { approvalMarker } from "../../src/messages/approvals";
import type {
  AssistantModelMessage,
  ContentBlock,
  ModelMessage,
  ToolUseBlock,
  UserModelMessage,
} from "../../src/messages/types";

/** One step of a generated conversation. */
type Step =
  | { kind: "prompt"; image: boolean; blocks: boolean }
  | { kind: "reply"; thinking: boolean }
  | { kind: "tools"; count: number; thinking: boolean; errors: boolean; trailingText: boolean }
  | { kind: "transfer"; agent: string; parallel: boolean; thinking: boolean }
  | { kind: "subagent"; thinking: boolean }
  | { kind: "search"; continued: boolean; thinking: boolean }
  | { kind: "compaction"; failed: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("prompt" as const), image: fc.boolean(), blocks: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("reply" as const), thinking: fc.boolean() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("tools" as const),
      count: fc.integer({ min: 1, max: 3 }),
      thinking: fc.boolean(),
      errors: fc.boolean(),
      trailingText: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("transfer" as const),
      agent: fc.constantFrom("billing", "refunds", "main"),
      parallel: fc.boolean(),
      thinking: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("subagent" as const), thinking: fc.boolean() }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("search" as const),
      continued: fc.boolean(),
      thinking: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("compaction" as const), failed: fc.boolean() }) },
);

/** A generated history and how it ends. */
export interface GeneratedHistory {
  messages: ModelMessage[];
  /** It ends with a pause for approval (the calls, then the marker). */
  paused: boolean;
}

/** Well-formed histories with every block kind; some end with a pause for approval. */
export const richHistory: fc.Arbitrary<GeneratedHistory> = fc
  .record({ steps: fc.array(step, { maxLength: 25 }), pause: fc.integer({ min: 0, max: 2 }) })
  .map(({ steps, pause }) => build(steps, pause));

function build(steps: readonly Step[], pauseCalls: number): GeneratedHistory {
  const ids = { next: 0 };
  const fresh = (prefix: string) => `${prefix}_${++ids.next}`;
  const messages: ModelMessage[] = [textPrompt(fresh("task"))];
  for (const one of steps) messages.push(...messagesOf(one, fresh));
  if (pauseCalls === 0) return { messages, paused: false };
  const uses = Array.from({ length: pauseCalls }, () => toolUse(fresh("toolu"), "write_file"));
  const pending = uses.map((use) => ({ tool_use_id: use.id, name: use.name, input: use.input }));
  messages.push(assistant(undefined, uses), approvalMarker(pending));
  return { messages, paused: true };
}

function messagesOf(one: Step, fresh: (prefix: string) => string): ModelMessage[] {
  const thought = (wanted: boolean) => (wanted ? fresh("thought") : undefined);
  switch (one.kind) {
    case "prompt":
      return [prompt(fresh("ask"), one)];
    case "reply":
      return [assistant(thought(one.thinking), [{ type: "text", text: fresh("answer") }])];
    case "tools": {
      const uses = Array.from({ length: one.count }, () => toolUse(fresh("toolu"), "read_file"));
      return [
        assistant(thought(one.thinking), uses),
        results(uses, one.errors, one.trailingText && fresh("note")),
      ];
    }
    case "transfer": {
      const uses = [toolUse(fresh("toolu"), `transfer_to_${one.agent}`)];
      if (one.parallel) uses.unshift(toolUse(fresh("toolu"), "read_file"));
      const said: ContentBlock = { type: "text", text: fresh("passing-on") };
      return [assistant(thought(one.thinking), [said, ...uses]), results(uses, false, false)];
    }
    case "subagent": {
      const use = toolUse(fresh("toolu"), "researcher");
      const answer: UserModelMessage = {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: use.id,
            content: [{ type: "text", text: fresh("subagent-report") }],
          },
        ],
      };
      return [assistant(thought(one.thinking), [use]), answer];
    }
    case "search":
      return searchMessages(one, fresh, thought(one.thinking));
    case "compaction":
      return [
        {
          role: "assistant",
          content: [
            {
              type: "compaction",
              content: one.failed ? null : fresh("summary"),
              encrypted_content: fresh("enc"),
            },
            { type: "text", text: fresh("after-compaction") },
          ],
        },
      ];
  }
}

/** The provider's tool search: call and result in one response, or across a pause_turn. */
function searchMessages(
  one: { continued: boolean },
  fresh: (prefix: string) => string,
  thinking: string | undefined,
): ModelMessage[] {
  const id = fresh("srvtoolu");
  const call: ContentBlock = {
    type: "server_tool_use",
    id,
    name: "tool_search_tool_bm25",
    input: { query: fresh("q") },
  };
  const found: ContentBlock = {
    type: "tool_search_tool_result",
    tool_use_id: id,
    content: {
      type: "tool_search_tool_search_result",
      tool_references: [{ type: "tool_reference", tool_name: "get_weather" }],
    },
  };
  const after: ContentBlock = { type: "text", text: fresh("found") };
  if (!one.continued) return [assistant(thinking, [call, found, after])];
  const paused: AssistantModelMessage = { ...assistant(thinking, [call]), stop_reason: "pause_turn" };
  return [paused, assistant(undefined, [found, after])];
}

function textPrompt(text: string): UserModelMessage {
  return { role: "user", content: text };
}

function prompt(text: string, shape: { image: boolean; blocks: boolean }): UserModelMessage {
  if (!shape.blocks && !shape.image) return textPrompt(text);
  const blocks: ContentBlock[] = [{ type: "text", text }];
  if (shape.image)
    blocks.push({ type: "image", source: { type: "url", url: `https://example.com/${text}.png` } });
  return { role: "user", content: blocks };
}

function assistant(thinking: string | undefined, blocks: ContentBlock[]): AssistantModelMessage {
  const thought: ContentBlock[] =
    thinking === undefined
      ? []
      : [
          { type: "thinking", thinking, signature: `SIG-${thinking}` },
          { type: "redacted_thinking", data: `REDACTED-${thinking}` },
        ];
  return { role: "assistant", content: [...thought, ...blocks] };
}

function toolUse(id: string, name: string): ToolUseBlock {
  return { type: "tool_use", id, name, input: { target: `input-of-${id}` } };
}

function results(uses: readonly ToolUseBlock[], errors: boolean, note: string | false): UserModelMessage {
  const blocks: ContentBlock[] = uses.map((use, index) => ({
    type: "tool_result",
    tool_use_id: use.id,
    content: `result of ${use.id}`,
    ...(errors && index % 2 === 0 && { is_error: true }),
  }));
  if (note) blocks.push({ type: "text", text: note });
  return { role: "user", content: blocks };
}
