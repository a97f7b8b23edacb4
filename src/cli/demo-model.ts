/**
 * The demo's scripted model: a function behind the mock Messages API server that reads each
 * request — the real tool results included — and decides the next response the way a model
 * would: list the files, read the README and grep for TODOs together, write SUMMARY.md from what
 * it found, edit it, and answer. Nothing it writes is canned: the summary and the final answer
 * are built from the tool results in the conversation.
 * @module
 */
import type { ContentBlock, ModelMessage, ToolResultBlock, ToolUseBlock } from "../messages/types";
import type { MockHandler, MockResponse } from "../testing/mock-server-steps";

/** The task the demo gives the agent. */
export const DEMO_PROMPT =
  "Look around this project, write a short SUMMARY.md (what it is, its files, its open TODOs), then mark the summary as reviewed.";
/** The file the demo's agent writes. */
export const DEMO_SUMMARY_FILE = "SUMMARY.md";
/** The system prompt of the demo's agent. */
export const DEMO_SYSTEM_PROMPT =
  "You are a careful assistant working on a project folder through tools. Paths are relative to the project root.";

/** How fast the scripted model answers: slow enough for a person to watch, or at once. */
export interface DemoPacing {
  /** Before each response: the spinner shows meanwhile. */
  delayMs: number;
  /** Between two streamed events: the text arrives piece by piece. */
  eventDelayMs: number;
}

/** Pacing for a person watching a terminal. */
export const WATCHABLE_PACING: DemoPacing = { delayMs: 500, eventDelayMs: 15 };
/** No pauses, for pipes and tests. */
export const IMMEDIATE_PACING: DemoPacing = { delayMs: 0, eventDelayMs: 0 };

/** One tool call of the current task and what came back. */
export interface ToolExchange {
  name: string;
  input: Record<string, unknown>;
  output: string;
  isError: boolean;
}

/** The mock server handler acting as the demo's model. */
export function createDemoModel(pacing: DemoPacing): MockHandler {
  return (body: { messages?: ModelMessage[] }, index) => ({
    ...nextDemoResponse(toolExchangesOfTask(body.messages ?? []), index),
    delayMs: pacing.delayMs,
    eventDelayMs: pacing.eventDelayMs,
  });
}

/** Decides the next response from the tool calls made so far for the current task. */
export function nextDemoResponse(exchanges: readonly ToolExchange[], turn: number): MockResponse {
  const failed = exchanges.find((exchange) => exchange.isError);
  if (failed) return answer(`I had to stop: ${failed.name} failed — ${firstLine(failed.output)}`);
  const listing = latest(exchanges, "list_files");
  if (!listing)
    return toolTurn(turn, "I'll start by listing the project's files.", [
      ["list_files", { path: ".", recursive: true }],
    ]);
  const files = filesOf(listing.output);
  const readmePath = files.find((file) => /^readme(\.md)?$/i.test(file)) ?? files[0] ?? "README.md";
  const readme = latest(exchanges, "read_file");
  const todoSearch = latest(exchanges, "grep");
  if (!readme || !todoSearch)
    return toolTurn(
      turn,
      `There are ${files.length} files. I'll read ${readmePath} and search for TODO comments at the same time.`,
      [
        ["read_file", { path: readmePath }],
        ["grep", { pattern: "TODO", path: "." }],
      ],
    );
  const project = describeProject(readme.output, readmePath);
  const todos = todosOf(todoSearch.output);
  if (!latest(exchanges, "write_file"))
    return toolTurn(turn, `Writing ${DEMO_SUMMARY_FILE}.`, [
      ["write_file", { path: DEMO_SUMMARY_FILE, content: summaryOf(project, files, todos) }],
    ]);
  if (!latest(exchanges, "edit_file"))
    return toolTurn(turn, "Now I'll mark the summary as reviewed.", [
      ["edit_file", { path: DEMO_SUMMARY_FILE, old_string: "Status: draft", new_string: "Status: reviewed" }],
    ]);
  return answer(finalAnswerOf(project, files, todos));
}

/**
 * The tool calls since the latest prompt (a user message that is not only tool results), paired
 * with their results.
 */
export function toolExchangesOfTask(messages: readonly ModelMessage[]): ToolExchange[] {
  let start = 0;
  messages.forEach((message, index) => {
    if (message.role === "user" && !isOnlyToolResults(message.content)) start = index + 1;
  });
  const calls: ToolUseBlock[] = [];
  const results = new Map<string, ToolResultBlock>();
  for (const message of messages.slice(start)) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "tool_use") calls.push(block);
      if (block.type === "tool_result") results.set(block.tool_use_id, block);
    }
  }
  return calls.flatMap((call) => {
    const result = results.get(call.id);
    if (!result) return [];
    return [
      {
        name: call.name,
        input: (call.input ?? {}) as Record<string, unknown>,
        output: textOf(result.content),
        isError: result.is_error === true,
      },
    ];
  });
}

interface ProjectFacts {
  name: string;
  description: string;
}

interface Todo {
  location: string;
  text: string;
}

function describeProject(readFileOutput: string, readmePath: string): ProjectFacts {
  const lines = readFileOutput.split("\n").map((line) => line.replace(/^\s*\d+\t/, ""));
  const heading = lines.find((line) => line.startsWith("# "));
  const name = heading ? heading.slice(2).trim() : readmePath;
  const afterHeading = heading ? lines.slice(lines.indexOf(heading) + 1) : lines;
  const paragraph: string[] = [];
  for (const line of afterHeading) {
    if (line.trim() === "") {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line.trim());
  }
  return { name, description: paragraph.join(" ") || "(no description found)" };
}

/** File paths from a `list_files` listing: folders (ending in `/`), notices and the summary left out. */
function filesOf(listing: string): string[] {
  return listing
    .split("\n")
    .map((line) => line.trim())
    .filter(
      (line) => line !== "" && !line.endsWith("/") && !line.startsWith("[") && line !== DEMO_SUMMARY_FILE,
    );
}

/** TODO comments from `grep` output lines such as `src/a.ts:12: // TODO: fix it`. */
function todosOf(grepOutput: string): Todo[] {
  const todos: Todo[] = [];
  for (const line of grepOutput.split("\n")) {
    const match = /^(.+?):(\d+): (.*)$/.exec(line);
    if (!match || match[1] === DEMO_SUMMARY_FILE) continue;
    const text = match[3]!.replace(/^.*?TODO:?\s*/, "").trim();
    todos.push({ location: `${match[1]}:${match[2]}`, text });
  }
  return todos;
}

function summaryOf(project: ProjectFacts, files: readonly string[], todos: readonly Todo[]): string {
  return [
    `# ${project.name} — summary`,
    "",
    "Status: draft",
    "",
    project.description,
    "",
    `## Files (${files.length})`,
    "",
    ...files.map((file) => `- ${file}`),
    "",
    `## Open TODOs (${todos.length})`,
    "",
    ...(todos.length > 0 ? todos.map((todo) => `- ${todo.text} (${todo.location})`) : ["None found."]),
    "",
  ].join("\n");
}

function finalAnswerOf(project: ProjectFacts, files: readonly string[], todos: readonly Todo[]): string {
  const todoLines = todos.map((todo) => `- ${todo.text} (${todo.location})`);
  return [
    `Done. ${DEMO_SUMMARY_FILE} describes ${project.name}, ${lowerFirst(firstClause(project.description))}.`,
    "",
    `It lists the ${files.length} files and ${todos.length} open ${todos.length === 1 ? "TODO" : "TODOs"}${todos.length > 0 ? ":" : "."}`,
    ...todoLines,
    "",
    "The summary is marked as reviewed.",
  ].join("\n");
}

function toolTurn(turn: number, text: string, calls: Array<[string, Record<string, unknown>]>): MockResponse {
  const content: ContentBlock[] = [{ type: "text", text }];
  calls.forEach(([name, input], index) => {
    content.push({ type: "tool_use", id: `toolu_demo_${turn}_${index}`, name, input });
  });
  return { content };
}

function answer(text: string): MockResponse {
  return { content: [{ type: "text", text }] };
}

function latest(exchanges: readonly ToolExchange[], name: string): ToolExchange | undefined {
  return exchanges.findLast((exchange) => exchange.name === name);
}

function isOnlyToolResults(content: string | readonly ContentBlock[]): boolean {
  return (
    typeof content !== "string" &&
    content.length > 0 &&
    content.every((block) => block.type === "tool_result")
  );
}

function textOf(content: ToolResultBlock["content"]): string {
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? "";
}

/** The description up to its first colon or full stop. */
function firstClause(text: string): string {
  return text.split(/[:.](?:\s|$)/)[0]!.trim();
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
