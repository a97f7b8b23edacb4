/**
 * The message-shaped scan before redaction (src/messages/message-scan.ts) against the generic
 * redaction of the same value: `redactMessage` must give exactly what `redactValue` with the same
 * rules gives, for any message — plain or not, with errors, class instances, kept blocks, vouched
 * meta, secrets in any field or split across text blocks — and the scan may never call a message
 * clean that the generic scan would copy.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isKeptType, scanMessage } from "../../src/messages/message-scan";
import { redactAcrossBlocks } from "../../src/messages/redact-across-blocks";
import { redactMessage } from "../../src/messages/redact-message";
import { MUST_COPY, redactValue, SCAN_BUDGET, scan } from "../../src/shared/redact-value";

const SECRET = "hunter2-secret-value";
const secrets = [SECRET];
const keep = (value: object) => isKeptType((value as { type?: unknown }).type);

class Payload {
  constructor(readonly text: string) {}
}

const text = fc.oneof(
  fc.constantFrom(
    "hello",
    "tool_use",
    "toolu_01",
    SECRET,
    `before ${SECRET} after`,
    "hunter2-",
    "secret-value",
  ),
  fc.constantFrom("sk-ant-api03-abcdefghijklmnop", "Bearer abcdefghijkl", "plain text of a tool"),
  fc.string({ maxLength: 12 }),
);
const leaf = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));
const nested: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    leaf,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "type", "text", "data"), tie("value"), { maxKeys: 3 }),
    text.map((inner) => new Payload(inner)),
    text.map((inner) => new Error(inner)),
    text.map((inner) => new Map([["k", inner]])),
  ),
})).value;
const block = fc.oneof(
  fc.record({ type: fc.constant("text"), text }),
  fc.record({ type: fc.constant("tool_use"), id: text, name: text, input: nested }),
  fc.record({ type: fc.constant("tool_result"), tool_use_id: text, content: fc.oneof(text, nested) }),
  fc.record({
    type: fc.constantFrom("thinking", "redacted_thinking", "compaction"),
    thinking: text,
    signature: text,
  }),
  fc.record({ type: fc.constant("image"), source: fc.record({ type: fc.constant("base64"), data: text }) }),
  nested,
);
const message = fc.record(
  {
    role: fc.constantFrom("user", "assistant"),
    content: fc.oneof(text, fc.array(block, { maxLength: 4 })),
    meta: fc.oneof(fc.constant(undefined), fc.record({ note: text })),
    extra: nested,
  },
  { requiredKeys: ["role", "content"] },
);
const anyMessage = fc.oneof(
  message,
  message.map((plain) => Object.assign(Object.create({ inherited: SECRET }), plain)),
  message.map((plain) => Object.assign(new Error("boom"), plain)),
  fc.array(message, { maxLength: 3 }),
  nested,
);

describe("scanMessage", () => {
  it("redactMessage gives exactly what the generic redaction gives", () => {
    fc.assert(
      fc.property(anyMessage, fc.boolean(), (value, vouchMeta) => {
        const vouched = vouchMeta ? (value as { meta?: object } | null)?.meta : undefined;
        const generic = redactValue(value, secrets, keep, redactAcrossBlocks, vouched);
        const redacted = redactMessage(value, secrets, vouched);
        expect(redacted).toStrictEqual(generic);
        expect(redacted === value).toBe(generic === value);
      }),
      { numRuns: 3_000 },
    );
  });

  it("never calls clean what the generic scan would copy", () => {
    fc.assert(
      fc.property(anyMessage, (value) => {
        const rules = { secrets, keep, acrossItems: redactAcrossBlocks, vouched: undefined };
        if (scan(value, rules, 0, SCAN_BUDGET) === MUST_COPY)
          expect(scanMessage(value, rules)).toBe(MUST_COPY);
      }),
      { numRuns: 3_000 },
    );
  });

  it("finds a secret in each field of a message, its blocks and what they hold", () => {
    const rules = { secrets, keep, acrossItems: redactAcrossBlocks, vouched: undefined };
    const cases: unknown[] = [
      { role: "user", content: SECRET },
      { role: SECRET, content: [] },
      { role: "user", content: [{ type: "text", text: `x ${SECRET}` }] },
      {
        role: "user",
        content: [
          { type: "text", text: "hunter2-" },
          { type: "text", text: "secret-value" },
        ],
      },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t", name: "n", input: { deep: [{ x: SECRET }] } }],
      },
      { role: "user", content: [{ type: "tool_result", tool_use_id: SECRET, content: "ok" }] },
      { role: "user", content: [new Error("fine")] },
      { role: "user", content: [{ type: "text", text: "fine", cause: new Payload(SECRET) }] },
      { role: "user", content: "fine", meta: { turn: SECRET } },
    ];
    for (const value of cases) expect(scanMessage(value, rules), JSON.stringify(value)).toBe(MUST_COPY);
    expect(scanMessage({ role: "user", content: [{ type: "text", text: "fine" }] }, rules)).not.toBe(
      MUST_COPY,
    );
  });

  it("keeps signed blocks and vouched meta without reading them", () => {
    const meta = { note: SECRET };
    const rules = { secrets, keep, acrossItems: redactAcrossBlocks, vouched: meta };
    const signed = { type: "thinking", thinking: SECRET, signature: "sig" };
    expect(scanMessage({ role: "assistant", content: [signed], meta }, rules)).not.toBe(MUST_COPY);
  });
});
