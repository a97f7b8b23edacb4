/**
 * Terminal output of a query: the answer text as it streams in, one line per tool call and its
 * outcome, a spinner while waiting (terminals only), notices, and a closing line with turns,
 * tokens and cost.
 * @module
 */
import type { SDKMessage, SDKResultMessage, SDKSystemMessage } from "../messages/sdk-messages";
import type { AssistantModelMessage, ToolResultBlock, ToolUseBlock, Usage } from "../messages/types";
import { formatUsd } from "../shared/money";
import { ChildLines } from "./child-lines";
import { howToPrice } from "./pricing-options";
import type { Redactor } from "./redact";
import type { Spinner } from "./spinner";
import { neutraliseControls, type OutputStream, type Style } from "./terminal";
import { ThinkingDisplay } from "./thinking-display";
import { describeToolCall } from "./tool-summary";

/** Where and how a {@link TerminalRenderer} writes. */
export interface TerminalRendererOptions {
  /** The answer text: stdout, or stderr when stdout carries structured output. */
  answer: OutputStream;
  /** Tool lines, notices and the closing line: stderr. */
  status: OutputStream;
  /** Styles of the status lines (plain when colour is off). */
  style: Style;
  spinner: Spinner;
  redact: Redactor;
  /** Show streamed thinking, dimmed, on the answer stream (a terminal, not `--no-thinking-display`). @default false */
  thinking?: boolean;
}

/** The spinner's label while a request is out. */
const WAITING_FOR_MODEL = "waiting for the model…";

/** Renders the messages of queries, one after another, on a terminal or a pipe. */
export class TerminalRenderer {
  private readonly options: TerminalRendererOptions;
  /** Tool calls seen in assistant messages, by id, until their results arrive. */
  private readonly calls = new Map<string, ToolUseBlock>();
  /** The MCP servers' failures already shown (see handleSystem). */
  private readonly reportedServers = new Set<string>();
  /** Text of the current response already written from stream events. */
  private streamedText = false;
  /** The answer stream's last line has no newline yet. */
  private answerLineOpen = false;
  /** Answer text held back: it may be the beginning of a secret that the next piece completes. */
  private heldAnswer = "";

  /** A subagent's messages, indented under the call that started it. */
  private readonly children: ChildLines;
  /** Streamed thinking, when shown. */
  private readonly thinking: ThinkingDisplay | undefined;

  constructor(options: TerminalRendererOptions) {
    this.options = options;
    this.children = new ChildLines(options.style);
    if (options.thinking) this.thinking = new ThinkingDisplay(options.answer, options.style, options.redact);
  }

  /** Calls made in an earlier run (a resumed pause): their results then show the real name and summary. */
  knowCalls(calls: readonly ToolUseBlock[]): void {
    for (const call of calls) this.calls.set(call.id, call);
  }

  /** Call when a query starts: shows the spinner until the first text arrives. */
  begin(): void {
    this.streamedText = false;
    this.options.spinner.start(WAITING_FOR_MODEL);
  }

  /** Renders one message a query yielded. */
  handle(message: SDKMessage): void {
    if (message.parent_tool_use_id !== undefined) {
      for (const line of this.children.linesOf(message, message.parent_tool_use_id)) this.notice(line);
      return;
    }
    switch (message.type) {
      case "stream_event":
        this.handleStreamEvent(message.event);
        break;
      case "assistant":
        this.handleAssistant(message.message);
        break;
      case "user":
        this.handleToolResults(message.message.content);
        break;
      case "system":
        this.handleSystem(message);
        break;
      case "result":
        this.handleResult(message);
        break;
    }
  }

  /** Writes a status line (a notice, the interrupt hint …) without breaking the answer text. */
  notice(text: string): void {
    this.options.spinner.stop();
    this.closeAnswerLine();
    this.options.status.write(`${this.options.redact(text)}\n`);
  }

  /** Stops the spinner and ends the answer line: call before anything else writes to the terminal. */
  end(): void {
    this.options.spinner.stop();
    this.closeAnswerLine();
  }

  private handleStreamEvent(event: { type: string; [key: string]: unknown }): void {
    if (event.type === "message_start") {
      this.streamedText = false;
      return;
    }
    if (event.type === "content_block_start") {
      const block = event.content_block as { type?: string; name?: string } | undefined;
      if (block?.type === "tool_use") {
        this.closeAnswerLine();
        this.options.spinner.start(`preparing ${neutraliseControls(block.name ?? "a tool call")}…`);
      }
      return;
    }
    if (event.type === "content_block_delta") {
      const delta = event.delta as { type?: string; text?: string; thinking?: string } | undefined;
      if (delta?.type === "text_delta" && typeof delta.text === "string" && delta.text !== "") {
        this.writeAnswer(delta.text);
        this.streamedText = true;
      } else if (delta?.type === "thinking_delta" && typeof delta.thinking === "string") {
        this.showThinking(delta.thinking);
      }
      return;
    }
    if (event.type === "content_block_stop") this.thinking?.close();
  }

  private showThinking(text: string): void {
    if (!this.thinking || text === "") return;
    this.options.spinner.stop();
    if (!this.thinking.showing) this.closeAnswerLine();
    this.thinking.write(text);
  }

  private handleAssistant(message: AssistantModelMessage): void {
    if (!this.streamedText) {
      const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      if (text !== "") this.writeAnswer(text);
    }
    this.streamedText = false;
    this.flushAnswer();
    const calls = message.content.filter((block): block is ToolUseBlock => block.type === "tool_use");
    for (const call of calls) this.calls.set(call.id, call);
    this.children.noteCalls(calls);
    if (calls.length > 0) {
      this.closeAnswerLine();
      const names = [...new Set(calls.map((call) => call.name))].join(", ");
      this.options.spinner.start(`running ${neutraliseControls(names)}…`);
    } else {
      this.options.spinner.stop();
    }
  }

  private handleToolResults(content: string | ReadonlyArray<{ type: string }>): void {
    if (typeof content === "string") return;
    const results = content.filter((block): block is ToolResultBlock => block.type === "tool_result");
    if (results.length === 0) return;
    const { style } = this.options;
    for (const result of results) {
      const line = describeToolCall(this.calls.get(result.tool_use_id), result);
      this.calls.delete(result.tool_use_id);
      const mark = line.ok ? style.green("✓") : style.red("✗");
      const outcome = line.ok ? style.dim(line.outcome) : style.red(line.outcome);
      this.notice(`  ${mark} ${style.bold(line.call)} ${style.dim("→")} ${outcome}`);
    }
    this.options.spinner.start(WAITING_FOR_MODEL);
  }

  private handleSystem(message: SDKSystemMessage): void {
    if (message.subtype === "init") {
      // Once per server and failure: every query of a session starts with the same statuses.
      for (const server of message.mcp_servers ?? []) {
        const line =
          server.status === "failed" ? `! MCP server "${server.name}" failed: ${server.error}` : "";
        if (line === "" || this.reportedServers.has(line)) continue;
        this.reportedServers.add(line);
        this.notice(this.options.style.yellow(neutraliseControls(line)));
      }
      return;
    }
    const text = describeSystemMessage(message);
    if (text !== undefined) this.notice(this.options.style.yellow(neutraliseControls(text)));
  }

  private handleResult(result: SDKResultMessage<unknown>): void {
    const { style } = this.options;
    const stats = style.dim(statisticsOf(result));
    if (result.subtype === "success") this.notice(`${style.green("✓ done")} ${stats}`);
    else if (result.subtype === "interrupted") this.notice(`${style.yellow("⏸ interrupted")} ${stats}`);
    else if (result.subtype === "requires_approval")
      this.notice(`${style.yellow("⏸ waiting for approval")} ${stats}`);
    else if (result.subtype === "requires_input")
      this.notice(`${style.yellow("⏸ waiting for answers")} ${stats}`);
    else {
      const why = result.error?.message ? `: ${neutraliseControls(result.error.message)}` : "";
      this.notice(`${style.red(`✗ ${result.subtype}${why}`)} ${stats}`);
    }
  }

  /**
   * Writes answer text, redacted. A piece may end with the first half of a secret (the API key
   * streamed in two deltas): that tail is held back until the next piece, or the end of the text.
   */
  private writeAnswer(text: string): void {
    this.options.spinner.stop();
    this.thinking?.close();
    const pending = this.heldAnswer + text;
    const cut = this.options.redact.unsafeTailStart(pending);
    this.heldAnswer = pending.slice(cut);
    this.emitAnswer(pending.slice(0, cut));
  }

  /** Writes the held-back answer text: the text it might have continued is over. */
  private flushAnswer(): void {
    const held = this.heldAnswer;
    this.heldAnswer = "";
    this.emitAnswer(held);
  }

  private emitAnswer(text: string): void {
    if (text === "") return;
    const redacted = neutraliseControls(this.options.redact(text));
    this.options.answer.write(redacted);
    this.answerLineOpen = !redacted.endsWith("\n");
  }

  private closeAnswerLine(): void {
    this.thinking?.close();
    this.flushAnswer();
    if (!this.answerLineOpen) return;
    this.options.answer.write("\n");
    this.answerLineOpen = false;
  }
}

/** A one-line notice for the system messages worth showing; `undefined` for the others. */
export function describeSystemMessage(message: SDKSystemMessage): string | undefined {
  switch (message.subtype) {
    case "api_retry": {
      const status = message.status ? `${message.status} ` : "";
      return `↻ ${status}${message.error_type ?? message.error.message}: retry ${message.attempt}/${message.max_retries} in ${formatSeconds(message.delay_ms)}`;
    }
    case "model_fallback":
      return `↪ ${message.from} failed (${message.error.message}); falling back to ${message.to}`;
    case "compaction":
      return `⋯ compacted ${message.compacted_messages} messages into a summary (${message.trigger})`;
    case "compaction_failed":
      return `! compaction failed: ${message.error.message}`;
    case "compaction_disabled":
      return `! compaction disabled: ${message.reason}`;
    case "tool_result_compaction":
      return `⋯ summarised the ${message.tool_name} result (${message.original_chars} → ${message.compacted_chars} characters)`;
    case "unknown_pricing":
      // The loop's text points to the `pricing` option; on the command line the way is --price.
      return `! No price is known for model "${message.model}"; its cost is counted as $0. To count it, ${howToPrice(message.model)}.`;
    case "max_tokens_continuation":
      return `⋯ the answer hit the output limit; continuing (${message.continuation})`;
    case "store_error":
      return `! session store ${message.operation} failed: ${message.error.message}`;
    case "hook_error":
      return `! ${message.hook} hook failed: ${message.error.message}`;
    default:
      return undefined;
  }
}

/**
 * `· 3 turns · 1,204 in / 310 out tokens · $0.0083 · 2.4s` (the cost as {@link formatUsd} writes it);
 * `· no response · …` when no turn was answered.
 */
export function statisticsOf(result: SDKResultMessage<unknown>): string {
  const turns = result.num_turns === 0 ? "no response" : countOf(result.num_turns, "turn");
  return `· ${turns} · ${tokensOf(result.usage)} · ${formatUsd(result.total_cost_usd)} · ${formatSeconds(result.duration_ms)}`;
}

/** `3 turns`, `1 turn`, `2 queries`. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

/** `1,204 in (1,000 cached) / 310 out tokens`: every input bucket counted as input. */
export function tokensOf(usage: Usage): string {
  const input =
    usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0);
  const cached = usage.cache_read_input_tokens
    ? ` (${formatCount(usage.cache_read_input_tokens)} cached)`
    : "";
  return `${formatCount(input)} in${cached} / ${formatCount(usage.output_tokens)} out tokens`;
}

function formatCount(count: number): string {
  return count.toLocaleString("en-US");
}

function formatSeconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)}s`;
}
