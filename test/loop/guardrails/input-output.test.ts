/**
 * Input and output guardrails in the loop: a blocking check runs before the model is called, a
 * refusal answers or trips, redactions rewrite what is recorded and sent; the verdicts are durable
 * (history meta, `guardrail` notices, the result's `guardrail`) and a withdrawn turn is never sent
 * again — not by the next prompt, not by another Agent over the same store.
 */
import { describe, expect, it } from "vitest";
import {
  createAgent,
  defineGuardrail,
  GuardrailTripwireError,
  type GuardrailVerdict,
  isWellFormedHistory,
  piiGuardrail,
  type SDKMessage,
} from "../../../src/index";
import { createScriptedClient } from "../../../src/testing/index";
import { collect, createMemoryStore, MODEL } from "../support";

const offTopic = (verdict: GuardrailVerdict["verdict"] = "tripwire") =>
  defineGuardrail({
    name: "topic",
    stage: "input",
    check: ({ text }) => {
      if (!text.includes("weather")) return { verdict: "allow" };
      if (verdict === "reject") return { verdict: "reject", message: "I only help with billing." };
      return { verdict: "tripwire", message: "off topic", info: { topic: "weather" } };
    },
  });

function sentTexts(requests: { messages: { content: unknown }[] }[]): string[] {
  return requests.map((request) => JSON.stringify(request.messages));
}

describe("input guardrails (blocking)", () => {
  it("a tripwire ends the query before any request; the prompt is recorded withdrawn with the verdict", async () => {
    const client = createScriptedClient([{ content: "billing answer" }]);
    const store = createMemoryStore();
    const agent = createAgent({ model: MODEL, client, historyStore: store, guardrails: [offTopic()] });
    const messages = await collect(agent.query("what is the weather?"));
    const result = messages.at(-1) as Extract<SDKMessage, { type: "result" }>;
    expect(result.subtype).toBe("guardrail_tripwire");
    expect(result.is_error).toBe(true);
    expect(result.error).toBeInstanceOf(GuardrailTripwireError);
    expect(result.guardrail).toEqual({
      name: "topic",
      stage: "input",
      message: "off topic",
      info: { topic: "weather" },
    });
    expect(result.result).toBe("off topic");
    expect(client.requests).toHaveLength(0);
    expect(messages.some((m) => m.type === "assistant")).toBe(false);
    const notice = messages.find((m) => m.type === "system" && m.subtype === "guardrail");
    expect(notice).toMatchObject({ guardrail: { name: "topic", verdict: "tripwire", stage: "input" } });
    expect(store.saved).toHaveLength(1);
    expect(store.saved[0]!.meta).toMatchObject({
      withdrawn: "guardrail",
      guardrail: { name: "topic", stage: "input", verdict: "tripwire" },
    });

    // The next prompt is sent without the withdrawn one — also by another Agent over the store.
    const other = createAgent({ model: MODEL, client, historyStore: store, guardrails: [offTopic()] });
    expect((await other.prompt("my invoice?")).subtype).toBe("success");
    expect(client.requests).toHaveLength(1);
    expect(sentTexts(client.requests)[0]).not.toContain("weather");
    expect(client.requests[0]!.messages).toHaveLength(1);
    expect(isWellFormedHistory(client.requests[0]!.messages)).toBe(true);
  });

  it("a fork and a rewind keep the withdrawn turn withdrawn: the next request never sends it", async () => {
    const client = createScriptedClient([{ content: "one" }, { content: "two" }, { content: "three" }]);
    const agent = createAgent({ model: MODEL, client, guardrails: [offTopic()] });
    await agent.prompt("weather today?");
    const second = await agent.prompt("invoice 1");
    const third = await agent.prompt("invoice 2");
    const fork = await agent.fork({ at: third.checkpoint_id! });
    await fork.prompt("invoice 3");
    expect(sentTexts(client.requests)[2]).not.toContain("weather");
    expect(client.requests[2]!.messages).toHaveLength(3); // invoice 1, its answer, invoice 3
    await agent.rewind({ to: second.checkpoint_id! });
    expect(await agent.getHistory()).toHaveLength(1);
    expect((await agent.getHistory())[0]!.meta?.withdrawn).toBe("guardrail");
  });

  it("an agent without guardrails over the same history never sends the withdrawn turn either", async () => {
    const store = createMemoryStore();
    const guarded = createAgent({
      model: MODEL,
      client: createScriptedClient([]),
      historyStore: store,
      guardrails: [offTopic()],
    });
    await guarded.prompt("weather please");
    const client = createScriptedClient([{ content: "ok" }]);
    const plain = createAgent({ model: MODEL, client, historyStore: store });
    await plain.prompt("hello");
    expect(sentTexts(client.requests)[0]).not.toContain("weather");
  });

  it("a reject answers with its message without calling the model, and the exchange is withdrawn", async () => {
    const client = createScriptedClient([{ content: "sure" }]);
    const agent = createAgent({ model: MODEL, client, guardrails: [offTopic("reject")] });
    const messages = await collect(agent.query("weather?"));
    const result = messages.at(-1) as Extract<SDKMessage, { type: "result" }>;
    expect(result.subtype).toBe("success");
    expect(result.result).toBe("I only help with billing.");
    expect(messages.filter((m) => m.type === "assistant")).toHaveLength(1);
    expect(client.requests).toHaveLength(0);
    const history = await agent.getHistory();
    expect(history.map((m) => m.meta?.withdrawn)).toEqual(["guardrail", "guardrail"]);
    await agent.prompt("invoice");
    expect(client.requests[0]!.messages).toHaveLength(1);
  });

  it("a check that throws or times out trips (fail closed); onError allow goes on with a guardrail_error notice", async () => {
    const throwing = defineGuardrail({
      name: "boom",
      stage: "input",
      check: () => {
        throw new Error("db down");
      },
    });
    const client = createScriptedClient([{ content: "fine" }, { content: "fine" }]);
    const closed = await createAgent({ model: MODEL, client, guardrails: [throwing] }).prompt("hi");
    expect(closed.subtype).toBe("guardrail_tripwire");
    expect(closed.guardrail?.message).toContain("db down");
    const slow = defineGuardrail({
      name: "slow",
      stage: "input",
      timeoutMs: 20,
      check: () => new Promise<never>(() => {}),
    });
    const timedOut = await createAgent({ model: MODEL, client, guardrails: [slow] }).prompt("hi");
    expect(timedOut.subtype).toBe("guardrail_tripwire");
    expect(timedOut.guardrail?.message).toContain("timed out after 20 ms");
    const open = defineGuardrail({
      name: "open",
      stage: "input",
      onError: "allow",
      check: () => {
        throw new Error("flaky");
      },
    });
    const messages = await collect(createAgent({ model: MODEL, client, guardrails: [open] }).query("hi"));
    expect(messages.at(-1)).toMatchObject({ type: "result", subtype: "success" });
    expect(messages.find((m) => m.type === "system" && m.subtype === "guardrail_error")).toMatchObject({
      guardrail: "open",
      stage: "input",
    });
    const bad = defineGuardrail({
      name: "bad",
      stage: "input",
      check: () => ({ verdict: "maybe" }) as never,
    });
    expect((await createAgent({ model: MODEL, client, guardrails: [bad] }).prompt("hi")).subtype).toBe(
      "guardrail_tripwire",
    );
  });

  it("piiGuardrail in redact mode rewrites the prompt before it is recorded and sent", async () => {
    const client = createScriptedClient([{ content: "noted" }]);
    const agent = createAgent({
      model: MODEL,
      client,
      guardrails: [piiGuardrail({ action: "redact", stage: "input" })],
    });
    const result = await agent.prompt("mail me at jane.doe@example.com, card 4111 1111 1111 1111");
    expect(result.subtype).toBe("success");
    const sent = sentTexts(client.requests)[0]!;
    expect(sent).not.toContain("jane.doe@example.com");
    expect(sent).not.toContain("4111");
    expect(sent).toContain("[redacted email]");
    const history = await agent.getHistory();
    expect(JSON.stringify(history)).not.toContain("jane.doe");
    expect(history[0]!.meta?.guardrail).toMatchObject({
      name: "pii",
      verdict: "redact",
      info: { found: { card: 1, email: 1 } },
    });
  });
});

describe("output guardrails", () => {
  it("a tripped answer is recorded withdrawn, never handed over nor streamed, and the query ends guardrail_tripwire", async () => {
    const client = createScriptedClient([{ content: "Call me on +44 20 7946 0958" }, { content: "ok" }]);
    const store = createMemoryStore();
    const agent = createAgent({
      model: MODEL,
      client,
      historyStore: store,
      includePartialMessages: true,
      guardrails: [piiGuardrail({ stage: "output" })],
    });
    const messages = await collect(agent.query("your number?"));
    const result = messages.at(-1) as Extract<SDKMessage, { type: "result" }>;
    expect(result.subtype).toBe("guardrail_tripwire");
    expect(result.guardrail).toMatchObject({ name: "pii", stage: "output", info: { found: { phone: 1 } } });
    expect(JSON.stringify(messages.slice(0, -1))).not.toContain("7946");
    expect(result.result).not.toContain("7946");
    expect(store.saved.map((m) => m.meta?.withdrawn)).toEqual(["guardrail", "guardrail"]);
    expect(store.saved[1]!.meta?.guardrail).toMatchObject({ stage: "output", verdict: "tripwire" });
    await agent.prompt("thanks");
    expect(sentTexts(client.requests)[1]).not.toContain("7946");
    expect(client.requests[1]!.messages).toHaveLength(1);
  });

  it("a redacting output guardrail rewrites the answer; streamed text is held back and the answer comes whole", async () => {
    const client = createScriptedClient([{ content: "Write to bob@example.org today" }]);
    const agent = createAgent({
      model: MODEL,
      client,
      includePartialMessages: true,
      guardrails: [piiGuardrail({ stage: "output", action: "redact" })],
    });
    const messages = await collect(agent.query("contact?"));
    expect(JSON.stringify(messages)).not.toContain("bob@example.org");
    expect(messages.at(-1)).toMatchObject({ subtype: "success", result: "Write to [redacted email] today" });
  });

  it("allowed answers stream as usual: the held stream events come before the assistant message", async () => {
    const client = createScriptedClient([{ content: "all clear" }]);
    const agent = createAgent({
      model: MODEL,
      client,
      includePartialMessages: true,
      guardrails: [piiGuardrail()],
    });
    const messages = await collect(agent.query("hi"));
    const kinds = messages.map((m) => m.type);
    expect(kinds.indexOf("stream_event")).toBeGreaterThan(0);
    expect(kinds.lastIndexOf("stream_event")).toBeLessThan(kinds.indexOf("assistant"));
  });

  it("a reject replaces the answer with its message (kept in the conversation)", async () => {
    const client = createScriptedClient([{ content: "forbidden words" }]);
    const guard = defineGuardrail({
      name: "words",
      stage: "output",
      check: ({ text }) =>
        text.includes("forbidden")
          ? { verdict: "reject", message: "I can't say that." }
          : { verdict: "allow" },
    });
    const agent = createAgent({ model: MODEL, client, guardrails: [guard] });
    const result = await agent.prompt("say it");
    expect(result).toMatchObject({ subtype: "success", result: "I can't say that." });
    const history = await agent.getHistory();
    expect(history[1]).toMatchObject({
      content: [{ type: "text", text: "I can't say that." }],
      meta: { guardrail: { verdict: "reject" } },
    });
    expect(history[1]!.meta?.withdrawn).toBeUndefined();
  });
});
