/**
 * The one redaction: one minimum secret length for every surface, the credential shapes removed
 * whatever the secrets are, and the web entry's error texts through the same function.
 */
import { describe, expect, it } from "vitest";
import {
  MIN_SECRET_LENGTH,
  mayHoldSecret,
  REDACTED,
  redact,
  secretRanges,
  secretsWorthRedacting,
  unsafeTailStart,
} from "../../src/shared/redact";
import { errorText } from "../../src/ui/error-text";
import { CREDENTIAL_SAMPLES, NOT_CREDENTIALS } from "../support/credential-shapes";

describe("one redaction", () => {
  it("replaces secrets of MIN_SECRET_LENGTH characters or more, never shorter ones", () => {
    const long = "x".repeat(MIN_SECRET_LENGTH);
    const short = "y".repeat(MIN_SECRET_LENGTH - 1);
    expect(redact(`a ${long} b ${short}`, [long, short])).toBe(`a ${REDACTED} b ${short}`);
    expect(mayHoldSecret(`only ${short} here`, [short])).toBe(false);
    expect(secretRanges(`${short}${long}`, [short, long])).toEqual([
      [short.length, short.length + long.length],
    ]);
  });

  it("keeps the secrets worth redacting: strings long enough, once each, longest first", () => {
    expect(
      secretsWorthRedacting(["abc", "password-1", undefined, 42, "password-1-longer", "password-1"]),
    ).toEqual(["password-1-longer", "password-1"]);
  });

  it("is what the web entry's error texts use: the same secrets and shapes go", () => {
    const secret = "tenant-secret-123";
    const error = new Error(`failed with ${secret}, key sk-ant-api03-abcdef and Bearer abcdefgh12345678`);
    expect(errorText(error, [secret])).toBe(
      `Error: failed with ${REDACTED}, key ${REDACTED} and Bearer ${REDACTED}`,
    );
    expect(errorText(new Error("short 1234567 kept"), ["1234567"])).toBe("Error: short 1234567 kept");
  });
});

describe("the credential shapes", () => {
  for (const { shape, key, piece } of CREDENTIAL_SAMPLES) {
    it(`removes ${shape} keys, without any secret listed`, () => {
      const text = `config: key=${key}; done`;
      expect(mayHoldSecret(text, [])).toBe(true);
      expect(redact(text, [])).toBe(`config: key=${REDACTED}; done`);
      expect(secretRanges(text, [])).toEqual([[12, 12 + key.length]]);
      expect(errorText(new Error(`rejected ${key}`), [])).not.toContain(piece);
    });
  }

  it("keeps text that only looks a little like a credential", () => {
    for (const text of NOT_CREDENTIALS) expect(redact(text, [])).toBe(text);
  });
});

describe("streamed text", () => {
  /** Shows `pieces` as a streaming surface does: the safe part redacted at each piece, the rest at the end. */
  function stream(pieces: readonly string[]): string {
    let shown = "";
    let held = "";
    for (const piece of pieces) {
      const joined = held + piece;
      const cut = unsafeTailStart(joined, []);
      shown += redact(joined.slice(0, cut), []);
      held = joined.slice(cut);
    }
    return shown + redact(held, []);
  }

  for (const { shape, key, piece } of CREDENTIAL_SAMPLES) {
    it(`never shows a ${shape} key split in two pieces, wherever the cut`, () => {
      const text = `the key ${key} works`;
      for (let cut = 1; cut < text.length; cut++) {
        const shown = stream([text.slice(0, cut), text.slice(cut)]);
        expect(shown, `cut at ${cut}`).toBe(`the key ${REDACTED} works`);
        expect(shown).not.toContain(piece);
      }
    });
  }

  it("does not hold back a word that merely ends in a", () => {
    expect(unsafeTailStart("a plan for cats and a", [])).toBe("a plan for cats and a".length);
  });
});

describe("the quick check", () => {
  it("passes ordinary text that only holds sk- inside a word (task-, risk-)", () => {
    expect(mayHoldSecret("the task-runner and the risk-register", [])).toBe(false);
    expect(mayHoldSecret("keys: xsk-ant-abc", [])).toBe(true);
  });

  it("finds each credential word in any case, at the start, in the middle and at the end", () => {
    const words = ["sk-ant-x", "sk-abc", "bearer", "akia", "asia"];
    const variants = (word: string) => [word, word.toUpperCase(), word[0]!.toUpperCase() + word.slice(1)];
    for (const word of words) {
      for (const variant of variants(word)) {
        for (const text of [`${variant} 12345678`, `12345678 ${variant} 12345678`, `12345678 ${variant}`]) {
          expect(mayHoldSecret(text, []), text).toBe(true);
        }
      }
    }
  });

  it("says no to the strings a turn is made of, and to look-alikes one letter short", () => {
    for (const text of [
      "2026-12-06T14:05:56.719Z",
      "toolu_000000",
      "claude-sonnet-4-6",
      "tool_result",
      "assistant",
      "12345678 s-k abcdef",
      "12345678 beare r",
      "12345678 aki a",
      "12345678 sk",
      "12345678 asi",
      "12345678 ſk-ant-abc", // a long s is no s to the case-insensitive regex either
    ]) {
      expect(mayHoldSecret(text, []), text).toBe(false);
    }
  });
});
