/**
 * `contextManagement` refused at creation when it is wrong (unknown fields, wrong types, values out
 * of range, a window larger than the model offers), its defaults, `autoCompact.where`, and the
 * default compaction threshold following the model's context window.
 */
import { describe, expect, it } from "vitest";
import { resolveLoopConfig } from "../../src/agent/resolve-options";
import {
  CLAUDE_CONTEXT_WINDOW,
  contextWindowOf,
  createAgent,
  DEFAULT_CLEAR_AT_LEAST_TOKENS,
  DEFAULT_CLEAR_TRIGGER_TOKENS,
  DEFAULT_KEEP_THINKING_TURNS,
  DEFAULT_KEEP_TOOL_USES,
  InvalidOptionError,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing";

const client = createScriptedClient([]);

function refused(contextManagement: unknown, message: RegExp, model = "claude-sonnet-4-6"): void {
  const create = () => createAgent({ model, client, contextManagement: contextManagement as never });
  expect(create).toThrow(InvalidOptionError);
  expect(create).toThrow(message);
}

describe("contextManagement validation", () => {
  it("refuses bad shapes and values with errors naming the option", () => {
    refused("on", /`contextManagement` must be an object/);
    refused({ clearToolUse: true }, /unknown option `clearToolUse` — did you mean `clearToolUses`/);
    refused({ clearToolUses: { trigger: 5 } }, /unknown option `trigger` — did you mean `triggerTokens`/);
    refused(
      { clearToolUses: { triggerTokens: 0 } },
      /`contextManagement.clearToolUses.triggerTokens` must be a positive integer/,
    );
    refused({ clearToolUses: { keepToolUses: -1 } }, /keepToolUses` must be a non-negative integer/);
    refused(
      { clearToolUses: { clearAtLeastTokens: 1.5 } },
      /clearAtLeastTokens` must be a non-negative integer/,
    );
    refused({ clearToolUses: { excludeTools: "bash" } }, /excludeTools` must be an array of tool names/);
    refused({ clearToolUses: { clearInputs: "yes" } }, /clearInputs` must be a boolean/);
    refused({ clearToolUses: 3 }, /clearToolUses` must be a boolean or an object/);
    refused({ clearThinking: { keepTurns: 0 } }, /keepTurns` must be a positive integer/);
    refused({ clearThinking: { keepTurns: "some" } }, /keepTurns` must be a positive integer or "all"/);
    refused(
      { clearToolUses: true, where: "server" },
      /`contextManagement.where` must be "auto", "provider" or "client"/,
    );
    refused({ contextWindow: 2_000_000 }, /more than claude-sonnet-4-6 offers \(1000000\)/);
    refused({ contextWindow: 300_000 }, /more than claude-haiku-4-5 offers \(200000\)/, "claude-haiku-4-5");
    expect(() => createAgent({ model: "m", client, autoCompact: { where: "both" as never } })).toThrow(
      /`autoCompact.where` must be "auto", "provider" or "client"/,
    );
  });

  it("resolves the documented defaults", () => {
    const config = resolveLoopConfig({
      model: "claude-sonnet-4-6",
      contextManagement: { clearToolUses: true, clearThinking: true },
    });
    expect(config.context.management).toEqual({
      where: "auto",
      edits: {
        clearToolUses: {
          triggerTokens: DEFAULT_CLEAR_TRIGGER_TOKENS,
          keepToolUses: DEFAULT_KEEP_TOOL_USES,
          clearAtLeastTokens: DEFAULT_CLEAR_AT_LEAST_TOKENS,
          excludeTools: [],
          clearInputs: false,
        },
        clearThinking: { keepTurns: DEFAULT_KEEP_THINKING_TURNS },
      },
    });
    expect([
      DEFAULT_CLEAR_TRIGGER_TOKENS,
      DEFAULT_KEEP_TOOL_USES,
      DEFAULT_CLEAR_AT_LEAST_TOKENS,
      DEFAULT_KEEP_THINKING_TURNS,
    ]).toEqual([100_000, 3, 20_000, 1]);
    expect(
      resolveLoopConfig({ model: "m", contextManagement: { where: "client" } }).context.management,
    ).toBeUndefined();
    expect(
      resolveLoopConfig({ model: "m", contextManagement: { clearThinking: { keepTurns: "all" } } }).context
        .management?.edits,
    ).toEqual({ clearThinking: { keepTurns: "all" } });
  });
});

describe("context windows and the compaction threshold", () => {
  it("knows the documented models, by prefix; unknown models have none", () => {
    expect(contextWindowOf("claude-sonnet-4-6")).toBe(CLAUDE_CONTEXT_WINDOW);
    expect(contextWindowOf("claude-haiku-4-5-20251001")).toBe(200_000);
    expect(contextWindowOf("deepseek-v4-flash")).toBe(1_000_000);
    expect(contextWindowOf("deepseek-chat")).toBe(128_000);
    expect(contextWindowOf("MiniMax-M3")).toBe(1_000_000);
    expect(contextWindowOf("kimi-k2.5")).toBe(256_000);
    expect(contextWindowOf("glm-4.6")).toBe(200_000);
    expect(contextWindowOf("glm-4.5-air")).toBe(128_000);
    expect(contextWindowOf("MiniMax-M2.7")).toBe(204_800);
    expect(contextWindowOf("my-local-model")).toBeUndefined();
  });

  it("compacts at 75 % of a known window, at 100,000 tokens for an unknown model, as set when set", () => {
    const threshold = (model: string, extra: object = {}) =>
      resolveLoopConfig({ model, autoCompact: true, ...extra }).compaction.history?.thresholdTokens;
    expect(threshold("claude-sonnet-4-6")).toBe(150_000);
    expect(threshold("claude-sonnet-4-6", { contextManagement: { contextWindow: 1_000_000 } })).toBe(750_000);
    expect(threshold("deepseek-v4-pro")).toBe(750_000);
    expect(threshold("my-local-model")).toBe(100_000);
    expect(threshold("my-local-model", { contextManagement: { contextWindow: 32_000 } })).toBe(24_000);
    expect(
      resolveLoopConfig({ model: "claude-sonnet-4-6", autoCompact: { thresholdTokens: 5_000 } }).compaction
        .history?.thresholdTokens,
    ).toBe(5_000);
    expect(resolveLoopConfig({ model: "m", autoCompact: true }).compaction.history?.where).toBe("auto");
    expect(
      resolveLoopConfig({ model: "m", autoCompact: { where: "provider" } }).compaction.history?.where,
    ).toBe("provider");
    expect(() =>
      createAgent({ model: "m", client, autoCompact: { where: "provider", thresholdTokens: 20_000 } }),
    ).toThrow(/needs `autoCompact.thresholdTokens` of at least 50000/);
  });
});
