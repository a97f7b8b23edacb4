import { describe, expect, it } from "vitest";
import { parseCommandLine, USAGE } from "../../src/cli/args";
import { compactionRequestSettings } from "../../src/cli/compact-command";
import { createRedactor } from "../../src/cli/redact";
import { TerminalRenderer } from "../../src/cli/render";
import { createStyle } from "../../src/cli/terminal";
import { UsageError } from "../../src/cli/usage-error";

const settingsOf = (...argv: string[]) => {
  const command = parseCommandLine([...argv, "hi"], {});
  if (command.kind !== "run") throw new Error("not a run");
  return command.options;
};

describe("model-setting flags", () => {
  it("parse into the agent's options", () => {
    expect(settingsOf("--temperature", "0.2", "--effort", "HIGH", "--no-cache").modelSettings).toEqual({
      temperature: 0.2,
      effort: "high",
      promptCaching: false,
    });
    expect(settingsOf("--thinking", "4096").modelSettings).toEqual({
      thinking: { type: "enabled", budgetTokens: 4096 },
    });
    expect(settingsOf("--thinking", "adaptive").modelSettings.thinking).toEqual({ type: "adaptive" });
    expect(settingsOf("--thinking", "16000", "--max-tokens", "32000").modelSettings.maxTokens).toBe(32000);
    expect(settingsOf().modelSettings).toEqual({});
    expect(settingsOf().thinkingDisplay).toBe(true);
    expect(settingsOf("--no-thinking-display").thinkingDisplay).toBe(false);
  });

  it.each([
    [["--temperature", "1.5"], /--temperature must be a number from 0 to 1/],
    [["--temperature", "warm"], /--temperature must be a number/],
    [["--thinking", "lots"], /--thinking takes a budget of tokens/],
    [["--thinking", "512"], /at least 1024/],
    [["--thinking", "8192"], /must be below the response's max tokens \(8192, the default\).*--max-tokens/],
    [["--thinking", "2048", "--temperature", "0.5"], /--temperature cannot be combined with --thinking/],
    [["--effort", "extreme"], /--effort must be one of low, medium, high, xhigh, max/],
    [["--max-tokens", "0"], /--max-tokens must be a positive integer/],
  ])("refuses %j with a usage error naming the flag", (argv, message) => {
    expect(() => settingsOf(...argv)).toThrow(UsageError);
    expect(() => settingsOf(...argv)).toThrow(message);
  });

  it("are in --help", () => {
    for (const flag of [
      "--temperature",
      "--thinking",
      "--effort",
      "--max-tokens",
      "--no-cache",
      "--no-thinking-display",
    ])
      expect(USAGE).toContain(flag);
  });

  it("/compact's summary settings keep sampling and fitting thinking as automatic compaction does, never caching", () => {
    expect(compactionRequestSettings({ temperature: 0.3, effort: "low" }, 4096)).toEqual({
      temperature: 0.3,
      effort: "low",
    });
    expect(
      compactionRequestSettings(
        { promptCaching: false, thinking: { type: "enabled", budgetTokens: 2048 } },
        4096,
      ),
    ).toEqual({
      thinking: { type: "enabled", budgetTokens: 2048 },
    });
    expect(
      compactionRequestSettings({ thinking: { type: "enabled", budgetTokens: 6000 }, maxTokens: 9000 }, 4096),
    ).toEqual({});
  });
});

describe("thinking on the terminal", () => {
  const render = (thinking: boolean, colour: boolean) => {
    const answer = { text: "", write: (chunk: string) => void (answer.text += chunk) };
    const status = { text: "", write: (chunk: string) => void (status.text += chunk) };
    const renderer = new TerminalRenderer({
      answer,
      status,
      style: createStyle(colour),
      spinner: { start() {}, stop() {} },
      redact: createRedactor(["sk-secret-value-123"]),
      thinking,
    });
    const event = (event: Record<string, unknown>) =>
      renderer.handle({ type: "stream_event", event } as never);
    event({ type: "message_start" });
    event({ type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } });
    event({
      type: "content_block_delta",
      index: 0,
      delta: { type: "thinking_delta", thinking: "Let me check sk-sec" },
    });
    event({
      type: "content_block_delta",
      index: 0,
      delta: { type: "thinking_delta", thinking: "ret-value-123 first." },
    });
    event({ type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "c2ln" } });
    event({ type: "content_block_stop", index: 0 });
    event({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } });
    event({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Done." } });
    renderer.end();
    return answer.text;
  };

  it("is shown dimmed, redacted, before the answer", () => {
    expect(render(true, true)).toBe(
      "\u001b[2mLet me check \u001b[22m\u001b[2m[redacted] first.\u001b[22m\n\nDone.\n",
    );
  });

  it("is not shown when the renderer is told not to (--no-thinking-display, not a terminal)", () => {
    expect(render(false, true)).toBe("Done.\n");
  });
});
