/**
 * Issue 32: one list of model settings. Every key of MODEL_SETTINGS reaches the request the client
 * receives from createAgent's options, and the wire body under the name the list gives; the option
 * names, the query overrides and the CLI's flags come from the same list. Adding a setting without a
 * sample here fails to compile (`SAMPLES` is typed over every key).
 */
import { describe, expect, it } from "vitest";
import { AGENT_OPTION_NAMES } from "../../src/agent/option-shapes";
import { MODEL_FLAG_SPEC, MODEL_FLAG_USAGE, modelSettingsOf } from "../../src/cli/model-flags";
import { createAgent } from "../../src/index";
import { summaryRequestSettings } from "../../src/loop/model-call/request-settings";
import { toAnthropicRequestBody } from "../../src/model/anthropic-request";
import type { ModelRequest, ModelSettingsField } from "../../src/model/client";
import {
  MODEL_SETTING_KEYS,
  MODEL_SETTINGS,
  QUERY_SETTING_KEYS,
  SUMMARY_SETTING_KEYS,
} from "../../src/model/model-setting-keys";
import { createScriptedClient } from "../../src/testing/index";

interface Sample {
  /** The value given as an agent option. */
  option: unknown;
  /** The value the request carries (the option resolved). */
  request: unknown;
  /** The value the wire body holds at the setting's wire name. */
  wire: unknown;
}

/** One value of every setting; none of them combines badly with the others. */
const SAMPLES: { [K in ModelSettingsField]-?: Sample } = {
  temperature: { option: 0.25, request: 0.25, wire: 0.25 },
  topP: { option: 0.5, request: 0.5, wire: 0.5 },
  topK: { option: 7, request: 7, wire: 7 },
  stopSequences: { option: ["END"], request: ["END"], wire: ["END"] },
  toolChoice: { option: "any", request: "any", wire: { type: "any" } },
  parallelToolCalls: { option: false, request: false, wire: true },
  thinking: { option: { type: "disabled" }, request: { type: "disabled" }, wire: { type: "disabled" } },
  effort: { option: "low", request: "low", wire: "low" },
  metadata: { option: { userId: "u-1" }, request: { userId: "u-1" }, wire: "u-1" },
  serviceTier: { option: "standard_only", request: "standard_only", wire: "standard_only" },
  promptCaching: { option: { ttl: "1h" }, request: { ttl: "1h" }, wire: { type: "ephemeral", ttl: "1h" } },
  extraBody: { option: { x_custom: 3 }, request: { x_custom: 3 }, wire: 3 },
};

/** The value at a setting's wire name: a dotted path, or for the two that are not one, where they land. */
function atWire(body: Record<string, unknown>, key: ModelSettingsField): unknown {
  if (key === "extraBody") return body.x_custom;
  if (key === "promptCaching") {
    const messages = body.messages as Array<{ content: Array<Record<string, unknown>> }>;
    return messages.at(-1)?.content.at(-1)?.cache_control;
  }
  let value: unknown = body;
  for (const part of MODEL_SETTINGS[key].wire.split(".")) value = (value as Record<string, unknown>)?.[part];
  return value;
}

function requestWith(settings: Partial<ModelRequest>): ModelRequest {
  return {
    model: "claude-sonnet-4-6",
    maxTokens: 1024,
    signal: new AbortController().signal,
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    tools: [{ name: "look", input_schema: { type: "object" } }],
    ...settings,
  };
}

function allOptions(): Record<string, unknown> {
  return Object.fromEntries(MODEL_SETTING_KEYS.map((key) => [key, SAMPLES[key].option]));
}

describe("the model-setting list", () => {
  it("has a wire name for every key, and the keys are the list's, once each", () => {
    expect(new Set(MODEL_SETTING_KEYS).size).toBe(MODEL_SETTING_KEYS.length);
    expect(Object.keys(SAMPLES).sort()).toEqual([...MODEL_SETTING_KEYS].sort());
    for (const key of MODEL_SETTING_KEYS) expect(MODEL_SETTINGS[key].wire).not.toBe("");
  });

  it("every key is a createAgent option name", () => {
    for (const key of MODEL_SETTING_KEYS) expect(AGENT_OPTION_NAMES).toContain(key);
  });

  it("every key given to createAgent reaches the request the client receives", async () => {
    const client = createScriptedClient([{ content: "done" }]);
    const agent = createAgent({ model: "claude-sonnet-4-6", client, maxTokens: 1024, ...allOptions() });
    await agent.prompt("hi");
    const [request] = client.requests;
    for (const key of MODEL_SETTING_KEYS) expect([key, request?.[key]]).toEqual([key, SAMPLES[key].request]);
  });

  it("a query overrides exactly the keys the list marks perQuery", async () => {
    const client = createScriptedClient([{ content: "one" }]);
    const agent = createAgent({ model: "claude-sonnet-4-6", client, maxTokens: 1024 });
    const overrides = Object.fromEntries(QUERY_SETTING_KEYS.map((key) => [key, SAMPLES[key].option]));
    await agent.prompt("hi", overrides);
    const [request] = client.requests;
    for (const key of MODEL_SETTING_KEYS) {
      const expected = MODEL_SETTINGS[key].perQuery ? SAMPLES[key].request : undefined;
      if (key === "promptCaching") continue; // on by default, whatever the query says
      expect([key, request?.[key]]).toEqual([key, expected]);
    }
    expect(QUERY_SETTING_KEYS).toEqual([
      "temperature",
      "topP",
      "topK",
      "stopSequences",
      "toolChoice",
      "thinking",
      "effort",
    ]);
  });

  it.each(MODEL_SETTING_KEYS)("`%s` is on the wire under its name, and absent when unset", (key) => {
    const sample = SAMPLES[key];
    const extra = key === "parallelToolCalls" ? { toolChoice: "any" as const } : {};
    const set = toAnthropicRequestBody(requestWith({ ...extra, [key]: sample.request }));
    const unset = toAnthropicRequestBody(requestWith(extra));
    expect(atWire(set as Record<string, unknown>, key)).toEqual(sample.wire);
    expect(atWire(unset as Record<string, unknown>, key)).toBeUndefined();
  });

  it("a summary request keeps the keys marked keep, thinking when it fits, and nothing else", () => {
    const settings = Object.fromEntries(MODEL_SETTING_KEYS.map((key) => [key, SAMPLES[key].request]));
    const summary = summaryRequestSettings(settings, 4096);
    const kept = MODEL_SETTING_KEYS.filter((key) => MODEL_SETTINGS[key].summary !== "drop");
    expect(Object.keys(summary).sort()).toEqual([...kept].sort());
    expect(SUMMARY_SETTING_KEYS).not.toContain("thinking");
    const big = summaryRequestSettings({ thinking: { type: "enabled", budgetTokens: 4096 } }, 4096);
    expect(big.thinking).toBeUndefined();
  });

  it("every setting with a flag has that flag in the command's spec and usage, and the flag sets it", () => {
    const flagged = MODEL_SETTING_KEYS.filter((key) => "flag" in MODEL_SETTINGS[key]);
    expect(flagged).toEqual(["temperature", "thinking", "effort", "promptCaching"]);
    const argv: Record<string, Record<string, string | boolean>> = {
      temperature: { temperature: "0.3" },
      thinking: { thinking: "adaptive" },
      effort: { effort: "high" },
      promptCaching: { "no-cache": true },
    };
    for (const key of flagged) {
      const flag = (MODEL_SETTINGS[key] as { flag: string }).flag;
      expect(Object.keys(MODEL_FLAG_SPEC)).toContain(flag.slice(2));
      expect(MODEL_FLAG_USAGE).toContain(flag);
      expect(modelSettingsOf(argv[key] ?? {})[key as keyof ReturnType<typeof modelSettingsOf>]).toBeDefined();
    }
  });
});
