import { afterEach, describe, expect, it } from "vitest";
import type { ContentBlock } from "../../src/messages/types";
import {
  type MockAnthropicServer,
  type MockAnthropicServerOptions,
  type MockStep,
  startMockAnthropicServer,
} from "../../src/testing";

let server: MockAnthropicServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: MockAnthropicServerOptions = {}): Promise<MockAnthropicServer> {
  server = await startMockAnthropicServer({ handler: () => ({ content: "Done." }), ...options });
  return server;
}

async function post(body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server!.url}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

const THINKING_A: ContentBlock = {
  type: "thinking",
  thinking: "First I read a.ts.",
  signature: "sig-A-Eq8BCkYI",
};
const THINKING_B: ContentBlock = {
  type: "thinking",
  thinking: "Then b.ts — ünïcode ✓.",
  signature: "sig-B-EqQBCkYI",
};
const REDACTED: ContentBlock = { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix-opaque" };
const CALL: ContentBlock = { type: "tool_use", id: "toolu_01", name: "read", input: { path: "a.ts" } };
const RESPONSE: ContentBlock[] = [THINKING_A, REDACTED, THINKING_B, { type: "text", text: "Reading." }, CALL];

const ENABLED = { type: "enabled", budget_tokens: 2048 };

/** The follow-up request: the assistant turn as given, then its tool result (`thinking: null` sends none). */
function followUp(assistant: ContentBlock[], thinking: unknown = ENABLED) {
  return {
    model: "claude-sonnet-4-6",
    max_tokens: 4096,
    ...(thinking === null ? {} : { thinking }),
    messages: [
      { role: "user", content: "Read a.ts" },
      { role: "assistant", content: assistant },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "export {}" }] },
    ],
  };
}

/** Starts a server that answered the first request with RESPONSE (as if sent), ready for the follow-up. */
async function afterFirstTurn(
  options: MockAnthropicServerOptions = {},
  steps: MockStep[] = [],
): Promise<void> {
  await start({ responses: [{ content: RESPONSE }, ...steps], ...options });
  const first = await post({
    model: "claude-sonnet-4-6",
    max_tokens: 4096,
    thinking: ENABLED,
    messages: [{ role: "user", content: "Read a.ts" }],
  });
  expect(first.status).toBe(200);
}

async function refusal(assistant: ContentBlock[]): Promise<string> {
  const { status, text } = await post(followUp(assistant));
  expect(status).toBe(400);
  const body = JSON.parse(text);
  expect(body.type).toBe("error");
  expect(body.error.type).toBe("invalid_request_error");
  return body.error.message;
}

describe("mock server — scripted thinking", () => {
  it("streams thinking as thinking_delta pieces and one signature_delta; redacted thinking whole", async () => {
    await start({ responses: [{ content: RESPONSE }] });
    const { text } = await post({
      model: "m",
      max_tokens: 10,
      stream: true,
      messages: [{ role: "user", content: "go" }],
    });
    const events = text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)));
    const deltasOf = (index: number) =>
      events
        .filter((event) => event.type === "content_block_delta" && event.index === index)
        .map((event) => event.delta);
    const first = deltasOf(0);
    expect(first.slice(0, -1).every((delta) => delta.type === "thinking_delta")).toBe(true);
    expect(first.length).toBeGreaterThan(2);
    expect(
      first
        .slice(0, -1)
        .map((delta) => delta.thinking)
        .join(""),
    ).toBe((THINKING_A as { thinking: string }).thinking);
    expect(first.at(-1)).toEqual({ type: "signature_delta", signature: "sig-A-Eq8BCkYI" });
    const redactedStart = events.find((event) => event.type === "content_block_start" && event.index === 1);
    expect(redactedStart.content_block).toEqual(REDACTED);
    expect(deltasOf(1)).toEqual([]);
  });
});

describe("mock server — thinking blocks sent back (thinking on)", () => {
  it("accepts the turn sent back exactly as it was sent, with thinking enabled or adaptive", async () => {
    await afterFirstTurn({}, [{ content: "ok" }]);
    expect((await post(followUp(RESPONSE))).status).toBe(200);
    expect((await post(followUp(RESPONSE, { type: "adaptive" }))).status).toBe(200);
  });

  it("refuses a turn whose thinking blocks were all dropped", async () => {
    await afterFirstTurn();
    expect(await refusal([{ type: "text", text: "Reading." }, CALL])).toBe(
      "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking",
    );
  });

  it.each([
    [
      "altered thinking text",
      [{ ...THINKING_A, thinking: "First I read a.ts!" }, REDACTED, THINKING_B, CALL],
      0,
    ],
    [
      "two thinking blocks swapped",
      [THINKING_B, REDACTED, THINKING_A, { type: "text", text: "Reading." }, CALL],
      0,
    ],
    ["one of them dropped", [THINKING_A, THINKING_B, { type: "text", text: "Reading." }, CALL], 1],
    ["the redacted block dropped", [THINKING_A, { type: "text", text: "R" }, THINKING_B, CALL], 2],
    [
      "a block moved after the tool call",
      [THINKING_A, REDACTED, { type: "text", text: "Reading." }, CALL, THINKING_B],
      4,
    ],
  ] as Array<[string, ContentBlock[], number]>)("refuses a turn with %s", async (_, assistant, index) => {
    await afterFirstTurn();
    expect(await refusal(assistant)).toBe(
      `messages.1.content.${index}: \`thinking\` or \`redacted_thinking\` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.`,
    );
  });

  it("refuses a signature or redacted data the server never issued", async () => {
    await afterFirstTurn();
    expect(await refusal([{ ...THINKING_A, signature: "forged" }, REDACTED, THINKING_B, CALL])).toBe(
      "messages.1.content.0: Invalid `signature` in `thinking` block",
    );
    expect(
      await refusal([THINKING_A, { type: "redacted_thinking", data: "tampered" }, THINKING_B, CALL]),
    ).toBe("messages.1.content.1: Invalid `data` in `redacted_thinking` block");
  });

  it("uses no scripted step for a refused request", async () => {
    await afterFirstTurn({}, [{ content: "kept for later" }]);
    await refusal([CALL]);
    expect(server!.pending).toBe(1);
  });

  it("does not check with thinking off, for turns it did not send, nor with checkThinking: false", async () => {
    await afterFirstTurn();
    const altered = [{ ...THINKING_A, thinking: "changed" }, CALL];
    expect((await post(followUp(altered, null))).status).toBe(200);
    expect((await post(followUp(altered, { type: "disabled" }))).status).toBe(200);
    const foreign: ContentBlock[] = [{ type: "tool_use", id: "toolu_elsewhere", name: "read", input: {} }];
    const unknown = followUp(foreign);
    unknown.messages[2] = {
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_elsewhere", content: "x" }],
    };
    expect((await post(unknown)).status).toBe(200);
    await server!.close();
    await afterFirstTurn({ checkThinking: false });
    expect((await post(followUp(altered))).status).toBe(200);
  });

  it("checks only the last assistant turn that called tools", async () => {
    await afterFirstTurn({}, [
      {
        content: [
          { type: "thinking", thinking: "Next.", signature: "sig-C" },
          { type: "tool_use", id: "toolu_02", name: "read", input: {} },
        ],
      },
    ]);
    const second = followUp(RESPONSE);
    expect((await post(second)).status).toBe(200);
    const older = [{ ...THINKING_A, thinking: "rewritten by compaction" }, CALL];
    const third = {
      ...second,
      messages: [
        ...followUp(older).messages,
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "Next.", signature: "sig-C" },
            { type: "tool_use", id: "toolu_02", name: "read", input: {} },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_02", content: "y" }] },
      ],
    };
    expect((await post(third)).status).toBe(200);
  });
});
