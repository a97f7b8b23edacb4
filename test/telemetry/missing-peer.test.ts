/**
 * Without the optional peer dependency `@opentelemetry/api`, `telemetry: true` is a no-op: queries
 * run exactly as without it. The module is replaced by one that fails to load, as a missing package
 * does.
 */
import { describe, expect, it, vi } from "vitest";
import { createAgent, defineTool } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";

const attempts = vi.hoisted(() => ({ count: 0 }));

vi.mock("@opentelemetry/api", () => {
  attempts.count += 1;
  throw new Error("Cannot find package '@opentelemetry/api'");
});

describe("telemetry without @opentelemetry/api", () => {
  it("runs a tool-using query to success and stops trying to load the package", async () => {
    const echo = defineTool({
      name: "echo",
      description: "Echoes its input",
      inputSchema: { parse: (input) => input as { text: string }, jsonSchema: { type: "object" } },
      async execute({ text }) {
        return text;
      },
    });
    const agent = createAgent({
      model: "claude-sonnet-4-6",
      client: createScriptedClient([
        { content: [{ type: "tool_use", id: "call_1", name: "echo", input: { text: "hi" } }] },
        { content: "Echoed." },
        { content: "Again." },
      ]),
      tools: [echo],
      telemetry: { agentName: "echoer" },
    });

    const first = await agent.prompt("Echo hi.");
    const afterFirstQuery = attempts.count;
    const second = await agent.prompt("Once more.");

    expect(first.subtype).toBe("success");
    expect(first.result).toBe("Echoed.");
    expect(second.subtype).toBe("success");
    expect(second.result).toBe("Again.");
    expect(afterFirstQuery).toBeGreaterThan(0); // the load was tried, and failed
    expect(attempts.count).toBe(afterFirstQuery); // and is not tried again
  });
});
