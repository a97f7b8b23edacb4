/** The replay matching rule: key order ignored, non-wire fields left out, the workspace folder normalised, the first differing path named. */
import { describe, expect, it } from "vitest";
import {
  comparableRequest,
  describeDifference,
  firstDifference,
  restoreWorkspace,
} from "../../src/evals/request-match";
import type { ModelRequest } from "../../src/index";

const request = (overrides: Partial<ModelRequest> = {}): ModelRequest => ({
  model: "m",
  maxTokens: 100,
  signal: new AbortController().signal,
  messages: [
    { role: "user", content: "read /tmp/ws-1/a.txt" },
    {
      role: "assistant",
      content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a.txt", offset: 1 } }],
      usage: { input_tokens: 5, output_tokens: 7 },
      providerResponseId: "msg_1",
    },
  ],
  ...overrides,
});

describe("the replay matching rule", () => {
  it("ignores key order, the SDK's metadata, the signal, the deadline and the stream callback", () => {
    const recorded = comparableRequest(request(), "/tmp/ws-1");
    const reordered = request({
      timeoutMs: 5_000,
      onEvent: () => {},
      messages: [
        { role: "user", content: "read /tmp/ws-2/a.txt" },
        {
          role: "assistant",
          content: [{ input: { offset: 1, path: "a.txt" }, name: "read_file", id: "t1", type: "tool_use" }],
        },
      ],
    });
    expect(firstDifference(recorded, comparableRequest(reordered, "/tmp/ws-2"))).toBeUndefined();
    expect(recorded.messages).toEqual([
      { role: "user", content: "read <workspace>/a.txt" },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a.txt", offset: 1 } }],
      },
    ]);
    expect((restoreWorkspace(recorded.messages, "/w") as Array<{ content: unknown }>)[0]!.content).toBe(
      "read /w/a.txt",
    );
  });

  it("names the first differing JSON path", () => {
    const recorded = comparableRequest(request(), undefined);
    const changed = request({ system: "new" });
    expect(firstDifference(recorded, comparableRequest(changed, undefined))).toEqual({
      path: "$.system",
      expected: undefined,
      actual: "new",
    });
    const input = structuredClone(request());
    (input.messages[1]!.content as Array<{ input: { path: string } }>)[0]!.input.path = "b.txt";
    expect(firstDifference(recorded, comparableRequest(input, undefined))?.path).toBe(
      "$.messages[1].content[0].input.path",
    );
    expect(firstDifference({ a: [1, 2] }, { a: [1] })?.path).toBe("$.a[1]");
    expect(firstDifference({ "x-y": 1 }, { "x-y": 2 })?.path).toBe('$["x-y"]');
  });

  it("shows long strings around their first difference", () => {
    const base = "a".repeat(100);
    expect(describeDifference(`${base}XYZ`, `${base}QYZ`)).toContain("(from character 100)");
  });
});
