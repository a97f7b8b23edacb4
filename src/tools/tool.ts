/**
 * The tool contract: what a tool declares to the model and how the loop runs it.
 * @module
 */

import type { ImageBlock, TextBlock } from "../messages/types";
import type { JsonSchema } from "../model/client";
import type { AgentToolContext } from "./agent-context";
import type { ChildResume, ChildSuspension } from "./child-suspension";
import type { FileCheckpoints } from "./file-checkpoints";

/**
 * What a tool returns: plain text, or content with flags. `isError` marks the result as an error
 * for the model; `endTurn` ends the query after this batch (see the loop docs).
 */
export type ToolOutput =
  | string
  | { content: string | Array<TextBlock | ImageBlock>; isError?: boolean; endTurn?: boolean };

/** What a running tool receives besides its input. */
export interface ToolContext {
  /** Aborted when the query is aborted (signal, deadline) — long tools should stop on it. */
  signal: AbortSignal;
  /** The id of the tool_use block being answered. */
  toolUseId: string;
  /** The tool's name as the model called it. */
  toolName: string;
  /**
   * The running query, for a tool that runs an agent of its own (`defineSubagent`). Set by the
   * agent loop; absent when the tool runs outside an agent's query.
   */
  agent?: AgentToolContext;
  /**
   * The checkpoint the running query belongs to (the id on its prompt's `meta`): a tool that
   * changes files records their prior content under it, so `agent.rewind({ files: true })` can
   * put them back. Absent when the tool runs outside an agent's query.
   */
  checkpointId?: string;
  /**
   * A key for this tool call, stable across retries, crash repair, a resume in another process and
   * a fleet re-delivery, and different for every other call: the id of the prompt's checkpoint the
   * call belongs to and the model's `tool_use` id (`cp_…/toolu_…`). Hand it to a service that
   * deduplicates requests (a payment API's idempotency key). A fork keeps the keys of the calls
   * recorded before its fork point (they are the same calls); a call made after the fork, or after a
   * rewind, is a new call with a new key. Outside an agent's query it is the `toolUseId`.
   */
  idempotencyKey: string;
  /**
   * Runs `run` once for this call and `name`, and records its result durably (in the
   * conversation's history store) before returning it. When the call runs again — after a crash,
   * in another process — a step already recorded returns its recorded result without running
   * `run`; only the steps not yet recorded run. The result must be plain JSON (objects, arrays,
   * strings, finite numbers, booleans, `null`, or `undefined`); it is returned as recorded — a plain
   * copy, with the agent's secrets redacted — on the first run and on a replay alike. A step whose
   * process died while `run` ran (started, not recorded) runs again: the step boundary is the one
   * at-least-once window left. Outside an agent's query, `run` simply runs. See docs/en/durable-tools.md.
   */
  step<T>(name: string, run: () => T | Promise<T>): Promise<T>;
}

/** A tool's approval requirement: always, or decided per call from its validated input. */
export type NeedsApproval<Input = any> =
  | boolean
  | ((input: Input, context: ToolContext) => boolean | Promise<boolean>);

/** The result of validating a tool input. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** A tool ready for the loop. Build one with {@link defineTool}. */
export interface Tool<Input = any> {
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of the input, as sent to the model. */
  readonly inputSchema: JsonSchema;
  /**
   * The input schema as the tool's source declared it, where `inputSchema` had to be simplified for
   * the Messages API (an MCP tool's top-level `oneOf`/`anyOf`/`allOf`, its `$schema`); absent otherwise.
   */
  readonly sourceInputSchema?: JsonSchema;
  /** Read-only tools may run concurrently with other read-only calls. */
  readonly readOnly: boolean;
  /**
   * Whether a call must wait for a person's decision before it runs: `true`, or a function of the
   * validated input. A batch with such a call pauses: the query ends `requires_approval`.
   * @default false
   */
  readonly needsApproval?: NeedsApproval<any>; // any: a Tool<Input> stays assignable to Tool<any>
  /**
   * The provider's own declaration of this tool, where the provider has one (e.g. `memory_20250818`
   * for the memory tool): the built-in client then declares it as `{ type, name }` on providers
   * that honour it (the Anthropic API, Bedrock, Vertex AI), and as a plain tool elsewhere.
   */
  readonly nativeType?: string;
  /**
   * Left out of the requests until the model finds it with tool search (`AgentOptions.toolSearch`):
   * sent with `defer_loading: true` where the provider searches, else found through the client-side
   * `search_tools` tool. @default false
   */
  readonly deferLoading?: boolean;
  /** Validates raw model input. Never throws: failures are returned for the model to read. */
  parseInput(input: unknown): ParseResult<Input> | Promise<ParseResult<Input>>;
  /**
   * Set on a tool that records the prior content of the files it changes (the workspace
   * `write_file` and `edit_file`): what `agent.rewind({ files: true })` restores from.
   */
  readonly fileCheckpoints?: FileCheckpoints;
  /** Runs the tool. A throw becomes an error tool_result. */
  execute(input: Input, context: ToolContext): ToolOutput | Promise<ToolOutput>;
  /**
   * Set on a tool whose calls run an agent of their own (`defineSubagent`). Inside an agent's query
   * the loop calls it instead of {@link Tool.execute}: the messages of the call's batch go to the
   * consumer live, and a call whose child paused for approval comes back `suspended` — the parent
   * pauses with it, and calls it again with `setup.resume` once the decisions are given.
   */
  runAgentCall?(input: Input, context: ToolContext, setup: AgentCallSetup): Promise<AgentCallOutcome>;
  /**
   * With {@link Tool.runAgentCall}: its calls send no messages of their own to the consumer (an MCP
   * tool whose server may ask a question, unlike a subagent, whose child's messages go out live), so
   * a read-only one may start while the model's response still streams. @default false
   */
  readonly quietAgentCall?: boolean;
}

/** What the loop hands a subagent call besides its input and context. */
export interface AgentCallSetup {
  /** Set when the call resumes a call suspended inside its child: the child goes on from its pause. */
  resume?: ChildResume;
  /**
   * The tracing the child nests in — the query's tracing settings and the call's `execute_tool`
   * span — when tracing is on. Opaque here: the agent that the child runs on reads it.
   */
  tracing?: unknown;
}

/** How a subagent call ended: with a tool output, or suspended while its child waits for approval. */
export type AgentCallOutcome =
  | { kind: "result"; output: ToolOutput }
  | { kind: "suspended"; suspension: ChildSuspension };
