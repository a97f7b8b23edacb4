/**
 * Streaming tool execution: read-only calls that start while the model's response still streams.
 * A `tool_use` block whose `content_block_stop` has arrived has its whole input; when its tool is
 * read-only, it starts at once — through the whole pipeline of {@link runToolCall} (input check,
 * lists, mode, `preToolUse` hooks, approval, execution), within the batch's concurrency, in the
 * model's order. Only the leading run of such calls starts early: the first call that is not one
 * (a write, an unknown tool, a subagent, an input that does not parse) ends early starts for the
 * response, and it and every call after it wait for the whole response, as without streaming.
 *
 * What a started call produces is held back until the response is in history: its notices (hook
 * errors, summaries) and permission denials reach the query when the batch takes the calls over
 * ({@link StreamedToolCalls.takeOver}), so the consumer still sees the assistant message first,
 * then what the batch did. A response that does not get run as a batch — the attempt failed and
 * is retried or the model falls back, the query was aborted or interrupted, the response was cut at
 * `max_tokens`, went over the budget, overflowed the context, or holds `submit_output` — has its
 * started calls cancelled (their signal aborts) and their results and notices dropped
 * ({@link StreamedToolCalls.discard}): only read-only calls start early, so nothing with an effect
 * ran, and nothing runs twice with one.
 * @module
 */
import type { PermissionDenial, SDKMessage } from "../messages/sdk-messages";
import type { ModelStreamEvent } from "../messages/stream-event";
import type { ToolUseBlock } from "../messages/types";
import { type LinkedController, linkSignals } from "../shared/signals";
import type { CallOutcome } from "../tools/tool-output";
import { runToolCall } from "./tool-call";
import type { ToolRuntime } from "./tool-runtime";

/** A tool_use block still streaming: its id, tool and the input JSON received so far. */
interface OpenCall {
  id: string;
  name: string;
  json: string;
}

/** What the batch takes over: the started calls' outcomes, by tool_use_id. */
export type StartedCalls = ReadonlyMap<string, Promise<CallOutcome>>;

const NONE_STARTED: StartedCalls = new Map();

/**
 * The early calls of one attempt, made at its first tool_use block (a response without calls
 * allocates nothing): the runtime they run on has a signal of its own (discarding aborts it), its
 * notices and denials held back, and no result summary — a summary is a model request of its
 * own, made once the batch takes the call over.
 */
class EarlyCalls {
  readonly open = new Map<number, OpenCall>();
  readonly waiting: ToolUseBlock[] = [];
  readonly started = new Map<string, { call: ToolUseBlock; outcome: Promise<CallOutcome> }>();
  running = 0;
  readonly link: LinkedController;
  readonly runtime: ToolRuntime;
  readonly notices: SDKMessage<unknown>[] = [];
  readonly denials: PermissionDenial[] = [];

  constructor(base: ToolRuntime) {
    this.link = linkSignals(base.signal);
    const notices = this.notices;
    const emit = (message: SDKMessage<unknown>) => notices.push(message);
    this.runtime = {
      ...base,
      signal: this.link.signal,
      emit,
      denials: this.denials,
      compactResult: undefined,
    };
  }

  abort(): void {
    if (!this.link.signal.aborted)
      this.link.abort(new DOMException("The streamed response was not run as a batch.", "AbortError"));
    this.link.dispose();
  }
}

/** The calls started while one main model request streams (its attempts one after another). */
export class StreamedToolCalls {
  private early: EarlyCalls | undefined;
  /** False once a call that may not start early was seen, or the response ended. */
  private starting = true;

  constructor(
    private readonly base: ToolRuntime,
    private readonly concurrency: number,
  ) {}

  /** Takes one raw event of the streaming attempt into account; may start a call. */
  observe(event: ModelStreamEvent): void {
    if (!this.starting) return;
    switch (event.type) {
      case "content_block_start": {
        const block = event.content_block;
        if (block.type !== "tool_use") return;
        if (!this.mayStartEarly(block.name)) this.starting = false;
        else
          (this.early ??= new EarlyCalls(this.base)).open.set(event.index, {
            id: block.id,
            name: block.name,
            json: "",
          });
        return;
      }
      case "content_block_delta": {
        const delta = event.delta;
        if (delta.type !== "input_json_delta") return;
        const open = this.early?.open.get(event.index);
        if (open) open.json += delta.partial_json;
        return;
      }
      case "content_block_stop": {
        const open = this.early?.open.get(event.index);
        if (!open) return;
        this.early!.open.delete(event.index);
        this.complete(this.early!, open);
        return;
      }
    }
  }

  /**
   * The response is complete and its calls run as a batch: no call starts early any more, the
   * held-back notices and denials reach the query (and later ones go straight to it), and the
   * started calls are handed over — all of them, or none (then they are discarded) when one of
   * them is not in `calls` with the input it started with.
   */
  takeOver(calls: readonly ToolUseBlock[]): StartedCalls {
    this.starting = false;
    const early = this.early;
    if (!early) return NONE_STARTED;
    const taken = new Map<string, Promise<CallOutcome>>();
    for (const call of calls) {
      const started = early.started.get(call.id);
      if (started && sameInput(started.call, call)) taken.set(call.id, started.outcome);
    }
    if (taken.size < early.started.size) {
      this.discard();
      return NONE_STARTED;
    }
    const { emit, denials } = this.base;
    for (const notice of early.notices) emit(notice);
    for (const denial of early.denials) denials.push(denial);
    // The calls still running report to the query directly from now on, and follow its signal
    // until they all ended.
    early.runtime.emit = emit;
    early.runtime.denials = denials;
    void Promise.allSettled(taken.values()).then(() => early.link.dispose());
    return taken;
  }

  /**
   * The streamed response is not run as a batch (or the attempt that streamed it failed): the
   * started calls are cancelled and forgotten with their notices; a later attempt starts afresh.
   */
  discard(): void {
    this.early?.abort();
    this.early = undefined;
    this.starting = true; // a retried attempt streams its own calls
  }

  /**
   * A read-only tool of the agent, not a subagent (whose messages would go live before the
   * response); a quiet agent call (an MCP tool that may pause for input) may: a pause it comes back
   * with is the batch's, as when it runs after the response.
   */
  private mayStartEarly(name: string): boolean {
    const tool = this.base.tools.get(name);
    return tool?.readOnly === true && (tool.runAgentCall === undefined || tool.quietAgentCall === true);
  }

  private complete(early: EarlyCalls, open: OpenCall): void {
    const input = parseInput(open.json);
    if (input === undefined) {
      this.starting = false;
      return;
    }
    early.waiting.push({ type: "tool_use", id: open.id, name: open.name, input });
    this.startWaiting(early);
  }

  /** Starts waiting calls, in order, while there is room under the concurrency limit. */
  private startWaiting(early: EarlyCalls): void {
    while (this.starting && early.running < this.concurrency && early.waiting.length > 0) {
      const call = early.waiting.shift()!;
      early.running++;
      const outcome = runToolCall(call, early.runtime).finally(() => this.finished(early));
      outcome.catch(() => {}); // a discarded call's rejection is nobody's; a taken one's the batch sees
      early.started.set(call.id, { call, outcome });
    }
  }

  private finished(early: EarlyCalls): void {
    if (early !== this.early) return; // a call of a discarded attempt
    early.running--;
    this.startWaiting(early);
  }
}

/** The input of a completed block (an empty input is `{}`), or undefined when it is no JSON. */
function parseInput(json: string): unknown {
  if (json.trim() === "") return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}

/** Whether the final response's call is the one that started from the stream. */
function sameInput(streamed: ToolUseBlock, final: ToolUseBlock): boolean {
  if (streamed.name !== final.name) return false;
  try {
    return JSON.stringify(streamed.input) === JSON.stringify(final.input);
  } catch {
    return false;
  }
}
