/** The fleet's redaction: what it takes as secrets from its options and its connection. */
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/index";
import { connectionSecrets, fleetRedaction } from "../../src/queue/fleet-redaction";

describe("fleetRedaction", () => {
  it("takes the connection's password, its URL credentials and the listed secrets", () => {
    expect(connectionSecrets({ host: "h", password: "pw-0a1b2c3d" })).toEqual(["pw-0a1b2c3d"]);
    expect(connectionSecrets({ url: "redis://user:p%40ss-9f8e@h:6379/0?token=tok-77aa" })).toEqual(
      expect.arrayContaining(["p%40ss-9f8e", "p@ss-9f8e", "tok-77aa"]),
    );
    const client = new Redis({ lazyConnect: true, password: "client-pw-4d5e6f" });
    expect(connectionSecrets(client)).toEqual(["client-pw-4d5e6f"]);
    client.disconnect();
    expect(connectionSecrets({ host: "h" })).toEqual([]);
  });

  it("redacts values and errors (class kept), credential patterns included", () => {
    const redaction = fleetRedaction(["listed-secret-1"], { password: "pw-0a1b2c3d" }, "test");
    expect(redaction.value({ input: "a listed-secret-1 b pw-0a1b2c3d c sk-ant-xyz123" })).toEqual({
      input: "a [redacted] b [redacted] c [redacted]",
    });
    class StoreDown extends Error {}
    const error = redaction.error(new StoreDown("down: pw-0a1b2c3d"));
    expect(error).toBeInstanceOf(StoreDown);
    expect(error.message).toBe("down: [redacted]");
    expect(error.stack).not.toContain("pw-0a1b2c3d");
    expect(redaction.error("thrown text listed-secret-1").message).toBe("thrown text [redacted]");
    const clean = new Error("nothing here");
    expect(redaction.error(clean)).toBe(clean);
  });

  it("refuses secrets that are not an array of strings", () => {
    expect(() => fleetRedaction("one", {}, "createAgentQueue")).toThrow(InvalidOptionError);
    expect(() => fleetRedaction([1], {}, "createAgentQueue")).toThrow(/secrets/);
  });
});
