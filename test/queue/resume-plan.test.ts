import { describe, expect, it } from "vitest";
import type { ModelMessage } from "../../src/index";
import { toJsonSafe, toJsonText } from "../../src/queue/json-safe";
import { planResume } from "../../src/queue/resume-plan";

const earlier: ModelMessage[] = [
  { role: "user", content: "first" },
  { role: "assistant", content: [{ type: "text", text: "ok" }] },
];

describe("planResume", () => {
  it("sends the prompt when it was never recorded", () => {
    expect(planResume(earlier, undefined, false, "second")).toEqual({ mode: "fresh" });
    expect(planResume(earlier, 2, false, "second")).toEqual({ mode: "fresh" });
    // Someone else wrote at the mark: the prompt is not there.
    expect(planResume([...earlier, { role: "user", content: "other" }], 2, false, "second")).toEqual({
      mode: "fresh",
    });
  });

  it("rewinds a prompt recorded without a response", () => {
    expect(planResume([...earlier, { role: "user", content: "second" }], 2, false, "second")).toEqual({
      mode: "rewind",
      keep: 2,
    });
    const blocks = [{ type: "text" as const, text: "look" }];
    expect(planResume([{ role: "user", content: blocks }], 0, false, blocks)).toEqual({
      mode: "rewind",
      keep: 0,
    });
  });

  it("continues once anything follows the prompt, or once a response was recorded", () => {
    const after: ModelMessage[] = [
      ...earlier,
      { role: "user", content: "second" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "record", input: {} }] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: "never recorded", is_error: true }],
      },
    ];
    expect(planResume(after, 2, false, "second")).toEqual({ mode: "continue" });
    // A compaction may have rewritten everything since: `progressed` decides.
    expect(planResume([{ role: "user", content: "summary" }], 2, true, "second")).toEqual({
      mode: "continue",
    });
  });
});

describe("toJsonSafe", () => {
  it("reduces errors to { name, message }, dropping their stack, cause and fields", () => {
    const error = Object.assign(new Error("boom", { cause: new Error("secret-token") }), {
      apiKey: "sk-123",
    });
    const safe = toJsonSafe({ type: "result", error, nested: [{ error: new TypeError("bad") }] });
    expect(safe).toEqual({
      type: "result",
      error: { name: "Error", message: "boom" },
      nested: [{ error: { name: "TypeError", message: "bad" } }],
    });
    expect(toJsonText({ error })).not.toContain("secret");
    expect(toJsonText({ error })).not.toContain("sk-123");
  });
});

describe("planResume after a guardrail withdrew the turn", () => {
  const record = { name: "pii", stage: "output" as const, verdict: "tripwire" as const, message: "no" };
  it("ends with the recorded verdict instead of sending the blocked turn again", () => {
    const tripped: ModelMessage[] = [
      ...earlier,
      { role: "user", content: "second", meta: { withdrawn: "guardrail" } },
      {
        role: "assistant",
        content: [{ type: "text", text: "leak" }],
        meta: { withdrawn: "guardrail", guardrail: record },
      },
    ];
    expect(planResume(tripped, 2, true, "second")).toEqual({ mode: "withdrawn", guardrail: record });
    const refused: ModelMessage[] = [
      ...earlier,
      {
        role: "user",
        content: "second",
        meta: { withdrawn: "guardrail", guardrail: { ...record, stage: "input" } },
      },
    ];
    expect(planResume(refused, 2, false, "second")).toMatchObject({
      mode: "withdrawn",
      guardrail: { stage: "input" },
    });
  });

  it("an unchecked prompt (the worker stopped mid-check) is rewound and checked again, never continued", () => {
    const unchecked: ModelMessage[] = [
      ...earlier,
      { role: "user", content: "second", meta: { withdrawn: "unchecked" } },
    ];
    expect(planResume(unchecked, 2, false, "second")).toEqual({ mode: "rewind", keep: 2 });
    // Another conversation's withdrawn turn at the mark is not this job's.
    const other: ModelMessage[] = [
      ...earlier,
      { role: "user", content: "other", meta: { withdrawn: "guardrail", guardrail: record } },
    ];
    expect(planResume(other, 2, false, "second")).toEqual({ mode: "fresh" });
  });
});
