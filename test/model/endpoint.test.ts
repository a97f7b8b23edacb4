import { describe, expect, it } from "vitest";
import { createAnthropicClient } from "../../src/index";
import { endpointOf } from "../../src/model/endpoint";

describe("endpointOf", () => {
  it.each([
    [undefined, { providerName: "anthropic", address: "api.anthropic.com", port: 443 }],
    [
      "https://api.deepseek.com/anthropic",
      { providerName: "deepseek", address: "api.deepseek.com", port: 443 },
    ],
    [
      "https://api.moonshot.ai/anthropic",
      { providerName: "moonshot", address: "api.moonshot.ai", port: 443 },
    ],
    [
      "https://api.moonshot.cn/anthropic",
      { providerName: "moonshot", address: "api.moonshot.cn", port: 443 },
    ],
    [
      "https://open.bigmodel.cn/api/anthropic",
      { providerName: "zhipu", address: "open.bigmodel.cn", port: 443 },
    ],
    ["https://api.z.ai/api/anthropic", { providerName: "zhipu", address: "api.z.ai", port: 443 }],
    ["https://api.minimax.io/anthropic", { providerName: "minimax", address: "api.minimax.io", port: 443 }],
    [
      "https://API.MiniMaxi.com/anthropic",
      { providerName: "minimax", address: "api.minimaxi.com", port: 443 },
    ],
    // A proxy or a local server: the API it speaks, and where it is.
    ["http://127.0.0.1:8080/v1", { providerName: "anthropic", address: "127.0.0.1", port: 8080 }],
    ["http://llm.internal", { providerName: "anthropic", address: "llm.internal", port: 80 }],
  ])("%s", (baseURL, expected) => {
    expect(endpointOf(baseURL)).toEqual(expected);
  });

  it("a malformed base URL still names the API, without address", () => {
    expect(endpointOf("not a url")).toEqual({ providerName: "anthropic" });
  });

  it("is what the built-in client reports as its endpoint", () => {
    const client = createAnthropicClient({ apiKey: "k", baseURL: "https://api.deepseek.com/anthropic" });
    expect(client.endpoint).toEqual({ providerName: "deepseek", address: "api.deepseek.com", port: 443 });
  });
});
