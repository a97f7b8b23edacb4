/**
 * `agent-lattice --mock`: any prompt, offline. The bundled mock Messages API server answers as a
 * small rule-based model: with the run's tools it first uses one that fits the prompt
 * (`mock-intents.ts`: write or change a file the prompt names, run a command it gives, read a file,
 * look for a word, list the folder), then answers from what the tool returned; without tools it
 * says what it would need. Its answers say they come from the mock model, so nobody mistakes them
 * for a real model's.
 * @module
 */
import type { ContentBlock, ModelMessage } from "../messages/types";
import type { MockHandler, MockResponse } from "../testing/mock-server-steps";
import { changeCall, firstCall, followingEdit, type MockCall, type OfferedTool } from "./mock-intents";

/** The key the client sends to the local mock server, so a real key never leaves for it. */
export const MOCK_API_KEY = "mock-offline-key";

/** The tag every answer of the mock model starts with. */
export const MOCK_ANSWER_TAG = "[mock model, offline]";

/** The mock server handler acting as the model of `--mock`. */
export function createMockModel(): MockHandler {
  return (body: { messages?: ModelMessage[]; tools?: OfferedTool[] }) =>
    nextMockResponse(
      body.messages ?? [],
      (body.tools ?? []).map((tool) => tool.name),
      body.tools ?? [],
    );
}

/** The next response to `messages`, given the names of the tools offered. */
export function nextMockResponse(
  messages: readonly ModelMessage[],
  tools: readonly string[],
  offered: readonly OfferedTool[] = [],
): MockResponse {
  const last = messages.at(-1);
  const results =
    last?.role === "user" && Array.isArray(last.content) ? last.content.filter(isToolResult) : [];
  const prompt = promptOf(messages);
  const result = results[0];
  const call = result ? nextCall(messages, prompt, result) : firstCall(prompt, tools, offered);
  if (call) return toolUse(call, messages.length);
  if (result) {
    const lines = resultText(result.content)
      .split("\n")
      .filter((line) => line.trim() !== "");
    const shown = lines.slice(0, 8).join("\n");
    const more = lines.length > 8 ? `\n… (${lines.length - 8} more lines)` : "";
    return answer(
      `${MOCK_ANSWER_TAG} You asked: "${prompt}". ${result.is_error ? "The tool failed" : "Here is what the tool returned"}:\n${shown}${more}`,
    );
  }
  return answer(
    `${MOCK_ANSWER_TAG} You said: "${prompt}". I am the bundled mock model: I answer without a network` +
      (tools.length === 0 ? ", and no tools were offered (with the CLI: --tools read)." : "."),
  );
}

/**
 * The call after a tool result, if the prompt's task needs one: the edit of a change, once its
 * `read_file` came back.
 */
function nextCall(
  messages: readonly ModelMessage[],
  prompt: string,
  result: ToolResult,
): MockCall | undefined {
  if (result.is_error) return undefined;
  const call = callOf(messages, result.tool_use_id);
  if (call?.name !== "read_file" || changeCall(prompt, ["read_file", "edit_file"])?.name !== "read_file")
    return undefined;
  return followingEdit(prompt, String(call.input.path), resultText(result.content));
}

/** The `tool_use` block `id` names, in the assistant message before the results. */
function callOf(messages: readonly ModelMessage[], id: string): MockCall | undefined {
  const turn = messages.at(-2);
  if (turn?.role !== "assistant") return undefined;
  for (const block of turn.content)
    if (block.type === "tool_use" && block.id === id)
      return { name: block.name, input: (block.input ?? {}) as Record<string, unknown> };
  return undefined;
}

/** A response making `call`; its id is unique in the conversation (the count of messages so far). */
function toolUse(call: MockCall, position: number): MockResponse {
  return {
    content: [
      { type: "text", text: `${MOCK_ANSWER_TAG} I'll use ${call.name} for that.` },
      { type: "tool_use", id: `toolu_mock_${position}`, name: call.name, input: call.input },
    ],
  };
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
