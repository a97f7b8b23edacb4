/**
 * Where a query's messages go: the terminal renderer, or NDJSON with `--json`.
 * @module
 */
import type { SDKMessage } from "../messages/sdk-messages";
import type { ToolUseBlock } from "../messages/types";
import type { CliIo } from "./io";
import { createJsonLineWriter } from "./json-output";
import type { Redactor } from "./redact";
import { TerminalRenderer } from "./render";
import { createTerminalSpinner, SILENT_SPINNER } from "./spinner";
import { createStyle, isInteractiveTerminal } from "./terminal";

/** Receives what happens during queries and says it to the user. */
export interface QueryOutput {
  /** A query starts. */
  begin(): void;
  /** A message the query yielded. */
  handle(message: SDKMessage): void;
  /** A line for the user that is not a message (hints, session notices). Always on stderr. */
  notice(text: string): void;
  /** The query is over (or failed): stop the spinner, end the open line. */
  end(): void;
  /** Tool calls made before this run (a resumed pause), so their results are described by name. */
  knowCalls(calls: readonly ToolUseBlock[]): void;
  /** Whether the output is machine-readable (`--json`). */
  readonly json: boolean;
  /**
   * A line of data beside the messages, for programs (`--json`: one more NDJSON line, e.g. how to
   * resume a pause); a terminal shows it through {@link QueryOutput.notice} instead, so it is ignored there.
   */
  data(line: Record<string, unknown>): void;
  /** Removes the API key (and credential-shaped strings) from text written outside the messages. */
  readonly redact: Redactor;
}

/** How the output should be built. */
export interface QueryOutputOptions {
  json: boolean;
  /** stdout is reserved for the validated JSON payload, so the answer text goes to stderr. */
  structured: boolean;
  /** Show streamed thinking (dimmed, and only when the answer goes to a terminal with colour). @default true */
  thinking?: boolean;
}

/** The output for this run. Colour and spinner only on a terminal without `NO_COLOR`. */
export function createQueryOutput(options: QueryOutputOptions, io: CliIo, redact: Redactor): QueryOutput {
  if (options.json) {
    const writer = createJsonLineWriter(io.stdout, redact);
    return {
      json: true,
      redact,
      begin() {},
      handle: (message) => writer.write(message),
      data: (line) => writer.write(line),
      notice: (text) => io.stderr.write(`${redact(text)}\n`),
      end() {},
      knowCalls() {},
    };
  }
  const fancy = isInteractiveTerminal(io.stderr, io.env);
  const answer = options.structured ? io.stderr : io.stdout;
  const renderer = new TerminalRenderer({
    answer,
    status: io.stderr,
    style: createStyle(fancy),
    spinner: fancy ? createTerminalSpinner(io.stderr) : SILENT_SPINNER,
    redact,
    thinking: options.thinking !== false && isInteractiveTerminal(answer, io.env),
  });
  return {
    json: false,
    redact,
    begin: () => renderer.begin(),
    handle: (message) => renderer.handle(message),
    data() {},
    notice: (text) => renderer.notice(text),
    end: () => renderer.end(),
    knowCalls: (calls) => renderer.knowCalls(calls),
  };
}
