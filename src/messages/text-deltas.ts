/**
 * `textDeltas`: the text of a query as it streams, from the messages it yields.
 * @module
 */
import type { SDKMessage } from "./sdk-messages";
import type { AssistantModelMessage } from "./types";

/**
 * Turns the messages of a query (`agent.query(…)`, `agent.streamInput(…)`, or any
 * `AsyncIterable<SDKMessage>`) into the text the model writes, piece by piece as it streams.
 *
 * With `includePartialMessages: true`, each `text_delta` of a `stream_event` is yielded as it
 * arrives. Without it (no stream events), the text of each `assistant` message is yielded whole
 * when the message arrives; a response whose text did stream is never yielded a second time. Only
 * the agent's own text is yielded: thinking, tool inputs, tool results, system messages, the
 * result and the messages of subagents (`parent_tool_use_id` set) are skipped. A response that
 * failed mid-stream and was retried has already yielded the text it streamed; the retry's text
 * follows it.
 *
 * Breaking out of the loop early ends the query cleanly: the source's `return()` is called, so
 * the query stops as it does when its own loop is left.
 *
 * @example
 * const agent = createAgent({ model: "claude-sonnet-4-6", includePartialMessages: true });
 * for await (const text of textDeltas(agent.query("Write a haiku"))) process.stdout.write(text);
 */
export async function* textDeltas(
  messages: AsyncIterable<SDKMessage<unknown>>,
): AsyncGenerator<string, void, undefined> {
  // Whether the response in progress has streamed any text (its assistant message is then skipped).
  let streamed = false;
  for await (const message of messages) {
    if (isSubagentMessage(message)) continue;
    if (message.type === "stream_event") {
      const { event } = message;
      if (event.type === "message_start") streamed = false;
      else if (event.type === "content_block_delta" && event.delta.type === "text_delta") {
        if (typeof event.delta.text !== "string" || event.delta.text === "") continue;
        streamed = true;
        yield event.delta.text;
      }
    } else if (message.type === "assistant") {
      const text = streamed ? "" : textOf(message.message);
      streamed = false;
      if (text !== "") yield text;
    }
  }
}

function textOf(message: AssistantModelMessage): string {
  let text = "";
  for (const block of message.content) if (block.type === "text") text += block.text;
  return text;
}

/** A message a subagent yielded through its parent's query. */
function isSubagentMessage(message: SDKMessage<unknown>): boolean {
  const parent = (message as { parent_tool_use_id?: unknown }).parent_tool_use_id;
  return parent !== undefined && parent !== null;
}
