// The loopback Messages API server of scenarios (c) and (d), in a process of its own so that its
// CPU and memory are never charged to a contender:
//   node bench/scenarios/mock-server-process.mjs
// Every conversation asks for the `echo` tool as many times as its first message says ("Call echo
// N times."), then answers "done". The server is stateless: it reads the turn from the number of
// assistant messages in the request. It prints { "url": … } once listening and stops when its
// standard input closes (its parent ended).
import http from "node:http";
import { syncBuiltinESMExports } from "node:module";
import { importFromDist } from "../lib/dist.mjs";
import { conversationLength, ECHO_TOOL, FINAL_ANSWER, toolUseId } from "../lib/turns.mjs";

// Node's HTTP server closes a keep-alive connection idle for 5 s; on a loaded machine a client can
// reuse the connection just as it closes ("other side closed"), and none of the contenders retries.
// Keep idle connections open for a minute instead: the server of a benchmark must not fail a run.
const createServer = http.createServer;
http.createServer = (...parameters) => {
  const server = createServer(...parameters);
  server.keepAliveTimeout = 60_000;
  return server;
};
syncBuiltinESMExports();
const { startMockAnthropicServer } = await importFromDist("testing.js");
const usage = { input_tokens: 1, output_tokens: 1 };

/** The step for a request: a tool call while the conversation has had fewer than it asked for. */
function answer(body) {
  const toolTurns = conversationLength(body.messages);
  if (toolTurns === undefined) return { fault: "status", status: 400 };
  let turn = 0;
  for (const message of body.messages) if (message.role === "assistant") turn++;
  if (turn >= toolTurns) return { content: FINAL_ANSWER, usage };
  return {
    content: [{ type: "tool_use", id: toolUseId(turn), name: ECHO_TOOL.name, input: { n: turn } }],
    usage,
  };
}

const server = await startMockAnthropicServer({ handler: answer });
// The server records every request; a benchmark has no use for them, so keep memory flat.
const forgetRequests = setInterval(() => {
  server.requests.length = 0;
}, 250);
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.stdin.resume();
process.stdin.on("close", async () => {
  clearInterval(forgetRequests);
  await server.close();
  process.exit(0);
});
