/**
 * `piiGuardrail` and its detectors: emails, phone numbers, card numbers that pass the Luhn check,
 * IBANs that pass mod 97, your own patterns — blocked or redacted, never echoed in the verdict.
 */
import { describe, expect, it } from "vitest";
import {
  findPii,
  type GuardrailContext,
  InvalidOptionError,
  isCardNumber,
  isIban,
  piiGuardrail,
} from "../../src/index";

function context(text: string): GuardrailContext {
  return {
    stage: "output",
    text,
    messages: [],
    agent: "main",
    model: "m",
    client: { createMessage: () => Promise.reject(new Error("unused")) },
    signal: new AbortController().signal,
    reportUsage: () => {},
  };
}

const kinds = (text: string) =>
  findPii(text).map((finding) => `${finding.kind}:${text.slice(finding.start, finding.end)}`);

describe("findPii", () => {
  it("finds emails, phone numbers, Luhn-valid cards and mod-97-valid IBANs", () => {
    expect(kinds("write to jane.doe+x@mail.example.co.uk now")).toEqual([
      "email:jane.doe+x@mail.example.co.uk",
    ]);
    expect(kinds("call +44 20 7946 0958 or (555) 123-4567")).toEqual([
      "phone:+44 20 7946 0958",
      "phone:(555) 123-4567",
    ]);
    expect(kinds("card 4111 1111 1111 1111 please")).toEqual(["card:4111 1111 1111 1111"]);
    expect(kinds("card 4111-1111-1111-1111")).toEqual(["card:4111-1111-1111-1111"]);
    expect(kinds("IBAN GB82 WEST 1234 5698 7654 32 ok")).toEqual(["iban:GB82 WEST 1234 5698 7654 32"]);
    expect(kinds("DE89370400440532013000")).toEqual(["iban:DE89370400440532013000"]);
  });

  it("does not take numbers that fail their checks, years, amounts or short codes for personal data", () => {
    expect(isCardNumber("4111 1111 1111 1112")).toBe(false);
    expect(isIban("GB82WEST12345698765433")).toBe(false);
    expect(kinds("from 2019-2023 we sold 1,250 units for $4,999.99; order 12345")).toEqual([]);
    expect(kinds("version 1.2.3 on 2026-12-06")).toEqual([]);
    expect(kinds("card 4111 1111 1111 1112")).not.toContainEqual(expect.stringMatching(/^card/));
  });

  it("finds your own patterns, and only the kinds asked for", () => {
    expect(findPii("ssn 123-45-6789", ["email"], { ssn: /\b\d{3}-\d{2}-\d{4}\b/ })).toMatchObject([
      { kind: "ssn" },
    ]);
    expect(findPii("a@b.io +44 20 7946 0958", ["email"])).toHaveLength(1);
  });
});

describe("piiGuardrail", () => {
  it("blocks with a tripwire by default, counting kinds and never echoing values", async () => {
    const verdict = await piiGuardrail().check(context("mail a@b.io and c@d.io, card 4111111111111111"));
    expect(verdict).toEqual({
      verdict: "tripwire",
      message: "The message holds personal data (email, card).",
      info: { found: { card: 1, email: 2 } },
    });
    expect(JSON.stringify(verdict)).not.toContain("a@b.io");
    expect(await piiGuardrail().check(context("nothing here"))).toEqual({ verdict: "allow" });
  });

  it("rejects instead when told, and redacts in redact mode", async () => {
    expect(
      await piiGuardrail({ verdict: "reject", message: "No personal data, please." }).check(
        context("x@y.io"),
      ),
    ).toEqual({
      verdict: "reject",
      message: "No personal data, please.",
    });
    const redacting = await piiGuardrail({ action: "redact", replacement: (kind) => `<${kind}>` }).check(
      context("x@y.io"),
    );
    if (redacting.verdict !== "redact") throw new Error("expected a redaction");
    expect(redacting.redact("mail x@y.io or call +1 415 555 2671")).toBe("mail <email> or call <phone>");
  });

  it("runs on the input and the output unless told otherwise; refuses malformed options", () => {
    expect(piiGuardrail().stages).toEqual(["input", "output"]);
    expect(piiGuardrail({ stage: "tool_output" }).stages).toEqual(["tool_output"]);
    expect(() => piiGuardrail({ detect: ["ssn" as never] })).toThrow(InvalidOptionError);
    expect(() => piiGuardrail({ patterns: { x: "y" as never } })).toThrow(InvalidOptionError);
    expect(() => piiGuardrail({ action: "mask" as never })).toThrow(InvalidOptionError);
  });
});
