import { beforeAll, describe, expect, it } from "vitest";
import { mockServerPerTest } from "../support/mock-server";
import { cleanEnvironment, DUMMY_KEY, ensureBuiltCli, runCli } from "./helpers";

const withKey = () => cleanEnvironment({ ANTHROPIC_API_KEY: DUMMY_KEY });

/** Every cache_control marker anywhere in a request body. */
const markers = (value: unknown): number => JSON.stringify(value).split('"cache_control"').length - 1;

describe("the CLI's model-setting flags on the wire (the body the mock server received)", () => {
  beforeAll(ensureBuiltCli, 300_000);
  const server = mockServerPerTest();

  it("--temperature, --effort, --max-tokens and --no-cache reach the request", async () => {
    server.enqueue({ content: "ok" });
    const run = await runCli(
      [
        "--base-url",
        server.url,
        "--temperature",
        "0.2",
        "--effort",
        "low",
        "--max-tokens",
        "2000",
        "--no-cache",
        "Hi",
      ],
      { env: withKey() },
    );
    expect(run.code).toBe(0);
    const body = server.requests[0]!.body;
    expect(body.temperature).toBe(0.2);
    expect(body.output_config).toEqual({ effort: "low" });
    expect(body.max_tokens).toBe(2000);
    expect(markers(body)).toBe(0);
  });

  it("--thinking <budget> and adaptive reach the request; caching markers are on by default", async () => {
    server.enqueue({ content: "ok" }, { content: "ok" });
    expect(
      (await runCli(["--base-url", server.url, "--thinking", "2048", "Hi"], { env: withKey() })).code,
    ).toBe(0);
    expect(
      (await runCli(["--base-url", server.url, "--thinking", "adaptive", "Hi"], { env: withKey() })).code,
    ).toBe(0);
    expect(server.requests[0]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(server.requests[1]!.body.thinking).toEqual({ type: "adaptive" });
    expect(markers(server.requests[0]!.body)).toBeGreaterThan(0);
  });

  it("/compact's summary request carries the flags automatic compaction keeps: sampling, effort, a thinking budget only when it fits; no cache marker", async () => {
    server.setHandler((body) => {
      const text = JSON.stringify(body.messages);
      return { content: text.includes("<conversation>") ? "SUMMARY." : "noted" };
    });
    const input = ["one", "two", "three", "four", "/compact", ""].join("\n");
    const flags = ["--temperature", "0.2", "--effort", "low"];
    const run = await runCli(["--base-url", server.url, ...flags], { env: withKey(), input });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("⋯ compacted");
    const summary = server.requests.find((request) =>
      JSON.stringify(request.body).includes("<conversation>"),
    );
    expect(summary).toBeDefined();
    expect(summary!.body.temperature).toBe(0.2);
    expect(summary!.body.output_config).toEqual({ effort: "low" });
    expect(summary!.body.max_tokens).toBe(4096);
    expect(markers(summary!.body)).toBe(0); // a summary is sent once: no cache write

    // A budget below the summary's max_tokens is kept; a budget that does not fit is dropped.
    for (const [budget, kept] of [
      ["2048", true],
      ["8000", false],
    ] as const) {
      server.requests.length = 0;
      const thinking = await runCli(
        ["--base-url", server.url, "--thinking", budget, "--max-tokens", "16000", "--no-cache"],
        { env: withKey(), input },
      );
      expect(thinking.code, thinking.stderr).toBe(0);
      const body = server.requests.find((request) =>
        JSON.stringify(request.body).includes("<conversation>"),
      )!.body;
      expect(body.thinking).toEqual(kept ? { type: "enabled", budget_tokens: Number(budget) } : undefined);
      expect(markers(body)).toBe(0);
    }
  });

  it("a bad value exits 2 with a message naming the flag, before any request", async () => {
    const run = await runCli(["--base-url", server.url, "--thinking", "2048", "--temperature", "0.5", "Hi"], {
      env: withKey(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--temperature cannot be combined with --thinking/);
    expect(server.requests).toHaveLength(0);
  });
});
