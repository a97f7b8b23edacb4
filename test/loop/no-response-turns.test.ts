/**
 * The count of answered turns (issue 16): a query whose model request got no response at all —
 * the connection refused, or dropped before the response headers — reports `num_turns: 0`; a
 * provider that answered, even with an error status or a cut-off stream, counts as a turn.
 */
import { describe, expect, it } from "vitest";
import { createAgent, createAnthropicClient } from "../../src/index";
import { type MockStep, startMockAnthropicServer } from "../../src/testing/index";
import { closedPort } from "../model/closed-port";

const API_KEY = "sk-ant-test-turns-0123456789";
const RETRY = { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 1 };

async function resultAgainst(steps: MockStep[]) {
  const server = await startMockAnthropicServer({ responses: steps });
  try {
    const agent = createAgent({
      model: "claude-turns-1",
      client: createAnthropicClient({ apiKey: API_KEY, baseURL: server.url }),
      retry: RETRY,
    });
    const result = await agent.prompt("Hi");
    return { result, requests: server.requests.length };
  } finally {
    await server.close();
  }
}

describe("num_turns of a query that got no response", () => {
  it("is 0 when the connection is refused on every attempt", async () => {
    const port = await closedPort();
    const agent = createAgent({
      model: "claude-turns-1",
      client: createAnthropicClient({ apiKey: API_KEY, baseURL: `http://127.0.0.1:${port}` }),
      retry: RETRY,
    });
    const result = await agent.prompt("Hi");
    expect(result.subtype).toBe("error_during_execution");
    expect(result.num_turns).toBe(0);
    expect(result.error?.message).toContain(`127.0.0.1:${port}`);
  });

  it("is 0 when every connection drops before the response headers", async () => {
    const drop: MockStep = { fault: "drop", beforeResponse: true };
    const { result, requests } = await resultAgainst([drop, drop]);
    expect(requests).toBe(2); // retried once
    expect(result.subtype).toBe("error_during_execution");
    expect(result.num_turns).toBe(0);
  });

  it("is 1 when the provider answered with an error status", async () => {
    const status: MockStep = { fault: "status", status: 500 };
    const { result } = await resultAgainst([status, status]);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.num_turns).toBe(1);
  });

  it("is 1 when the stream was cut off after it began", async () => {
    const drop: MockStep = { fault: "drop", afterEvents: 3, response: { content: "Hello there" } };
    const { result } = await resultAgainst([drop, drop]);
    expect(result.subtype).toBe("error_during_execution");
    expect(result.num_turns).toBe(1);
  });

  it("counts the answered turns before a request that got no response", async () => {
    const drop: MockStep = { fault: "drop", beforeResponse: true };
    const server = await startMockAnthropicServer({ responses: [{ content: "First answer." }, drop, drop] });
    try {
      const agent = createAgent({
        model: "claude-turns-1",
        client: createAnthropicClient({ apiKey: API_KEY, baseURL: server.url }),
        retry: RETRY,
      });
      expect((await agent.prompt("One")).num_turns).toBe(1);
      expect((await agent.prompt("Two")).num_turns).toBe(0);
    } finally {
      await server.close();
    }
  });
});
