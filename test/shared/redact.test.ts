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
} from "../../src/shared/redact";
import { errorText } from "../../src/ui/error-text";

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
