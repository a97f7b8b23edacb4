import { describe, expect, it } from "vitest";
import { secretRedactor } from "../../../src/integrations/mcp/redact-secrets";

describe("secretRedactor", () => {
  it("hides env values of stdio servers", () => {
    const redact = secretRedactor({
      type: "stdio",
      command: "x",
      env: { API_KEY: "sk-live-123456", DEBUG: "1" },
    });
    expect(redact("auth failed for sk-live-123456 (debug 1)")).toBe("auth failed for [redacted] (debug 1)");
  });

  it("hides header values, and the bare token of `Bearer <token>`", () => {
    const redact = secretRedactor({
      type: "http",
      url: "http://x",
      headers: { Authorization: "Bearer abcdef123456" },
    });
    expect(redact("sent Bearer abcdef123456; token abcdef123456 rejected")).toBe(
      "sent [redacted]; token [redacted] rejected",
    );
  });

  it("hides the user name, password and query values of the server URL", () => {
    const redact = secretRedactor({
      type: "http",
      url: "https://deploy-bot:hunter2%2Fsecret@mcp.example.com/mcp?api_key=k3y-v4lue-123&v=2",
    });
    expect(
      redact(
        "Request cannot be constructed from a URL that includes credentials: https://deploy-bot:hunter2%2Fsecret@mcp.example.com/mcp?api_key=k3y-v4lue-123&v=2",
      ),
    ).toBe(
      "Request cannot be constructed from a URL that includes credentials: https://[redacted]@mcp.example.com/mcp?api_key=[redacted]&v=2",
    );
    expect(redact("password hunter2/secret")).toBe("password [redacted]");
  });

  it("leaves text alone when nothing is configured", () => {
    expect(secretRedactor({ type: "sse", url: "http://x" })("plain")).toBe("plain");
  });
});
