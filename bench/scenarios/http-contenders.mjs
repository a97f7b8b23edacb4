// The contenders of scenarios (c) and (d): tool conversations streamed over loopback HTTP from the
// mock server (./mock-server-process.mjs). `prepare({ url, fetch })` builds what a conversation
// needs (a client, a tool) and returns `converse(toolTurns)`, which runs one conversation (its
// prompt tells the server how many tool turns to ask for) and returns the final answer. `fetch` is the fetch to use (a stamping wrapper in (c)); every
// contender sends its requests through it, so request starts are observed the same way for all.
import { createStreamAssembly, readServerSentEvents } from "../lib/stream-assembly.mjs";
import { conversationPrompt, ECHO_TOOL, echoOutput, MODEL } from "../lib/turns.mjs";
import { importFromDist } from "../lib/dist.mjs";

const API_KEY = "bench-not-a-real-key";
const MAX_TOKENS = 1024;
const ANTHROPIC_TOOLS = [{ name: ECHO_TOOL.name, description: ECHO_TOOL.description, input_schema: ECHO_TOOL.inputSchema }];

/** Adds the model's response and the results of its tool calls; returns the final text, if any. */
function recordTurn(messages, message) {
  messages.push({ role: "assistant", content: message.content });
  const calls = message.content.filter((block) => block.type === "tool_use");
  if (calls.length === 0) return message.content.map((block) => block.text ?? "").join("");
  messages.push({
    role: "user",
    content: calls.map((call) => ({ type: "tool_result", tool_use_id: call.id, content: echoOutput(call.input.n, 0) })),
  });
  return undefined;
}

/** The floor of the floors: fetch, read the SSE bytes, parse each event, assemble — no SDK at all. */
async function rawFetch({ url, fetch = globalThis.fetch }) {
  const headers = { "content-type": "application/json", "x-api-key": API_KEY, "anthropic-version": "2023-06-01" };
  return async (toolTurns) => {
    const messages = [{ role: "user", content: conversationPrompt(toolTurns) }];
    for (let turn = 0; turn <= toolTurns; turn++) {
      const response = await fetch(`${url}/v1/messages`, {
        method: "POST",
        headers,
        body: JSON.stringify({ model: MODEL, max_tokens: MAX_TOKENS, messages, tools: ANTHROPIC_TOOLS, stream: true }),
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
      const assembly = createStreamAssembly();
      await readServerSentEvents(response.body, assembly.apply);
      const answer = recordTurn(messages, assembly.message());
      if (answer !== undefined) return answer;
    }
    throw new Error("the conversation did not end");
  };
}

/** A hand-written loop over `@anthropic-ai/sdk` (one client), streaming with `messages.create`. */
async function rawSdk({ url, fetch }) {
  const { default: Anthropic } = await import("@anthropic-ai/sdk");
  const client = new Anthropic({ apiKey: API_KEY, baseURL: url, maxRetries: 0, ...(fetch ? { fetch } : {}) });
  return async (toolTurns) => {
    const messages = [{ role: "user", content: conversationPrompt(toolTurns) }];
    for (let turn = 0; turn <= toolTurns; turn++) {
      const stream = await client.messages.create({
        model: MODEL,
        max_tokens: MAX_TOKENS,
        messages,
        tools: ANTHROPIC_TOOLS,
        stream: true,
      });
      const assembly = createStreamAssembly();
      for await (const event of stream) assembly.apply(event);
      const answer = recordTurn(messages, assembly.message());
      if (answer !== undefined) return answer;
    }
    throw new Error("the conversation did not end");
  };
}

async function latticeEchoTool() {
  const { defineTool } = await importFromDist("index.js");
  return defineTool({
    name: ECHO_TOOL.name,
    description: ECHO_TOOL.description,
    inputSchema: { parse: (input) => input, jsonSchema: ECHO_TOOL.inputSchema },
    readOnly: true,
    execute: (input) => echoOutput(input.n, 0),
  });
}

async function runLatticeAgent(agent, toolTurns) {
  const result = await agent.prompt(conversationPrompt(toolTurns));
  if (result.subtype !== "success") throw result.error ?? new Error(`agent-lattice run ended ${result.subtype}`);
  return result.result;
}

/** agent-lattice as its README shows it: one Agent per conversation, each with its built-in client. */
async function lattice({ url, fetch }) {
  const { createAgent, createAnthropicClient } = await importFromDist("index.js");
  const echo = await latticeEchoTool();
  return (toolTurns) => {
    const client = fetch ? createAnthropicClient({ apiKey: API_KEY, baseURL: url, fetch }) : undefined;
    const agent = createAgent({
      model: MODEL,
      ...(client ? { client } : { apiKey: API_KEY, baseURL: url }),
      tools: [echo],
      maxTurns: toolTurns + 1,
      maxTokens: MAX_TOKENS,
    });
    return runLatticeAgent(agent, toolTurns);
  };
}

/** agent-lattice with one built-in client shared by every Agent (as the raw SDK loop shares one). */
async function latticeSharedClient({ url, fetch }) {
  const { createAgent, createAnthropicClient } = await importFromDist("index.js");
  const echo = await latticeEchoTool();
  const client = createAnthropicClient({ apiKey: API_KEY, baseURL: url, ...(fetch ? { fetch } : {}) });
  return (toolTurns) =>
    runLatticeAgent(
      createAgent({ model: MODEL, client, tools: [echo], maxTurns: toolTurns + 1, maxTokens: MAX_TOKENS }),
      toolTurns,
    );
}

/** Vercel AI SDK: streamText with `@ai-sdk/anthropic` pointed at the mock server. */
async function vercel({ url, fetch }) {
  const { jsonSchema, stepCountIs, streamText, tool } = await import("ai");
  const { createAnthropic } = await import("@ai-sdk/anthropic");
  const provider = createAnthropic({ apiKey: API_KEY, baseURL: `${url}/v1`, ...(fetch ? { fetch } : {}) });
  const tools = {
    [ECHO_TOOL.name]: tool({
      description: ECHO_TOOL.description,
      inputSchema: jsonSchema(ECHO_TOOL.inputSchema),
      execute: async (input) => echoOutput(input.n, 0),
    }),
  };
  return async (toolTurns) => {
    let failure;
    const result = streamText({
      model: provider(MODEL),
      prompt: conversationPrompt(toolTurns),
      tools,
      maxOutputTokens: MAX_TOKENS,
      maxRetries: 0,
      stopWhen: stepCountIs(toolTurns + 1),
      onError: ({ error }) => {
        failure = error;
      },
    });
    await result.consumeStream();
    if (failure) throw failure;
    const steps = await result.steps;
    if (steps.length !== toolTurns + 1) throw new Error(`Vercel AI SDK ran ${steps.length} steps`);
    return result.text;
  };
}

/** The HTTP contenders by id, in table order. */
export const HTTP_CONTENDERS = {
  "raw-fetch": { label: "raw fetch + SSE parsing loop", prepare: rawFetch },
  "raw-sdk": { label: "raw @anthropic-ai/sdk loop", prepare: rawSdk },
  lattice: { label: "agent-lattice", prepare: lattice },
  "lattice-shared-client": { label: "agent-lattice, one shared client", prepare: latticeSharedClient },
  vercel: { label: "Vercel AI SDK streamText", prepare: vercel },
};
