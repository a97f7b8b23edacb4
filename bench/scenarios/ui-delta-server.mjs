// The loopback Messages API server of bench/ui-stream.mjs, in a process of its own (its CPU is never
// charged to the measured process): every request gets one streamed answer of DELTAS one-character
// text deltas (the mock server's raw_events step, sent as real SSE frames). Prints { "url": … } once
// listening; stops when its standard input closes.
import { importFromDist } from "../lib/dist.mjs";

const DELTAS = Number(process.env.DELTAS ?? 10_000);
const { startMockAnthropicServer } = await importFromDist("testing.js");
const events = [
  { type: "message_start", message: { id: "msg_bench", type: "message", role: "assistant", model: "bench", content: [], stop_reason: null, usage: { input_tokens: 10, output_tokens: 0 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  ...Array.from({ length: DELTAS }, () => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "x" } })),
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: DELTAS } },
  { type: "message_stop" },
];
const server = await startMockAnthropicServer({ handler: () => ({ fault: "raw_events", events }) });
console.log(JSON.stringify({ url: server.url }));
process.stdin.resume();
process.stdin.on("end", () => void server.close().then(() => process.exit(0)));
