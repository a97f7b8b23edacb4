/**
 * `agent-lattice --mock`: any prompt, offline. The bundled mock Messages API server answers as a
 * small rule-based model: with the run's tools it first uses one that fits the prompt (a file the
 * prompt names: `read_file`; a word to look for: `grep`; otherwise `list_files`, or `bash` with
 * `ls`), then answers from what the tool returned; without tools it says what it would need. Its
 * answers say they come from the mock model, so nobody mistakes them for a real model's.
 * @module
 */
import type { ContentBlock, ModelMessage } from "../messages/types";
import type { MockHandler, MockResponse } from "../testing/mock-server-steps";

/** The key the client sends to the local mock server, so a real key never leaves for it. */
export const MOCK_API_KEY = "mock-offline-key";

/** The tag every answer of the mock model starts with. */
export const MOCK_ANSWER_TAG = "[mock model, offline]";

interface ToolSpec {
  name: string;
}

/** The mock server handler acting as the model of `--mock`. */
export function createMockModel(): MockHandler {
  return (body: { messages?: ModelMessage[]; tools?: ToolSpec[] }, index) =>
    nextMockResponse(
      body.messages ?? [],
      (body.tools ?? []).map((tool) => tool.name),
      index,
    );
}

/** The next response to `messages`, given the names of the tools offered. */
export function nextMockResponse(
  messages: readonly ModelMessage[],
  tools: readonly string[],
  turn: number,
): MockResponse {
  const last = messages.at(-1);
  const results =
    last?.role === "user" && Array.isArray(last.content) ? last.content.filter(isToolResult) : [];
  const prompt = promptOf(messages);
  if (results.length > 0) {
    const [result] = results;
    const text = resultText(result!.content);
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    const shown = lines.slice(0, 8).join("\n");
    const more = lines.length > 8 ? `\n… (${lines.length - 8} more lines)` : "";
    return answer(
      `${MOCK_ANSWER_TAG} You asked: "${prompt}". ${result!.is_error ? "The tool failed" : "Here is what the tool returned"}:\n${shown}${more}`,
    );
  }
  const call = chooseCall(prompt, tools);
  if (!call)
    return answer(
      `${MOCK_ANSWER_TAG} You said: "${prompt}". I am the bundled mock model: I answer without a network` +
        (tools.length === 0 ? ", and this run gave me no tools (try --tools read)." : "."),
    );
  return {
    content: [
      { type: "text", text: `${MOCK_ANSWER_TAG} I'll use ${call.name} for that.` },
      { type: "tool_use", id: `toolu_mock_${turn + 1}`, name: call.name, input: call.input },
    ],
  };
}

function chooseCall(
  prompt: string,
  tools: readonly string[],
): { name: string; input: Record<string, unknown> } | undefined {
  const file = /[\w./-]+\.[A-Za-z]\w*/.exec(prompt)?.[0];
  if (file && tools.includes("read_file")) return { name: "read_file", input: { path: file } };
  const quoted = /["'`]([^"'`]+)["'`]|\b(TODO|FIXME)\b/.exec(prompt);
  const pattern = quoted?.[1] ?? quoted?.[2];
  if (pattern && tools.includes("grep")) return { name: "grep", input: { pattern } };
  if (tools.includes("list_files")) return { name: "list_files", input: { path: "." } };
  if (tools.includes("bash")) return { name: "bash", input: { command: "ls" } };
  return undefined;
}

function answer(text: string): MockResponse {
  return { content: text };
}

/** The text of the last user message that is a prompt (not tool results). */
function promptOf(messages: readonly ModelMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "user") continue;
    if (typeof message.content === "string") return oneLine(message.content);
    const text = message.content
      .map((block) => (block.type === "text" ? block.text : ""))
      .join(" ")
      .trim();
    if (text !== "") return oneLine(text);
  }
  return "";
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

type ToolResult = Extract<ContentBlock, { type: "tool_result" }>;

function isToolResult(block: ContentBlock): block is ToolResult {
  return block.type === "tool_result";
}

function resultText(content: ToolResult["content"]): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((block) => (block.type === "text" ? block.text : "")).join("\n");
}
