import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../src/errors";
import {
  isThinkingOn,
  type ModelSettingsContext,
  type ModelSettingsInput,
  resolvePromptCaching,
  validateModelSettings,
} from "../../src/model/model-settings";

/** The message of the InvalidOptionError the settings raise (fails when they pass). */
function refusal(settings: unknown, context: ModelSettingsContext = {}, where = "createAgent"): string {
  try {
    validateModelSettings(settings as ModelSettingsInput, where, context);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(settings)} to be refused`);
}

function accepts(settings: unknown, context: ModelSettingsContext = {}): void {
  expect(() => validateModelSettings(settings as ModelSettingsInput, "createAgent", context)).not.toThrow();
}

describe("validateModelSettings — values", () => {
  it("accepts every setting at its documented bounds", () => {
    accepts({});
    accepts({ temperature: 0, topP: 1, topK: 1 });
    accepts({ temperature: 1, topP: 0.000_1, topK: 500 });
    accepts({
      stopSequences: ["END", "\n\nHuman:"],
      toolChoice: { type: "tool", name: "read" },
      parallelToolCalls: false,
      thinking: { type: "disabled" },
      effort: "xhigh",
      metadata: { userId: "user-42" },
      serviceTier: "standard_only",
      promptCaching: { ttl: "1h" },
      extraBody: { speed: "fast", inference_geo: "us" },
    });
    accepts({ promptCaching: false, metadata: {}, stopSequences: [] });
  });

  it.each([
    [{ temperature: 1.01 }, "`temperature` must be a number from 0 to 1 (got 1.01)"],
    [{ temperature: -0.1 }, "`temperature` must be a number from 0 to 1"],
    [{ temperature: Number.NaN }, "`temperature` must be a number from 0 to 1 (got NaN)"],
    [{ temperature: "0.5" }, '`temperature` must be a number from 0 to 1 (got "0.5")'],
    [{ topP: 0 }, "`topP` must be a number above 0 and at most 1 (got 0)"],
    [{ topP: 1.5 }, "`topP` must be a number above 0 and at most 1"],
    [{ topK: 0 }, "`topK` must be a positive integer (got 0)"],
    [{ topK: 2.5 }, "`topK` must be a positive integer (got 2.5)"],
    [{ topK: Number.POSITIVE_INFINITY }, "`topK`"],
  ])("refuses the out-of-range number %j", (settings, message) => {
    expect(refusal(settings)).toContain(message);
  });

  it("names the caller first", () => {
    expect(refusal({ temperature: 2 }, {}, "query")).toMatch(/^query: `temperature`/);
  });

  it.each([
    [{ stopSequences: "END" }, '`stopSequences` must be an array of strings (got "END")'],
    [{ stopSequences: ["END", 7] }, "`stopSequences[1]` must be a string (got 7)"],
    [{ stopSequences: [""] }, "`stopSequences[0]` must contain a character other than whitespace"],
    [
      { stopSequences: ["ok", " \n\t"] },
      '`stopSequences[1]` must contain a character other than whitespace (got " \\n\\t")',
    ],
  ])("refuses the stop sequences %j", (settings, message) => {
    expect(refusal(settings)).toContain(message);
  });

  it.each([
    [
      { toolChoice: "required" },
      '`toolChoice` must be "auto", "any", "none" or { type: "tool", name } (got "required")',
    ],
    [{ toolChoice: { type: "function", name: "x" } }, "`toolChoice` must be"],
    [{ toolChoice: { type: "tool" } }, "`toolChoice.name` must name a tool (got undefined)"],
    [{ toolChoice: { type: "tool", name: "" } }, "`toolChoice.name` must name a tool"],
    [{ parallelToolCalls: "no" }, '`parallelToolCalls` must be a boolean (got "no")'],
    [
      { effort: "extreme" },
      '`effort` must be one of "low", "medium", "high", "xhigh", "max" (got "extreme")',
    ],
    [{ serviceTier: "priority" }, '`serviceTier` must be one of "auto", "standard_only"'],
    [{ metadata: "user-1" }, "`metadata` must be an object such as { userId }"],
    [{ metadata: { userId: 42 } }, "`metadata.userId` must be a string (got 42)"],
    [{ promptCaching: "on" }, '`promptCaching` must be true, false or { ttl: "5m" | "1h" } (got "on")'],
    [{ promptCaching: { ttl: "2h" } }, "`promptCaching` must be true, false or"],
    [{ extraBody: [1, 2] }, "`extraBody` must be a plain object of body fields (got an array)"],
  ])("refuses the malformed %j", (settings, message) => {
    expect(refusal(settings)).toContain(message);
  });

  it("refuses a forced tool the agent does not have, listing the ones it has", () => {
    const context = { toolNames: ["read", "grep"] };
    expect(refusal({ toolChoice: { type: "tool", name: "write" } }, context)).toContain(
      '`toolChoice` forces the tool "write", which the agent does not have (its tools: "read", "grep")',
    );
    expect(refusal({ toolChoice: { type: "tool", name: "write" } }, { toolNames: [] })).toContain(
      "(its tools: none)",
    );
    accepts({ toolChoice: { type: "tool", name: "grep" } }, context);
    // Without a list of names, any name passes (a custom client may know more tools).
    accepts({ toolChoice: { type: "tool", name: "write" } });
  });

  it("refuses thinking budgets below 1,024, fractional ones and ones not below maxTokens", () => {
    expect(refusal({ thinking: { type: "enabled", budgetTokens: 1023 } })).toContain(
      "`thinking.budgetTokens` must be an integer of at least 1024 (got 1023)",
    );
    expect(refusal({ thinking: { type: "enabled", budgetTokens: 2048.5 } })).toContain("(got 2048.5)");
    expect(refusal({ thinking: { type: "enabled" } })).toContain("(got undefined)");
    expect(refusal({ thinking: { type: "enabled", budgetTokens: 4096 } }, { maxTokens: 4096 })).toContain(
      "`thinking.budgetTokens` (4096) must be below `maxTokens` (4096)",
    );
    accepts({ thinking: { type: "enabled", budgetTokens: 1024 } }, { maxTokens: 1025 });
    expect(refusal({ thinking: { type: "on" } })).toContain(
      '`thinking` must be { type: "enabled", budgetTokens }, { type: "adaptive" } or { type: "disabled" } (got {"type":"on"})',
    );
    expect(refusal({ thinking: true })).toContain("(got true)");
  });

  it("refuses extraBody fields the SDK sets itself, naming each", () => {
    const message = refusal({ extraBody: { model: "other", stream: false, top_a: 1 } });
    expect(message).toContain("`extraBody` cannot set `model`, `stream`");
    expect(message).not.toContain("`top_a`");
    for (const field of ["messages", "max_tokens", "tools", "system"]) {
      expect(refusal({ extraBody: { [field]: null } })).toContain(`\`extraBody\` cannot set \`${field}\``);
    }
  });
});

describe("validateModelSettings — combinations the Messages API refuses", () => {
  const enabled = { type: "enabled", budgetTokens: 2048 } as const;

  it.each([
    [enabled, "any"],
    [enabled, { type: "tool", name: "read" }],
    [{ type: "adaptive" }, "any"],
  ])("refuses thinking %j with the forced tool choice %j", (thinking, toolChoice) => {
    expect(refusal({ thinking, toolChoice })).toContain("`toolChoice` cannot force tool use");
  });

  it("lets thinking combine with auto and none, and forced tools without thinking", () => {
    accepts({ thinking: enabled, toolChoice: "auto" });
    accepts({ thinking: { type: "adaptive" }, toolChoice: "none" });
    accepts({ thinking: { type: "disabled" }, toolChoice: "any", temperature: 0.2, topK: 5 });
  });

  it("refuses thinking with a changed temperature, with topK, and with topP below 0.95", () => {
    expect(refusal({ thinking: enabled, temperature: 0.7 })).toContain(
      "`temperature` must be 1 (or unset) while `thinking` is on (enabled)",
    );
    expect(refusal({ thinking: { type: "adaptive" }, topK: 40 })).toContain(
      "`topK` cannot be set while `thinking` is on (adaptive)",
    );
    expect(refusal({ thinking: enabled, topP: 0.9 })).toContain("`topP` must be from 0.95 to 1");
    accepts({ thinking: enabled, temperature: 1, topP: 0.95 });
  });

  it('refuses toolChoice "none", or another forced tool, when structured output needs its tool', () => {
    const context = { outputTool: "submit_output", toolNames: ["read"] };
    expect(refusal({ toolChoice: "none" }, context)).toContain(
      '`toolChoice: "none"` cannot be combined with `outputSchema`',
    );
    expect(refusal({ toolChoice: { type: "tool", name: "read" } }, context)).toContain(
      "could never call submit_output",
    );
    accepts({ toolChoice: { type: "tool", name: "submit_output" } }, context);
    accepts({ toolChoice: "any" }, context);
    accepts({ toolChoice: "none" }, { toolNames: ["read"] });
  });
});

describe("resolvePromptCaching and isThinkingOn", () => {
  it("turns caching on by default, off for false, with the TTL asked for", () => {
    expect(resolvePromptCaching(undefined)).toEqual({ ttl: "5m" });
    expect(resolvePromptCaching(true)).toEqual({ ttl: "5m" });
    expect(resolvePromptCaching({})).toEqual({ ttl: "5m" });
    expect(resolvePromptCaching({ ttl: "1h" })).toEqual({ ttl: "1h" });
    expect(resolvePromptCaching(false)).toBeUndefined();
  });

  it("counts enabled and adaptive thinking as on", () => {
    expect(isThinkingOn({ type: "enabled", budgetTokens: 1024 })).toBe(true);
    expect(isThinkingOn({ type: "adaptive" })).toBe(true);
    expect(isThinkingOn({ type: "disabled" })).toBe(false);
    expect(isThinkingOn(undefined)).toBe(false);
  });
});
