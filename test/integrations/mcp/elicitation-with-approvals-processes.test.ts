/**
 * A subagent's approval and an MCP server's question waiting in one pause, across processes, over
 * each durable store (JSONL, SQLite, PostgreSQL, Redis): the process that paused is killed
 * (SIGKILL) once the pause is stored; a new process finds both pending, is refused each half
 * alone (both stay pending, nothing runs), and answers both at once — the child's call runs once,
 * the server gets the answer once, and the history is well-formed.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ModelMessage, ToolResultBlock } from "../../../src/messages/types";
import { expectWellFormed } from "../../loop/support";
import { startChild } from "../stores/child-runner";
import {
  PROCESS_TEST_TIMEOUT_MS,
  storeLocations,
  useProcessTestEnvironment,
} from "../stores/process-test-environment";

const env = useProcessTestEnvironment("elicitappr", "test/fixtures/stores/elicit-approval-child.ts");
const SERVER = fileURLToPath(new URL("../../fixtures/mcp/questions-server.mjs", import.meta.url));
const locations = storeLocations(env);

interface Report {
  tries: Array<{ error: string; approvals: number; inputs: number }>;
  ranBefore: string[];
  subtype: string;
  result: string;
  runs: string[];
  history: ModelMessage[];
}

describe.each(Object.keys(locations) as Array<keyof typeof locations>)(
  "approvals and a question in one pause over a %s store, across processes",
  (kind) => {
    it(
      "survives kill -9; a new process is refused each half alone and resumes with both",
      async () => {
        const run = {
          location: locations[kind]("both"),
          log: join(env.folder, `${kind}-calls.log`),
          server: SERVER,
        };
        const pausing = startChild(env.childScript, { ...run, phase: "pause" });
        const paused = JSON.parse(await pausing.waitForLine((text) => text.startsWith("{")));
        expect(paused).toMatchObject({
          subtype: "requires_input",
          approvals: [{ tool_use_id: "toolu_deploy", parent_tool_use_id: "toolu_sub", agent: "releaser" }],
          inputs: [{ id: "toolu_ask/input-1", server: "questions", tool_use_id: "toolu_ask" }],
        });
        expect((await pausing.exited).signal, pausing.stderr()).toBe("SIGKILL");

        const resuming = startChild(env.childScript, { ...run, phase: "resume" });
        const line = await resuming.waitForLine((text) => text.startsWith("{"));
        expect((await resuming.exited).code, resuming.stderr()).toBe(0);
        const report = JSON.parse(line) as Report;
        expect(report.tries).toEqual([
          { error: "InvalidOptionError", approvals: 1, inputs: 1 },
          { error: "InvalidOptionError", approvals: 1, inputs: 1 },
        ]);
        expect(report.ranBefore).toEqual([]);
        expect(report).toMatchObject({ subtype: "success", result: "Both done.", runs: ["prod"] });
        expectWellFormed(report.history);
        const results = report.history.flatMap((message) =>
          message.role === "user" && Array.isArray(message.content)
            ? message.content.filter((block): block is ToolResultBlock => block.type === "tool_result")
            : [],
        );
        expect(results.map((block) => [block.tool_use_id, block.content])).toEqual([
          ["toolu_sub", "Released."],
          ["toolu_ask", [{ type: "text", text: 'answer: accept {"team":"ops"}' }]],
        ]);
        const logged = (await readFile(run.log, "utf8"))
          .split("\n")
          .filter(Boolean)
          .map((entry) => JSON.parse(entry) as Record<string, unknown>);
        expect(logged.filter((entry) => entry.effect === "answered").map((entry) => entry.action)).toEqual([
          "cancel",
          "accept",
        ]);
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  },
);
