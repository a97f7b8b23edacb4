/**
 * `@opentelemetry/api` is an optional peer dependency: our code imports it only once an agent with
 * `telemetry` on starts a query. The module is wrapped in a mock that counts its loads, so this file
 * must not import it (or anything that does) itself.
 */
import { describe, expect, it, vi } from "vitest";
import { createAgent } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";

const loads = vi.hoisted(() => ({ api: 0 }));

vi.mock("@opentelemetry/api", async (importOriginal) => {
  loads.api += 1;
  return importOriginal();
});

const MODEL = "claude-sonnet-4-6";

describe("loading OpenTelemetry", () => {
  it("never loads @opentelemetry/api while telemetry is off, then loads it once when on", async () => {
    const off = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: "a" }, { content: "b" }]),
    });
    await off.prompt("One.");
    await off.prompt("Two.");
    expect(loads.api).toBe(0);

    const on = createAgent({
      model: MODEL,
      client: createScriptedClient([{ content: "a" }, { content: "b" }]),
      telemetry: true,
    });
    expect(loads.api).toBe(0); // creating the agent is not enough: the first query loads it
    await on.prompt("One.");
    await on.prompt("Two.");
    expect(loads.api).toBe(1);
  });
});
