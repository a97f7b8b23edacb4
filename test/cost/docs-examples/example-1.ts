import { createAgent, createAnthropicClient } from "../../../src/index";
import { startMockAnthropicServer } from "../../../src/testing/index";

// A local Messages API server that is overloaded three times, then answers.
const server = await startMockAnthropicServer({
  responses: [
    { fault: "status", status: 529 },
    { fault: "status", status: 529 },
    { fault: "status", status: 529 },
    { content: "Answered by the fallback model." },
  ],
});

const agent = createAgent({
  model: "claude-opus-4-8",
  fallbackModel: "claude-sonnet-4-6",
  client: createAnthropicClient({ apiKey: "test-key", baseURL: server.url }),
  retry: { maxRetries: 2, initialDelayMs: 20, maxDelayMs: 200 },
});

for await (const message of agent.query("Summarise the release notes.")) {
  if (message.type === "system" && message.subtype === "api_retry") {
    const { attempt, max_retries, model, status } = message;
    console.log(`retry ${attempt}/${max_retries} of ${model} (status ${status})`);
  }
  if (message.type === "system" && message.subtype === "model_fallback") {
    console.log(`falling back from ${message.from} to ${message.to}`);
  }
  if (message.type === "result") console.log(message.subtype, message.result);
}
await server.close();
