import { describe, expect, it } from "vitest";
import {
  CACHE_LOOKBACK_BLOCKS,
  type CacheableBody,
  MAX_CACHE_BREAKPOINTS,
  placeCacheMarkers,
} from "../../src/model/cache-markers";

const EPHEMERAL = { type: "ephemeral" };
const HOUR = { type: "ephemeral", ttl: "1h" };

const tools = () => [
  { name: "read", description: "Read a file", input_schema: { type: "object" } },
  { name: "grep", description: "Search files", input_schema: { type: "object" } },
];

/** Every place of a body that carries a marker, as `path → marker`. */
function markers(body: CacheableBody): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  const visit = (path: string, block: unknown) => {
    const marker = (block as { cache_control?: unknown } | undefined)?.cache_control;
    if (marker !== undefined) found[path] = marker;
  };
  for (const [index, tool] of (body.tools ?? []).entries()) visit(`tools.${index}`, tool);
  if (Array.isArray(body.system)) {
    for (const [index, block] of body.system.entries()) visit(`system.${index}`, block);
  }
  for (const [index, message] of body.messages.entries()) {
    if (!Array.isArray(message.content)) continue;
    for (const [position, block] of message.content.entries()) visit(`messages.${index}.${position}`, block);
  }
  return found;
}

/** A tool turn: an assistant message calling `calls` tools, then their results. */
function toolTurn(turn: number, calls: number) {
  const ids = Array.from({ length: calls }, (_, call) => `toolu_${turn}_${call}`);
  return [
    {
      role: "assistant",
      content: ids.map((id) => ({ type: "tool_use", id, name: "read", input: { path: id } })),
    },
    {
      role: "user",
      content: ids.map((id) => ({ type: "tool_result", tool_use_id: id, content: `contents of ${id}` })),
    },
  ];
}

describe("placeCacheMarkers", () => {
  it("marks the last tool, the last system block and the last block of the newest message", () => {
    const body: CacheableBody = {
      tools: tools(),
      system: "You are careful.",
      messages: [{ role: "user", content: "Find the bug." }],
    };
    const marked = placeCacheMarkers(body, { ttl: "5m" });
    expect(marked.tools?.[1]).toEqual({ ...tools()[1], cache_control: EPHEMERAL });
    expect(marked.tools?.[0]).toBe(body.tools?.[0]);
    expect(marked.system).toEqual([{ type: "text", text: "You are careful.", cache_control: EPHEMERAL }]);
    expect(marked.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "Find the bug.", cache_control: EPHEMERAL }] },
    ]);
  });

  it("marks with the one-hour TTL when asked", () => {
    const marked = placeCacheMarkers(
      { tools: tools(), system: "S", messages: [{ role: "user", content: "Q" }] },
      { ttl: "1h" },
    );
    expect(Object.values(markers(marked))).toEqual([HOUR, HOUR, HOUR]);
  });

  it("never mutates the caller's objects: only the marked blocks and their containers are copied", () => {
    const history = [{ role: "user", content: [{ type: "text", text: "first" }] }, ...toolTurn(1, 2)];
    const system = [{ type: "text", text: "system" }];
    const body: CacheableBody = { tools: tools(), system, messages: history };
    const snapshot = structuredClone(body);
    const marked = placeCacheMarkers(body, { ttl: "5m" });
    expect(body).toEqual(snapshot);
    expect(Object.keys(markers(marked))).toEqual(["tools.1", "system.0", "messages.2.1"]);
    // Unmarked messages and blocks are the caller's objects, passed by reference.
    expect(marked.messages[0]).toBe(history[0]);
    expect(marked.messages[1]).toBe(history[1]);
    const last = marked.messages[2]!.content as unknown[];
    expect(last[0]).toBe((history[2]!.content as unknown[])[0]);
    expect(last[1]).not.toBe((history[2]!.content as unknown[])[1]);
  });

  it("marks the block the previous turn marked when a turn adds more blocks than the lookback reaches", () => {
    const history = [{ role: "user", content: "Read every file." }, ...toolTurn(1, 30)];
    const marked = placeCacheMarkers({ tools: tools(), system: "S", messages: history }, { ttl: "5m" });
    // The previous request ended with message 0 and marked it; 60 blocks later the tail's lookback
    // would not find that entry, so message 0 keeps a marker.
    expect(Object.keys(markers(marked))).toEqual(["tools.1", "system.0", "messages.0.0", "messages.2.29"]);
  });

  it("adds no bridge when the previous marker is within the lookback of the new tail", () => {
    const history = [{ role: "user", content: "Read." }, ...toolTurn(1, 3), ...toolTurn(2, 3)];
    const marked = placeCacheMarkers({ messages: history }, { ttl: "5m" });
    expect(Object.keys(markers(marked))).toEqual(["messages.4.2"]);
  });

  it("bridges exactly when the distance reaches the lookback window", () => {
    // The newest turn: one assistant block per call, then the results. Distance from the previous
    // tail (message 0) to the new tail is 2 × calls.
    const calls = CACHE_LOOKBACK_BLOCKS / 2;
    const reached = placeCacheMarkers(
      { messages: [{ role: "user", content: "go" }, ...toolTurn(1, calls - 1)] },
      { ttl: "5m" },
    );
    expect(Object.keys(markers(reached))).toEqual([`messages.2.${calls - 2}`]);
    const bridged = placeCacheMarkers(
      { messages: [{ role: "user", content: "go" }, ...toolTurn(1, calls)] },
      { ttl: "5m" },
    );
    expect(Object.keys(markers(bridged))).toEqual(["messages.0.0", `messages.2.${calls - 1}`]);
  });

  it("keeps the caller's markers and gives way: never more than four in all", () => {
    const system = [
      { type: "text", text: "policy", cache_control: { type: "ephemeral" } },
      { type: "text", text: "style", cache_control: { type: "ephemeral" } },
    ];
    const history = [
      { role: "user", content: [{ type: "text", text: "docs", cache_control: { type: "ephemeral" } }] },
      ...toolTurn(1, 30),
    ];
    const marked = placeCacheMarkers({ tools: tools(), system, messages: history }, { ttl: "5m" });
    const found = markers(marked);
    expect(Object.keys(found)).toHaveLength(MAX_CACHE_BREAKPOINTS);
    // Theirs: system.0, system.1 (also the last system block), messages.0.0 (also the previous
    // tail, so no bridge is needed). Ours: the tail first; the tools marker gave way.
    expect(Object.keys(found)).toEqual(["system.0", "system.1", "messages.0.0", "messages.2.29"]);
  });

  it("adds nothing when the caller already placed four markers, counting automatic caching", () => {
    const four = Array.from({ length: 4 }, (_, index) => ({
      type: "text",
      text: `part ${index}`,
      cache_control: { type: "ephemeral" },
    }));
    const body: CacheableBody = { tools: tools(), system: four, messages: [{ role: "user", content: "Q" }] };
    expect(placeCacheMarkers(body, { ttl: "5m" })).toBe(body);
    const automatic: CacheableBody = {
      tools: tools(),
      system: four.slice(0, 3),
      messages: [{ role: "user", content: "Q" }],
      cache_control: { type: "ephemeral" },
    };
    expect(placeCacheMarkers(automatic, { ttl: "5m" })).toBe(automatic);
  });

  it("leaves the tail to automatic caching (top-level cache_control) and counts it", () => {
    const marked = placeCacheMarkers(
      { tools: tools(), system: "S", messages: [{ role: "user", content: "Q" }], cache_control: EPHEMERAL },
      { ttl: "5m" },
    );
    expect(Object.keys(markers(marked))).toEqual(["tools.1", "system.0"]);
  });

  it("never marks thinking, redacted thinking or empty text: the last markable block instead", () => {
    const history = [
      { role: "user", content: "Q" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Sure." },
          { type: "thinking", thinking: "…", signature: "sig" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "" },
        ],
      },
    ];
    const marked = placeCacheMarkers({ messages: history }, { ttl: "5m" });
    expect(Object.keys(markers(marked))).toEqual(["messages.1.0"]);
    const content = marked.messages[1]!.content as Array<Record<string, unknown>>;
    expect(content[1]).toBe(history[1]!.content[1]);
    expect(content[1]).toEqual({ type: "thinking", thinking: "…", signature: "sig" });
  });

  it("keeps one-hour markers before five-minute ones when the caller mixes TTLs", () => {
    const callerShortSystem = placeCacheMarkers(
      {
        tools: tools(),
        system: [{ type: "text", text: "S", cache_control: { type: "ephemeral" } }],
        messages: [{ role: "user", content: "Q" }],
      },
      { ttl: "1h" },
    );
    // After the caller's 5-minute system marker, ours use 5 minutes; before it (tools), one hour.
    expect(markers(callerShortSystem)).toEqual({
      "tools.1": HOUR,
      "system.0": EPHEMERAL,
      "messages.0.0": EPHEMERAL,
    });
    const callerLongMessage = placeCacheMarkers(
      {
        tools: tools(),
        system: "S",
        messages: [
          { role: "user", content: [{ type: "text", text: "doc", cache_control: HOUR }] },
          { role: "assistant", content: [{ type: "text", text: "ok" }] },
          { role: "user", content: "Q" },
        ],
      },
      { ttl: "5m" },
    );
    expect(markers(callerLongMessage)).toEqual({
      "tools.1": HOUR,
      "system.0": HOUR,
      "messages.0.0": HOUR,
      "messages.2.0": EPHEMERAL,
    });
  });
});

describe("placeCacheMarkers — markers inside tool results", () => {
  it("counts a caller's marker inside a tool result's content, and leaves that block alone", () => {
    const system = [
      { type: "text", text: "a", cache_control: EPHEMERAL },
      { type: "text", text: "b", cache_control: EPHEMERAL },
    ];
    const history = [
      { role: "user", content: "Q" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read", input: {} }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "t1",
            content: [{ type: "text", text: "big", cache_control: EPHEMERAL }],
          },
        ],
      },
    ];
    const marked = placeCacheMarkers({ tools: tools(), system, messages: history }, { ttl: "5m" });
    // Three of theirs, the newest block among them (its marker sits inside the tool result, within
    // the lookback of the previous tail: no bridge); one left for us: the tools.
    expect(Object.keys(markers(marked))).toEqual(["tools.1", "system.0", "system.1"]);
    expect(marked.messages[2]).toBe(history[2]);
    expect(marked.messages[0]).toBe(history[0]);
  });
});
