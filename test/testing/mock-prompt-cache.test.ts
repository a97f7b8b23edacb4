import { afterEach, describe, expect, it } from "vitest";
import {
  defaultMinCacheableTokens,
  type MockAnthropicServer,
  type MockAnthropicServerOptions,
  startMockAnthropicServer,
} from "../../src/testing";

let server: MockAnthropicServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: MockAnthropicServerOptions = {}): Promise<MockAnthropicServer> {
  server = await startMockAnthropicServer({ handler: () => ({ content: "ok" }), ...options });
  return server;
}

async function post(body: unknown, apiKey = "key-a"): Promise<{ status: number; json: any }> {
  const response = await fetch(`${server!.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": apiKey },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function usageOf(body: unknown, apiKey?: string): Promise<Record<string, unknown>> {
  const { status, json } = await post(body, apiKey);
  expect(status).toBe(200);
  return json.usage;
}

const MARK = { type: "ephemeral" } as const;
const MARK_1H = { type: "ephemeral", ttl: "1h" } as const;

/** A text block whose keys are already in canonical (sorted) order. */
const text = (value: string, marker?: object) => ({
  ...(marker ? { cache_control: marker } : {}),
  text: value,
  type: "text",
});

/** The mock's estimate: four characters of canonical JSON per token, over the blocks so far. */
function tokens(...blocks: object[]): number {
  const chars = blocks.reduce((sum, block) => {
    const { cache_control: _, ...rest } = block as Record<string, unknown>;
    return sum + JSON.stringify(rest).length;
  }, 0);
  return Math.ceil(chars / 4);
}

const SYSTEM = "You review code with care. ".repeat(200); // ≈ 1,350 tokens
const MODEL = "claude-sonnet-4-6";

function body(system: object[], messages: unknown[], extra: Record<string, unknown> = {}) {
  return { model: MODEL, max_tokens: 100, system, messages, ...extra };
}

describe("mock prompt cache — accounting", () => {
  it("reports only input_tokens, the whole prompt, for a request without markers", async () => {
    await start();
    const system = [text(SYSTEM)];
    const question = text("What changed?");
    const usage = await usageOf(body(system, [{ role: "user", content: [question] }]));
    expect(usage).toEqual({ input_tokens: tokens(system[0]!, question), output_tokens: expect.any(Number) });
  });

  it("writes the prefix up to a marker, then reads it for the next request sharing it", async () => {
    await start();
    const system = [text(SYSTEM, MARK)];
    const first = text("What changed in a.ts?");
    const second = text("And in b.ts?");
    const written = tokens(system[0]!);
    expect(await usageOf(body(system, [{ role: "user", content: [first] }]))).toMatchObject({
      cache_creation_input_tokens: written,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: written, ephemeral_1h_input_tokens: 0 },
      input_tokens: tokens(system[0]!, first) - written,
    });
    expect(await usageOf(body(system, [{ role: "user", content: [second] }]))).toMatchObject({
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: written,
      input_tokens: tokens(system[0]!, second) - written,
    });
  });

  it("reads the longest hit and writes from there to the last marker, each TTL in its bucket", async () => {
    await start();
    const system = [text(SYSTEM, MARK_1H)];
    const turn1 = [{ role: "user", content: [text("Q1", MARK)] }];
    await usageOf(body(system, turn1));
    const answer = text("A1");
    const follow = text("Q2", MARK);
    const turn2 = [
      { role: "user", content: [text("Q1")] },
      { role: "assistant", content: [answer] },
      { role: "user", content: [follow] },
    ];
    const usage = await usageOf(body(system, turn2));
    // Turn 1 wrote up to "Q1" (1 h for the system, 5 m for the rest); turn 2 finds it within the
    // lookback of its marker on "Q2" and writes what follows.
    const before = Math.ceil(
      (JSON.stringify({ text: SYSTEM, type: "text" }).length +
        JSON.stringify({ text: "Q1", type: "text" }).length) /
        4,
    );
    expect(usage).toMatchObject({
      cache_read_input_tokens: before,
      cache_creation_input_tokens: tokens(system[0]!, text("Q1"), answer, follow) - before,
      cache_creation: { ephemeral_1h_input_tokens: 0 },
      input_tokens: 0,
    });
  });

  it("does not cache a prefix below the model's minimum cacheable length", async () => {
    await start();
    const short = [text("Be brief.", MARK)];
    const usage = await usageOf(body(short, [{ role: "user", content: [text("Q")] }]));
    expect(usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    // ≈ 1,350 tokens: enough for Sonnet (1,024), not for Haiku 4.5 (4,096).
    const system = [text(SYSTEM, MARK)];
    const haiku = { ...body(system, [{ role: "user", content: [text("Q")] }]), model: "claude-haiku-4-5" };
    expect(await usageOf(haiku)).toMatchObject({ cache_creation_input_tokens: 0 });
    expect(await usageOf(haiku)).toMatchObject({ cache_read_input_tokens: 0 });
    expect(defaultMinCacheableTokens("claude-haiku-4-5")).toBe(4096);
    expect(defaultMinCacheableTokens("claude-3-5-haiku-20241022")).toBe(2048);
    expect(defaultMinCacheableTokens("claude-opus-4-6")).toBe(4096);
    expect(defaultMinCacheableTokens("claude-sonnet-4-5")).toBe(1024);
    expect(defaultMinCacheableTokens("deepseek-v4-flash")).toBe(1024);
  });

  it("looks back 20 blocks from a marker for an earlier entry, and no further", async () => {
    await start({ promptCache: { minCacheableTokens: 1 } });
    const blocks = (marked: number[]) =>
      Array.from({ length: 40 }, (_, index) =>
        text(`block ${index}`, marked.includes(index) ? MARK : undefined),
      );
    const request = (marked: number[]) => body([text("S")], [{ role: "user", content: blocks(marked) }]);
    await usageOf(request([5]));
    // The system is block 0 of the prefix, so block 5 of the message is prefix position 6.
    const upTo = (count: number) => tokens(text("S"), ...blocks([]).slice(0, count));
    expect(await usageOf(request([25]))).toMatchObject({ cache_read_input_tokens: upTo(6) });
    expect(await usageOf(request([26]))).toMatchObject({ cache_read_input_tokens: upTo(26) });
    server!.promptCache!.clear();
    await usageOf(request([5]));
    expect(await usageOf(request([27]))).toMatchObject({
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: upTo(28),
    });
  });

  it("lets entries expire after their TTL, refreshed by each read (injected clock)", async () => {
    let now = 0;
    await start({ promptCache: { now: () => now } });
    const short = body([text(SYSTEM, MARK)], [{ role: "user", content: [text("Q")] }]);
    const long = body([text(`${SYSTEM}!`, MARK_1H)], [{ role: "user", content: [text("Q")] }]);
    await usageOf(short);
    await usageOf(long);
    now = 4 * 60_000;
    expect(await usageOf(short)).toMatchObject({ cache_creation_input_tokens: 0 });
    now = 8 * 60_000; // 4 minutes after the read that refreshed it
    expect(await usageOf(short)).toMatchObject({ cache_creation_input_tokens: 0 });
    now = 13 * 60_000 + 1;
    expect((await usageOf(short)).cache_read_input_tokens).toBe(0);
    expect(await usageOf(long)).toMatchObject({ cache_read_input_tokens: tokens(text(`${SYSTEM}!`)) });
    now += 60 * 60_000 + 1;
    expect(await usageOf(long)).toMatchObject({
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_1h_input_tokens: tokens(text(`${SYSTEM}!`)) },
    });
  });

  it("keeps caches apart per API key and per model", async () => {
    await start();
    const request = body([text(SYSTEM, MARK)], [{ role: "user", content: [text("Q")] }]);
    await usageOf(request, "key-a");
    expect((await usageOf(request, "key-b")).cache_read_input_tokens).toBe(0);
    expect((await usageOf({ ...request, model: "claude-opus-4-1" }, "key-a")).cache_read_input_tokens).toBe(
      0,
    );
    expect((await usageOf(request, "key-a")).cache_read_input_tokens).toBeGreaterThan(1000);
  });

  it("invalidates cached messages, not tools or system, when tool_choice or thinking change", async () => {
    await start();
    const system = [text(SYSTEM, MARK)];
    const messages = [{ role: "user", content: [text("Q ".repeat(10), MARK)] }];
    const tools = [{ input_schema: { type: "object" }, name: "read" }];
    const full = tokens(tools[0]!, system[0]!, messages[0]!.content[0]!);
    await usageOf(body(system, messages, { tools, tool_choice: { type: "auto" } }));
    expect(await usageOf(body(system, messages, { tools, tool_choice: { type: "auto" } }))).toMatchObject({
      cache_read_input_tokens: full,
    });
    expect(await usageOf(body(system, messages, { tools, tool_choice: { type: "any" } }))).toMatchObject({
      cache_read_input_tokens: tokens(tools[0]!, system[0]!),
      cache_creation_input_tokens: full - tokens(tools[0]!, system[0]!),
    });
    expect(
      await usageOf(
        body(system, messages, { tools, tool_choice: { type: "any" }, thinking: { type: "adaptive" } }),
      ),
    ).toMatchObject({ cache_read_input_tokens: tokens(tools[0]!, system[0]!) });
  });

  it("treats a marker inside a tool result's content as a marker on that tool result", async () => {
    await start();
    const result = { content: [text("file contents", MARK)], tool_use_id: "t1", type: "tool_result" };
    const messages = [
      { role: "user", content: "Q" },
      { role: "assistant", content: [{ id: "t1", input: {}, name: "read", type: "tool_use" }] },
      { role: "user", content: [result] },
    ];
    const usage = await usageOf(body([text(SYSTEM)], messages));
    expect(usage).toMatchObject({ input_tokens: 0, cache_read_input_tokens: 0 });
    expect(usage.cache_creation_input_tokens).toBeGreaterThan(1300);
  });

  it("supports automatic caching: a top-level cache_control marks the last cacheable block", async () => {
    await start();
    // (A blank text block after "Q" — not markable — would make the API refuse the request.)
    const request = body([text(SYSTEM)], [{ role: "user", content: [text("P"), text("Q")] }], {
      cache_control: MARK,
    });
    const all = tokens(text(SYSTEM), text("P"), text("Q"));
    expect(await usageOf(request)).toMatchObject({ cache_creation_input_tokens: all });
    expect(await usageOf(request)).toMatchObject({ cache_read_input_tokens: all });
  });

  it("still writes the cache when a step scripts its own usage", async () => {
    await start({ responses: [{ content: "scripted", usage: { input_tokens: 1, output_tokens: 1 } }] });
    const request = body([text(SYSTEM, MARK)], [{ role: "user", content: [text("Q")] }]);
    expect(await usageOf(request)).toEqual({ input_tokens: 1, output_tokens: 1 });
    expect(await usageOf(request)).toMatchObject({ cache_read_input_tokens: tokens(text(SYSTEM)) });
  });

  it("streams the cache buckets and their split in message_start", async () => {
    await start();
    const request = {
      ...body([text(SYSTEM, MARK_1H)], [{ role: "user", content: [text("Q")] }]),
      stream: true,
    };
    const response = await fetch(`${server!.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k" },
      body: JSON.stringify(request),
    });
    const opening = (await response.text())
      .split("\n")
      .find((line) => line.startsWith('data: {"type":"message_start"'));
    const usage = JSON.parse(opening!.slice(6)).message.usage;
    expect(usage).toEqual({
      input_tokens: tokens(text(SYSTEM), text("Q")) - tokens(text(SYSTEM)),
      output_tokens: 1,
      cache_creation_input_tokens: tokens(text(SYSTEM)),
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: tokens(text(SYSTEM)) },
    });
  });

  it("ignores markers with promptCache: false", async () => {
    await start({ promptCache: false });
    expect(server!.promptCache).toBeUndefined();
    const request = body([text(SYSTEM, MARK)], [{ role: "user", content: [text("Q")] }]);
    await usageOf(request);
    const usage = await usageOf(request);
    expect(usage).toEqual({
      input_tokens: tokens(text(SYSTEM), text("Q")),
      output_tokens: expect.any(Number),
    });
  });
});

describe("mock prompt cache — markers the API refuses", () => {
  it.each([
    [
      "a fifth marker",
      body(
        [text(SYSTEM, MARK), text("a", MARK), text("b", MARK)],
        [{ role: "user", content: [text("c", MARK), text("d", MARK)] }],
      ),
      "A maximum of 4 blocks with cache_control may be provided. Found 5.",
    ],
    [
      "a marker on a thinking block",
      body(
        [text(SYSTEM)],
        [
          { role: "user", content: "Q" },
          {
            role: "assistant",
            content: [{ type: "thinking", thinking: "t", signature: "s", cache_control: MARK }],
          },
          { role: "user", content: "go on" },
        ],
      ),
      "messages.1.content.0.thinking.cache_control: Extra inputs are not permitted",
    ],
    [
      "a marker on an empty text block",
      body([text(SYSTEM)], [{ role: "user", content: [text("", MARK)] }]),
      "messages.0.content.0.text: cache_control cannot be set for empty text blocks",
    ],
    [
      "a one-hour marker after a five-minute one",
      body([text(SYSTEM, MARK)], [{ role: "user", content: [text("Q", MARK_1H)] }]),
      "a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block",
    ],
    [
      "an unknown TTL",
      body([text(SYSTEM, { type: "ephemeral", ttl: "2h" })], [{ role: "user", content: "Q" }]),
      "system.0.cache_control.ttl: Input should be '5m' or '1h'",
    ],
  ])("refuses %s with a 400 and uses no scripted step", async (_, request, message) => {
    await start({ responses: [{ content: "unused" }] });
    const { status, json } = await post(request);
    expect(status).toBe(400);
    expect(json.error).toEqual({ type: "invalid_request_error", message: expect.stringContaining(message) });
    expect(server!.pending).toBe(1);
  });
});
