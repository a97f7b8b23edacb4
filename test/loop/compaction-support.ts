import { join } from "node:path";
import { z } from "zod";
import {
  createJsonlHistoryStore,
  DEFAULT_COMPACTION_PROMPT,
  DEFAULT_TOOL_RESULT_SUMMARY_PROMPT,
  defineTool,
  type HistoryStore,
  type ModelMessage,
  type ModelRequest,
  type SDKMessage,
  type Usage,
} from "../../src/index";
import {
  createScriptedClient,
  type ScriptedClient,
  type ScriptedResponse,
  type ScriptedStep,
} from "../../src/testing/index";
import { temporaryFolder } from "../support/temporary-folders";

/** Whether `request` carries `prompt`, verbatim, as one of its text blocks. */
export function carriesPrompt(request: ModelRequest, prompt: string): boolean {
  return request.messages.some(
    (message) =>
      typeof message.content !== "string" &&
      message.content.some((block) => block.type === "text" && block.text === prompt),
  );
}

/** Whether `request` is a history compaction (it carries `prompt`, the default compaction prompt unless given). */
export function isCompactionRequest(request: ModelRequest, prompt = DEFAULT_COMPACTION_PROMPT): boolean {
  return carriesPrompt(request, prompt);
}

/** Whether `request` condenses one oversized tool result. */
export function isToolResultSummaryRequest(request: ModelRequest): boolean {
  return carriesPrompt(request, DEFAULT_TOOL_RESULT_SUMMARY_PROMPT);
}

/** All the text of a request's messages, joined. */
export function requestText(request: ModelRequest): string {
  return request.messages.map(messageText).join("\n");
}

/** The text of a message: its string content, or its text and tool_result texts joined. */
export function messageText(message: ModelMessage | undefined): string {
  if (message === undefined) return "";
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((block) => {
      if (block.type === "text") return block.text;
      if (block.type === "tool_result")
        return typeof block.content === "string"
          ? block.content
          : block.content.map((part) => (part.type === "text" ? part.text : "")).join("");
      return "";
    })
    .join("\n");
}

/** Scripts of a {@link routedClient}. */
export interface RoutedScripts {
  /** Main turns, in order. */
  main: ScriptedStep[];
  /** History compactions, in order. @default one "SUMMARY-<n>" answer per request */
  compaction?: ScriptedStep[];
  /** Tool-result summaries, in order. @default one "CONDENSED-<n>" answer per request */
  toolResultSummary?: ScriptedStep[];
  /** The compaction prompt to recognise. @default DEFAULT_COMPACTION_PROMPT */
  compactionPrompt?: string;
}

/** A scripted client whose requests are sorted by kind. */
export interface RoutedClient {
  client: ScriptedClient;
  /** Main turn requests, in order. */
  main(): ModelRequest[];
  /** Compaction requests, in order. */
  compactions(): ModelRequest[];
  /** Tool-result summary requests, in order. */
  toolResultSummaries(): ModelRequest[];
}

/** The usage every default summary reports. */
export const SUMMARY_USAGE: Usage = { input_tokens: 700, output_tokens: 40 };

/**
 * A scripted client that answers compaction requests, tool-result summaries and main turns each
 * from its own script, and fails loudly when a script runs out.
 */
export function routedClient(scripts: RoutedScripts): RoutedClient {
  const main = [...scripts.main];
  const compaction = scripts.compaction ? [...scripts.compaction] : undefined;
  const toolResultSummary = scripts.toolResultSummary ? [...scripts.toolResultSummary] : undefined;
  const prompt = scripts.compactionPrompt ?? DEFAULT_COMPACTION_PROMPT;
  const sorted = {
    main: [] as ModelRequest[],
    compactions: [] as ModelRequest[],
    summaries: [] as ModelRequest[],
  };
  const client = createScriptedClient(async (live, callIndex) => {
    // The loop passes its live history array: record what was sent, as it was then.
    const request = { ...live, messages: [...live.messages] };
    let step: ScriptedStep | undefined;
    if (isCompactionRequest(request, prompt)) {
      sorted.compactions.push(request);
      step = compaction
        ? compaction.shift()
        : { content: `SUMMARY-${sorted.compactions.length}`, usage: SUMMARY_USAGE };
    } else if (isToolResultSummaryRequest(request)) {
      sorted.summaries.push(request);
      step = toolResultSummary
        ? toolResultSummary.shift()
        : { content: `CONDENSED-${sorted.summaries.length}`, usage: SUMMARY_USAGE };
    } else {
      sorted.main.push(request);
      step = main.shift();
    }
    if (step === undefined) return new Error(`routedClient: request #${callIndex + 1} was not scripted`);
    return typeof step === "function" ? step(live, callIndex) : step;
  });
  return {
    client,
    main: () => sorted.main,
    compactions: () => sorted.compactions,
    toolResultSummaries: () => sorted.summaries,
  };
}

/** A tool call asking `fetch` for `size` characters (or the literal `text`). */
export function fetchCall(id: string, input: { size?: number; text?: string } = {}) {
  return { type: "tool_use" as const, id, name: "fetch", input };
}

/** A main turn that calls `fetch` and reports `inputTokens` of input. */
export function fetchTurn(
  id: string,
  inputTokens: number,
  input: { size?: number; text?: string } = {},
): ScriptedResponse {
  return { content: [fetchCall(id, input)], usage: { input_tokens: inputTokens, output_tokens: 10 } };
}

/** A final text answer reporting `inputTokens` of input. */
export function answer(text: string, inputTokens = 100): ScriptedResponse {
  return { content: text, usage: { input_tokens: inputTokens, output_tokens: 5 } };
}

/** A read-only tool returning `text`, or `size` characters of filler (default 20). */
export const fetchTool = defineTool({
  name: "fetch",
  description: "Fetch a document",
  readOnly: true,
  inputSchema: z.object({ size: z.number().int().nonnegative().optional(), text: z.string().optional() }),
  execute: ({ size, text }) => text ?? "f".repeat(size ?? 20),
});

/** The system messages of one subtype. */
export function systemMessages<T, S extends string>(
  messages: SDKMessage<T>[],
  subtype: S,
): Array<Extract<SDKMessage<T>, { type: "system"; subtype: S }>> {
  return messages.filter(
    (message): message is Extract<SDKMessage<T>, { type: "system"; subtype: S }> =>
      message.type === "system" && message.subtype === subtype,
  );
}

/** A JSONL store on a fresh temporary file, wrapped to record every `replace` it receives. */
export interface RecordingJsonlStore extends HistoryStore {
  readonly path: string;
  /** The arguments of every `replace` call, copied. */
  readonly replaced: ModelMessage[][];
  close(): Promise<void>;
}

/** Creates a {@link RecordingJsonlStore}; the folder is removed after the test. */
export function recordingJsonlStore(): RecordingJsonlStore {
  const folder = temporaryFolder("lattice-compaction-");
  const path = join(folder, "conversation.jsonl");
  const jsonl = createJsonlHistoryStore({ path, failOnError: true });
  const replaced: ModelMessage[][] = [];
  return {
    path,
    replaced,
    failOnError: true,
    load: () => jsonl.load(),
    append: (message) => jsonl.append(message),
    replace: (messages) => {
      replaced.push(structuredClone(messages));
      return jsonl.replace(messages);
    },
    close: () => jsonl.close(),
  };
}

/** What a fresh store over `path` loads from disk. */
export async function reloadJsonl(path: string): Promise<ModelMessage[]> {
  const store = createJsonlHistoryStore({ path, failOnError: true });
  try {
    return await store.load();
  } finally {
    await store.close();
  }
}
