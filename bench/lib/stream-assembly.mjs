// Assembles an Anthropic streamed message from its events: the minimum a hand-written streaming
// loop needs (text and tool_use blocks, the stop reason). Shared by the raw loops of (c) and (d).

/** A fresh assembler; `apply` each event, then `message()`. */
export function createStreamAssembly() {
  const content = [];
  const partialJson = [];
  let stopReason = null;
  return {
    apply(event) {
      switch (event.type) {
        case "content_block_start":
          content[event.index] = { ...event.content_block };
          partialJson[event.index] = "";
          break;
        case "content_block_delta":
          if (event.delta.type === "text_delta") content[event.index].text += event.delta.text;
          else if (event.delta.type === "input_json_delta") partialJson[event.index] += event.delta.partial_json;
          break;
        case "content_block_stop": {
          const block = content[event.index];
          if (block.type === "tool_use") block.input = partialJson[event.index] ? JSON.parse(partialJson[event.index]) : {};
          break;
        }
        case "message_delta":
          stopReason = event.delta.stop_reason;
          break;
      }
    },
    message() {
      return { role: "assistant", content, stop_reason: stopReason };
    },
  };
}

/**
 * Parses a server-sent event stream (a fetch Response body) and calls `onEvent` with each event's
 * JSON payload. Frames end with a blank line; only `data:` lines are read.
 */
export async function readServerSentEvents(body, onEvent) {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of frame.split("\n")) {
        if (line.startsWith("data:")) onEvent(JSON.parse(line.slice(5)));
      }
      end = buffer.indexOf("\n\n");
    }
  }
}
