// Streaming tool execution: one turn where the model streams a read-only call, then 500 ms of
// text, and the tool takes 400 ms. Over loopback HTTP from startMockAnthropicServer (SSE), the
// built-in client. The mock holds the stream for 500 ms after the tool_use block's
// content_block_stop (`pauseAfterBlock`), then sends the text and the end.
//
// Measured, per mode (streamingToolExecution true / false), median over rounds:
//   turn      wall time from the prompt to the result: model request 1 (streamed, 500 ms tail),
//             the tool, model request 2 (a short answer)
//   started   when the tool started, relative to the end of the first response's stream
//             (negative: before it ended)
// Expected: on ≈ max(500, 400) + request 2; off ≈ 500 + 400 + request 2.
//   npm run build && node bench/streaming-tools.mjs [--rounds 5]
import { createAgent, createAnthropicClient, defineTool } from "../dist/index.js";
import { startMockAnthropicServer } from "../dist/testing.js";

const MODEL = "claude-sonnet-4-6";
const TAIL_MS = 500;
const TOOL_MS = 400;
const rounds = Number(process.argv[process.argv.indexOf("--rounds") + 1]) || 5;

const server = await startMockAnthropicServer();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function oneTurn(streaming) {
  let toolStartedAt = 0;
  let streamEndedAt = 0;
  const read = defineTool({
    name: "read_file",
    description: "Reads a file",
    readOnly: true,
    inputSchema: { parse: (input) => input },
    jsonSchema: { type: "object", properties: { path: { type: "string" } } },
    execute: async () => {
      toolStartedAt = performance.now();
      await new Promise((resolve) => setTimeout(resolve, TOOL_MS));
      return "file contents";
    },
  });
  server.enqueue(
    {
      content: [
        { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "README.md" } },
        { type: "text", text: "While that file loads, here is what I expect to find in it." },
      ],
      pauseAfterBlock: { index: 0, ms: TAIL_MS },
    },
    { content: "Done." },
  );
  const client = createAnthropicClient({ apiKey: "sk-bench", baseURL: server.url });
  const agent = createAgent({
    model: MODEL,
    client,
    tools: [read],
    streamingToolExecution: streaming,
    includePartialMessages: true,
  });
  const start = performance.now();
  let result;
  for await (const message of agent.query("Read the README")) {
    if (message.type === "stream_event" && message.event.type === "message_stop" && !streamEndedAt)
      streamEndedAt = performance.now();
    if (message.type === "result") result = message;
  }
  if (result?.subtype !== "success") throw new Error(`unexpected result ${result?.subtype}`);
  return { turn: performance.now() - start, started: toolStartedAt - streamEndedAt };
}

const rows = [];
for (const streaming of [true, false]) await oneTurn(streaming); // warm-up
const samples = { true: [], false: [] };
for (let round = 0; round < rounds; round++)
  for (const streaming of [true, false]) samples[streaming].push(await oneTurn(streaming));
for (const streaming of [true, false]) {
  const list = samples[streaming];
  rows.push({
    streamingToolExecution: streaming,
    "turn ms": median(list.map((s) => s.turn)).toFixed(0),
    "tool started vs stream end, ms": median(list.map((s) => s.started)).toFixed(0),
  });
}
console.table(rows);
await server.close();
