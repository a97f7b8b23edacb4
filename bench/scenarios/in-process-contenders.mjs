// The contenders of scenarios (a) and (b): one tool conversation of `toolTurns` tool calls against
// an in-process scripted model, no network. Each contender receives `stamp`, called at the start of
// every model request, and runs the same conversation (see ../lib/turns.mjs) in its own way.
import { ECHO_TOOL, echoOutput, FINAL_ANSWER, MODEL, toolUseId } from "../lib/turns.mjs";
import { importFromDist } from "../lib/dist.mjs";

/** Our scripted client answering call k with a tool call, and the last call with the answer. */
async function scriptedLatticeClient(toolTurns, stamp) {
  const { createScriptedClient } = await importFromDist("testing.js");
  return createScriptedClient(
    (_request, index) => {
      stamp();
      return index < toolTurns
        ? {
            content: [{ type: "tool_use", id: toolUseId(index), name: ECHO_TOOL.name, input: { n: index } }],
            usage: { input_tokens: 1, output_tokens: 1 },
          }
        : { content: FINAL_ANSWER, usage: { input_tokens: 1, output_tokens: 1 } };
    },
    { record: false, emitEvents: false },
  );
}

/** The floor: the smallest correct loop over the same scripted client — no SDK. */
async function floor({ toolTurns, resultBytes, stamp }) {
  const client = await scriptedLatticeClient(toolTurns, stamp);
  const messages = [{ role: "user", content: "go" }];
  const signal = new AbortController().signal;
  const tools = [{ name: ECHO_TOOL.name, description: ECHO_TOOL.description, input_schema: ECHO_TOOL.inputSchema }];
  for (;;) {
    const response = await client.createMessage({ model: MODEL, messages, tools, maxTokens: 1024, signal });
    messages.push(response);
    const calls = response.content.filter((block) => block.type === "tool_use");
    if (calls.length === 0) return response.content[0].text;
    messages.push({
      role: "user",
      content: calls.map((call) => ({
        type: "tool_result",
        tool_use_id: call.id,
        content: echoOutput(call.input.n, resultBytes),
      })),
    });
  }
}

/** agent-lattice: createAgent over the scripted client (no recording, no stream events). */
async function lattice({ toolTurns, resultBytes, stamp }, inputSchema = { parse: (input) => input, jsonSchema: ECHO_TOOL.inputSchema }) {
  const { createAgent, defineTool } = await importFromDist("index.js");
  const echo = defineTool({
    name: ECHO_TOOL.name,
    description: ECHO_TOOL.description,
    inputSchema,
    readOnly: true,
    execute: (input) => echoOutput(input.n, resultBytes),
  });
  const agent = createAgent({
    model: MODEL,
    client: await scriptedLatticeClient(toolTurns, stamp),
    tools: [echo],
    maxTurns: toolTurns + 1,
  });
  const result = await agent.prompt("go");
  if (result.subtype !== "success") throw new Error(`agent-lattice run ended ${result.subtype}`);
  return result.result;
}

/** agent-lattice with `z.object({ n: z.number() })` as the echo tool's input schema. */
async function latticeWithZodInput(options) {
  const { z } = await import("zod");
  return lattice(options, z.object({ n: z.number() }));
}

/** Vercel AI SDK: generateText with the MockLanguageModelV3 from `ai/test` and one tool. */
async function vercel({ toolTurns, resultBytes, stamp }) {
  const { generateText, jsonSchema, stepCountIs, tool } = await import("ai");
  const { MockLanguageModelV3 } = await import("ai/test");
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  };
  let index = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      // The mock records every call's options; drop them so the mock itself keeps nothing alive.
      model.doGenerateCalls.length = 0;
      stamp();
      const call = index++;
      return call < toolTurns
        ? {
            content: [
              { type: "tool-call", toolCallId: toolUseId(call), toolName: ECHO_TOOL.name, input: JSON.stringify({ n: call }) },
            ],
            finishReason: { unified: "tool-calls", raw: "tool_use" },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: "text", text: FINAL_ANSWER }],
            finishReason: { unified: "stop", raw: "end_turn" },
            usage,
            warnings: [],
          };
    },
  });
  const result = await generateText({
    model,
    prompt: "go",
    tools: {
      [ECHO_TOOL.name]: tool({
        description: ECHO_TOOL.description,
        inputSchema: jsonSchema(ECHO_TOOL.inputSchema),
        execute: async (input) => echoOutput(input.n, resultBytes),
      }),
    },
    stopWhen: stepCountIs(toolTurns + 1),
  });
  if (result.steps.length !== toolTurns + 1) throw new Error(`Vercel AI SDK ran ${result.steps.length} steps`);
  return result.text;
}

/** OpenAI Agents SDK: run() with a scripted model implementing its Model interface; tracing off. */
async function openaiAgents({ toolTurns, resultBytes, stamp }) {
  const { Agent, run, setTracingDisabled, tool, Usage } = await import("@openai/agents-core");
  setTracingDisabled(true);
  let index = 0;
  const model = {
    async getResponse() {
      stamp();
      const call = index++;
      const usage = new Usage({ requests: 1, inputTokens: 1, outputTokens: 1, totalTokens: 2 });
      return call < toolTurns
        ? {
            usage,
            responseId: `resp_${call}`,
            output: [
              {
                type: "function_call",
                callId: toolUseId(call),
                name: ECHO_TOOL.name,
                arguments: JSON.stringify({ n: call }),
                status: "completed",
              },
            ],
          }
        : {
            usage,
            responseId: `resp_${call}`,
            output: [
              {
                type: "message",
                role: "assistant",
                status: "completed",
                content: [{ type: "output_text", text: FINAL_ANSWER }],
              },
            ],
          };
    },
    getStreamedResponse() {
      throw new Error("the benchmark uses getResponse only");
    },
  };
  const echo = tool({
    name: ECHO_TOOL.name,
    description: ECHO_TOOL.description,
    parameters: ECHO_TOOL.inputSchema,
    strict: true,
    execute: async (input) => echoOutput(input.n, resultBytes),
  });
  const agent = new Agent({ name: "bench", instructions: "Call echo.", model, tools: [echo] });
  const result = await run(agent, "go", { maxTurns: toolTurns + 1 });
  return result.finalOutput;
}

/** The in-process contenders by id, in table order. */
export const IN_PROCESS_CONTENDERS = {
  floor: { label: "floor (hand-written loop)", run: floor },
  lattice: { label: "agent-lattice", run: lattice },
  // The same, with the tool's input validated by a zod schema (zod runs through safeParseAsync).
  "lattice-zod": { label: "agent-lattice, zod input schema", run: latticeWithZodInput },
  vercel: { label: "Vercel AI SDK generateText", run: vercel },
  "openai-agents": { label: "OpenAI Agents SDK run()", run: openaiAgents },
};
