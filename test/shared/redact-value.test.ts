/**
 * `redactValue` / `redactMessage`: the value itself comes back when nothing in it needs changing
 * (the allocation-free scan), and a secret anywhere it looks — deep in a tool input, a tool result,
 * an error's message or cause, past the scan's budget or in a cycle — is still replaced.
 */
import { describe, expect, it } from "vitest";
import { redactMessage } from "../../src/messages/redact-message";
import { mayHoldSecret, REDACTED, redact } from "../../src/shared/redact";
import { redactValue } from "../../src/shared/redact-value";

const KEY = "tenant-7f3a9c-credential-5b21d8e4f0";
const SECRETS = [KEY];

function nested(depth: number, leaf: unknown): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { inner: value } : [value];
  return value;
}

describe("redactValue, nothing to replace", () => {
  it("returns the input itself, every nested object untouched", () => {
    const message = {
      type: "assistant",
      message: {
        role: "assistant",
        content: [
          { type: "tool_use", id: "toolu_01", name: "echo", input: { n: 1, deep: nested(10, "plain text") } },
        ],
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    };
    const snapshot = structuredClone(message);
    expect(redactMessage(message, SECRETS)).toBe(message);
    expect(redactValue(message, [])).toBe(message);
    expect(message).toEqual(snapshot);
  });

  it("returns an error without a secret as it is", () => {
    const error = new Error("the tool failed", { cause: new Error("plain cause") });
    expect(redactValue(error, SECRETS)).toBe(error);
  });

  it("keeps a value too large for the scan's budget as it is when the copying walk finds nothing", () => {
    const shared = { text: "plain" };
    const wide = Array.from({ length: 30_000 }, () => shared);
    expect(redactValue(wide, SECRETS)).toBe(wide);
  });
});

describe("redactValue, a secret somewhere", () => {
  it("replaces it deep in a tool_use input, copying only the path to it", () => {
    const untouched = { type: "text", text: "hello" };
    const message = {
      role: "assistant",
      content: [untouched, { type: "tool_use", id: "t1", name: "probe", input: nested(20, `key=${KEY}`) }],
    };
    const clean = redactMessage(message, SECRETS);
    expect(clean).not.toBe(message);
    expect(JSON.stringify(clean)).not.toContain(KEY);
    expect(JSON.stringify(clean)).toContain(`key=${REDACTED}`);
    expect(clean.content[0]).toBe(untouched);
    expect(JSON.stringify(message)).toContain(KEY); // the input is never changed
  });

  it("replaces it in a tool_result's content blocks and a credential-shaped string anywhere", () => {
    const results = {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: "t1",
          content: [
            { type: "text", text: `out: ${KEY}` },
            { type: "text", text: "Authorization: Bearer abcdefgh12345678" },
          ],
        },
      ],
    };
    const text = JSON.stringify(redactMessage(results, SECRETS));
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("abcdefgh12345678");
    expect(redactValue({ a: [{ b: "sk-ant-api03-XYZ" }] }, [])).toEqual({ a: [{ b: REDACTED }] });
  });

  it("replaces it in an error's message, stack and cause, keeping the class", () => {
    class ToolFailure extends Error {}
    const error = new ToolFailure(`refused ${KEY}`, { cause: new Error(`cause ${KEY}`) });
    const clean = redactValue({ nested: { error } }, SECRETS).nested.error;
    expect(clean).toBeInstanceOf(ToolFailure);
    expect(clean.message).toBe(`refused ${REDACTED}`);
    expect(clean.stack).not.toContain(KEY);
    expect((clean.cause as Error).message).toBe(`cause ${REDACTED}`);
  });

  it("replaces it past the scan's budget and in a cycle", () => {
    const wide: unknown[] = Array.from({ length: 30_000 }, () => ({ text: "plain" }));
    wide.push({ text: KEY });
    expect(JSON.stringify(redactValue(wide, SECRETS))).not.toContain(KEY);
    const cyclic: Record<string, unknown> = { text: KEY };
    cyclic.self = cyclic;
    const clean = redactValue(cyclic, SECRETS);
    expect(clean.text).toBe(REDACTED);
  });

  it("replaces it nested deeper than the walks recurse, whatever the depth", () => {
    for (const depth of [20, 25, 26, 40, 200]) {
      const value = { deep: nested(depth, { text: `key ${KEY}` }), plain: nested(depth, "plain") };
      const clean = redactValue(value, SECRETS);
      expect(JSON.stringify(clean), `depth ${depth}`).not.toContain(KEY);
      expect(clean.plain, `depth ${depth}`).toBe(value.plain); // nothing to replace: kept, not copied
    }
    const deepCycle: Record<string, unknown> = { text: KEY };
    deepCycle.self = deepCycle;
    expect(
      JSON.stringify(redactValue({ deep: nested(40, { holder: deepCycle }) }, SECRETS), (key, item) =>
        key === "self" ? undefined : item,
      ),
    ).not.toContain(KEY);
  });

  it("replaces a Map, a Set or a class instance that shows it by the marker; keeps those that do not", () => {
    class Box {
      constructor(readonly held: unknown) {}
    }
    const clean = redactValue(
      {
        map: new Map([["k", `v ${KEY}`]]),
        keyed: new Map([[KEY, 1]]),
        set: new Set([KEY]),
        box: new Box({ inner: [KEY] }),
        fine: new Map([["k", "v"]]),
        date: new Date(0),
        bytes: new Uint8Array([1, 2, 3]),
      },
      SECRETS,
    );
    expect(clean).toMatchObject({ map: REDACTED, keyed: REDACTED, set: REDACTED, box: REDACTED });
    expect(clean.fine).toBeInstanceOf(Map);
    expect(clean.date).toBeInstanceOf(Date);
    expect(clean.bytes).toBeInstanceOf(Uint8Array);
    const untouched = { fine: new Map([["k", "v"]]), box: new Box("plain") };
    expect(redactValue(untouched, SECRETS)).toBe(untouched);
  });

  it("reads objects that say their constructor is Object by their fields, and errors as errors whatever they say", () => {
    // Not a plain object: replaced by the marker when it shows a secret, kept whole when it does not.
    const inheriting = Object.create({ shared: "fine" }) as Record<string, unknown>;
    inheriting.own = `own ${KEY}`;
    expect(redactValue({ inheriting }, SECRETS).inheriting).toBe(REDACTED);
    const cleanInheriting = Object.create({ shared: "fine" }) as Record<string, unknown>;
    expect(redactValue({ cleanInheriting }, SECRETS).cleanInheriting).toBe(cleanInheriting);
    const nullPrototype = Object.assign(Object.create(null) as Record<string, unknown>, {
      text: `held ${KEY}`,
    });
    expect(redactValue({ nullPrototype }, SECRETS).nullPrototype).toEqual({ text: `held ${REDACTED}` });
    // A class instance claiming to be a plain object is still looked at whole (its hidden field too).
    class Vault {
      constructor() {
        Object.defineProperty(this, "hidden", { value: `key ${KEY}`, enumerable: false });
      }
    }
    const vault = new Vault();
    expect(redactValue({ vault }, SECRETS).vault).toBe(REDACTED);
    const claiming = new Error(`failed with ${KEY}`);
    Object.defineProperty(claiming, "constructor", { value: Object });
    const clean = redactValue({ claiming }, SECRETS).claiming as Error;
    expect(clean).toBeInstanceOf(Error);
    expect(clean.message).toBe(`failed with ${REDACTED}`);
  });

  it("replaces an error's field whose getter shows it; a getter that throws is left as it is", () => {
    const error = new Error("refused");
    Object.defineProperty(error, "detail", { get: () => `token ${KEY}`, enumerable: true });
    Object.defineProperty(error, "broken", {
      get: () => {
        throw new Error("no");
      },
    });
    const clean = redactValue(error, SECRETS) as Error & { detail: unknown };
    expect(clean).not.toBe(error);
    expect(clean.detail).toBe(REDACTED);
    expect(() => (clean as unknown as { broken: unknown }).broken).toThrow("no");
  });

  it("leaves signed thinking as it is (its signature covers the text)", () => {
    const thinking = { type: "thinking", thinking: `saw ${KEY}`, signature: "sig" };
    const message = { role: "assistant", content: [thinking] };
    expect(redactMessage(message, SECRETS)).toBe(message);
  });
});

describe("mayHoldSecret", () => {
  it("is true whenever redact would change the text", () => {
    const texts = [
      KEY,
      `a ${KEY} b`,
      "sk-ant-x",
      "SK-ANT-abc",
      "Bearer abcdefgh",
      "bearer\tabcdefgh123",
      "plain",
      "",
      "short",
    ];
    for (const text of texts) {
      if (redact(text, SECRETS) !== text) expect(mayHoldSecret(text, SECRETS)).toBe(true);
    }
    expect(mayHoldSecret("a plain sentence", SECRETS)).toBe(false);
    expect(mayHoldSecret("echo", [])).toBe(false);
  });

  it("remembers a text found clean only for the secrets it was checked against", () => {
    const text = "toolu_tenant-7f3a9c-credential-5b21d8e4f0_1";
    // Clean of no secrets, checked again and again (remembered): still clean.
    for (let round = 0; round < 3; round++) expect(mayHoldSecret(text, [])).toBe(false);
    // Another list — a new array, or the same array changed in place — checks it afresh.
    expect(mayHoldSecret(text, [KEY])).toBe(true);
    const secrets = ["another-secret-value"];
    expect(mayHoldSecret(text, secrets)).toBe(false);
    secrets[0] = KEY;
    expect(mayHoldSecret(text, secrets)).toBe(true);
    expect(redactValue({ id: text }, secrets)).toEqual({ id: `toolu_${REDACTED}_1` });
  });

  it("forgets what it remembered once it holds many texts, and stays right", () => {
    for (let index = 0; index < 2_000; index++) expect(mayHoldSecret(`toolu_${index}`, SECRETS)).toBe(false);
    for (let index = 0; index < 2_000; index += 97)
      expect(mayHoldSecret(`toolu_${index}`, SECRETS)).toBe(false);
    expect(mayHoldSecret(`toolu_${KEY}`, SECRETS)).toBe(true);
  });
});

describe("redactMessage, the loop's own meta", () => {
  it("does not walk the meta the loop vouches for, and walks everything else as before", () => {
    const loopMeta = { started_at: "2026-12-06T14:05:56.719Z", latency_ms: 2 };
    const message = { role: "assistant", content: [{ type: "text", text: `key ${KEY}` }], meta: loopMeta };
    const redacted = redactMessage(message, SECRETS, loopMeta);
    expect(redacted).not.toBe(message);
    expect(redacted.content[0]!.text).toBe(`key ${REDACTED}`);
    expect(redacted.meta).toBe(loopMeta);
    // Nothing else to replace: the same message back, its meta not looked into (it is the loop's).
    const clean = { role: "assistant", content: [{ type: "text", text: "fine" }], meta: loopMeta };
    expect(redactMessage(clean, SECRETS, loopMeta)).toBe(clean);
  });

  it("walks a meta it was not told about, even one of the same shape", () => {
    const meta = { started_at: "2026-12-06T14:05:56.719Z", note: `by ${KEY}` };
    const message = { role: "assistant", content: [], meta };
    const redacted = redactMessage(message, SECRETS, { ...meta });
    expect(redacted.meta.note).toBe(`by ${REDACTED}`);
  });
});
