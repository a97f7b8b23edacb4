import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UNRECORDED_TOOL_RESULT_TEXT } from "../../../src/history/repair";
import type { ModelMessage } from "../../../src/messages/types";
import type { StoreLocation } from "../../fixtures/stores/store-workload";
import { startChild } from "./child-runner";
import { PROCESS_TEST_TIMEOUT_MS, useProcessTestEnvironment } from "./process-test-environment";

const env = useProcessTestEnvironment("resume", "test/fixtures/stores/agent-child.ts");
const { postgresUrl, redisUrl, schema, keyPrefix } = env;

const locations: Record<string, (conversation: string) => StoreLocation> = {
  jsonl: (conversation) => ({ kind: "jsonl", path: join(env.folder, "sessions", `${conversation}.jsonl`) }),
  sqlite: (conversation) => ({
    kind: "sqlite",
    path: join(env.folder, "agents.db"),
    conversationId: conversation,
  }),
  postgres: (conversation) => ({
    kind: "postgres",
    connectionString: postgresUrl,
    schema,
    conversationId: conversation,
  }),
  redis: (conversation) => ({ kind: "redis", url: redisUrl, keyPrefix, conversationId: conversation }),
};

interface ChildReport {
  results: string[];
  history: ModelMessage[];
  lastRequestMessages: ModelMessage[];
}

async function runAgentProcess(location: StoreLocation, phase: "first" | "resume"): Promise<ChildReport> {
  const child = startChild(env.childScript, { location, phase });
  const line = await child.waitForLine((text) => text.startsWith("{"));
  const { code } = await child.exited;
  expect(code, child.stderr()).toBe(0);
  return JSON.parse(line) as ChildReport;
}

/** Runs the phase that dies with SIGKILL inside its tool call. */
async function crashAgentProcess(location: StoreLocation): Promise<void> {
  const child = startChild(env.childScript, { location, phase: "crash" });
  const { signal } = await child.exited;
  expect(signal, child.stderr()).toBe("SIGKILL");
}

/** What the model sees of a message: role and content (the SDK's metadata stays out of comparisons). */
const apiView = (messages: ModelMessage[]) => messages.map(({ role, content }) => ({ role, content }));

describe.each(Object.keys(locations))("resuming a %s conversation in a new process", (kind) => {
  it(
    "continues with the full history of the process that ran before",
    async () => {
      const location = locations[kind]!("ada");
      const first = await runAgentProcess(location, "first");
      expect(first.results).toEqual(["success", "success"]);
      expect(apiView(first.history)).toEqual([
        { role: "user", content: "What colour is it?" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_lookup", name: "lookup", input: { key: "colour" } }],
        },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_lookup", content: "value of colour" }],
        },
        { role: "assistant", content: [{ type: "text", text: "The colour is blue." }] },
        { role: "user", content: "My name is Ada. What is my name?" },
        { role: "assistant", content: [{ type: "text", text: "Your name is Ada." }] },
      ]);

      const resumed = await runAgentProcess(location, "resume");
      expect(resumed.results).toEqual(["success"]);
      expect(apiView(resumed.lastRequestMessages)).toEqual([
        ...apiView(first.history),
        { role: "user", content: "What did we talk about?" },
      ]);
      expect(resumed.history).toEqual([
        ...first.history,
        { role: "user", content: "What did we talk about?" },
        resumed.history.at(-1),
      ]);
      expect(apiView(resumed.history.slice(-1))).toEqual([
        { role: "assistant", content: [{ type: "text", text: "We talked about colour and your name." }] },
      ]);
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});

describe.each(Object.keys(locations))(
  "resuming a %s conversation whose process died inside a tool call",
  (kind) => {
    it(
      "closes the dangling call with an error result that says its effect is unverified",
      async () => {
        const location = locations[kind]!("crashed");
        await crashAgentProcess(location);
        const resumed = await runAgentProcess(location, "resume");
        expect(resumed.results).toEqual(["success"]);
        expect(apiView(resumed.lastRequestMessages)).toEqual([
          { role: "user", content: "Deploy it." },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_deploy", name: "deploy", input: {} }],
          },
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "toolu_deploy",
                content: UNRECORDED_TOOL_RESULT_TEXT,
                is_error: true,
              },
            ],
          },
          { role: "user", content: "What did we talk about?" },
        ]);
        expect(apiView(resumed.history)).toEqual([
          ...apiView(resumed.lastRequestMessages),
          { role: "assistant", content: [{ type: "text", text: "We talked about colour and your name." }] },
        ]);
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  },
);
