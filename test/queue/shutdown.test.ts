import { describe, expect, it } from "vitest";
import { createAgent, isWellFormedHistory } from "../../src/index";
import { DEFAULT_CONTINUATION_PROMPT } from "../../src/queue/index";
import { createScriptedClient } from "../../src/testing/index";
import { answerOf, nextStep, promptOf, recordTool } from "../fixtures/queue/workload";
import { fleetKit } from "./fleet";
import { uniqueName } from "./helpers";

const { fleet, historyOf, historyStore, redis, historyPrefix } = fleetKit();

/** An agent factory whose model and tool delays the test changes as it goes. */
function adjustableAgents() {
  const delays = { model: 5, tool: 5 };
  let toolStarted: () => void = () => {};
  const toolStart = new Promise<void>((resolve) => (toolStarted = resolve));
  let batchStarted: () => void = () => {};
  const batchStart = new Promise<void>((resolve) => (batchStarted = resolve));
  let modelCalled: () => void = () => {};
  const modelCall = new Promise<void>((resolve) => (modelCalled = resolve));
  const createJobAgent = ({ conversationId }: { conversationId: string }) =>
    createAgent({
      model: "claude-sonnet-4-6",
      client: createScriptedClient(({ messages }) => {
        modelCalled();
        return { ...nextStep(messages as never), delayMs: delays.model };
      }),
      tools: [
        recordTool(
          redis,
          (prompt) => `${historyPrefix}effects:${prompt}`,
          0,
          () => toolStarted(),
        ),
      ],
      historyStore: historyStore(conversationId),
      hooks: {
        preToolUse: [
          {
            handler: () => {
              batchStarted();
              return new Promise<void>((resolve) => setTimeout(resolve, delays.tool));
            },
          },
        ],
      },
    });
  return { delays, toolStart, batchStart, modelCall, createJobAgent };
}

describe("worker.close()", () => {
  it("lets a running query finish within the grace period, and takes no new job", async () => {
    const agents = adjustableAgents();
    agents.delays.model = 300;
    const { queue, workers } = fleet({ createAgent: agents.createJobAgent });
    const conversationId = uniqueName("graceful");
    const job = await queue.enqueue({ conversationId, input: promptOf(conversationId, 0) });
    await agents.modelCall;
    const closed = workers[0]!.close({ gracePeriodMs: 10_000 });
    const other = uniqueName("later");
    const late = await queue.enqueue({ conversationId: other, input: promptOf(other, 0) });
    await closed;
    expect(await queue.getJob(job.id)).toMatchObject({ state: "completed", result: { subtype: "success" } });
    expect((await queue.getJob(late.id))?.state).toMatch(/^(waiting|delayed)$/);
  });

  it("interrupts a query still running after the grace period; the job is re-queued and continued", async () => {
    const agents = adjustableAgents();
    agents.delays.model = 60_000;
    const { queue, workers, startWorker } = fleet({ createAgent: agents.createJobAgent });
    const conversationId = uniqueName("interrupted");
    const job = await queue.enqueue({ conversationId, input: promptOf(conversationId, 0) });
    await agents.modelCall;
    const started = Date.now();
    await workers[0]!.close({ gracePeriodMs: 100 });
    // Interrupted, not waited out: the model call would take 60 s. A bound far from both (not a
    // speed assertion), so a loaded machine cannot fail it.
    expect(Date.now() - started).toBeLessThan(agents.delays.model / 2);
    expect((await queue.getJob(job.id))?.state).toBe("waiting");
    // The model request in flight was abandoned: only the prompt was recorded.
    expect(await historyOf(conversationId)).toEqual([{ role: "user", content: promptOf(conversationId, 0) }]);

    agents.delays.model = 5;
    startWorker();
    const result = await queue.waitForResult(job.id, { timeoutMs: 15_000 });
    expect(result).toMatchObject({ subtype: "success", result: answerOf(promptOf(conversationId, 0)) });
    const history = await historyOf(conversationId);
    expect(isWellFormedHistory(history)).toBe(true);
    // Rewound: the unanswered prompt was sent again in its place, not twice.
    expect(
      history.filter((message) => message.role === "user" && typeof message.content === "string"),
    ).toHaveLength(1);
    const messages = [];
    for await (const message of queue.messages(job.id)) messages.push(message);
    const notices = messages.filter((message) => message.type === "system" && message.subtype !== "init");
    expect(notices).toEqual([
      { type: "system", subtype: "job_requeued", reason: "worker_closing" },
      { type: "system", subtype: "job_resumed", run: 2, mode: "rewind" },
    ]);
  });

  it("lets a running tool batch finish when it interrupts; the next worker continues after it", async () => {
    const agents = adjustableAgents();
    agents.delays.tool = 600;
    const { queue, workers, startWorker } = fleet({ createAgent: agents.createJobAgent });
    const conversationId = uniqueName("tools");
    const prompt = promptOf(conversationId, 0);
    const job = await queue.enqueue({ conversationId, input: prompt });
    await agents.batchStart; // the tool batch is running (its preToolUse hook waits 600 ms)
    await workers[0]!.close({ gracePeriodMs: 50 });
    await agents.toolStart;
    expect(await redis.lrange(`${historyPrefix}effects:${prompt}`, 0, -1)).toEqual([prompt]);
    expect((await queue.getJob(job.id))?.state).toBe("waiting");

    agents.delays.tool = 5;
    startWorker();
    const result = await queue.waitForResult(job.id, { timeoutMs: 15_000 });
    expect(result).toMatchObject({ subtype: "success", result: answerOf(prompt) });
    const history = await historyOf(conversationId);
    expect(isWellFormedHistory(history)).toBe(true);
    expect(history.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "user",
      "assistant",
    ]);
    expect(history[3]).toEqual({ role: "user", content: DEFAULT_CONTINUATION_PROMPT });
    // The tool ran once: the continued query did not repeat it.
    expect(await redis.lrange(`${historyPrefix}effects:${prompt}`, 0, -1)).toEqual([prompt]);
  });
});
