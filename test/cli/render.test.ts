import { describe, expect, it } from "vitest";
import { createRedactor } from "../../src/cli/redact";
import { statisticsOf, TerminalRenderer } from "../../src/cli/render";
import type { Spinner } from "../../src/cli/spinner";
import { createStyle, stripAnsi } from "../../src/cli/terminal";
import type { SDKMessage, SDKResultMessage } from "../../src/index";

function recorder() {
  const output = { text: "", write: (chunk: string) => void (output.text += chunk) };
  return output;
}

function setup(colour = false) {
  const answer = recorder();
  const status = recorder();
  const spinnerLog: string[] = [];
  const spinner: Spinner = {
    start: (label) => void spinnerLog.push(`start ${label}`),
    stop: () => void spinnerLog.push("stop"),
  };
  const renderer = new TerminalRenderer({
    answer,
    status,
    style: createStyle(colour),
    spinner,
    redact: createRedactor(["sk-secret-value-123"]),
  });
  return { renderer, answer, status, spinnerLog };
}

const delta = (text: string): SDKMessage => ({
  type: "stream_event",
  event: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } },
});

function result(overrides: Partial<SDKResultMessage> = {}): SDKResultMessage {
  return {
    type: "result",
    subtype: "success",
    is_error: false,
    result: "",
    usage: { input_tokens: 12_345, output_tokens: 678, cache_read_input_tokens: 1000 },
    stop_reason: "end_turn",
    num_turns: 3,
    total_cost_usd: 0.01234,
    model_usage: {},
    duration_ms: 2345,
    permission_denials: [],
    ...overrides,
  };
}

describe("TerminalRenderer", () => {
  it("writes streamed text as it arrives and does not repeat it when the whole message comes", () => {
    const { renderer, answer, spinnerLog } = setup();
    renderer.begin();
    renderer.handle({ type: "stream_event", event: { type: "message_start", message: {} } });
    renderer.handle(delta("Hel"));
    expect(answer.text).toBe("Hel");
    renderer.handle(delta("lo."));
    renderer.handle({
      type: "assistant",
      message: { role: "assistant", content: [{ type: "text", text: "Hello." }] },
    });
    expect(answer.text).toBe("Hello.");
    expect(spinnerLog[0]).toBe("start waiting for the model…");
    expect(spinnerLog[1]).toBe("stop");
  });

  it("redacts the key even when it arrives split across text deltas, holding back only a possible beginning", () => {
    const { renderer, answer } = setup();
    renderer.begin();
    renderer.handle({ type: "stream_event", event: { type: "message_start", message: {} } });
    renderer.handle(delta("The key is sk-sec"));
    expect(answer.text).toBe("The key is ");
    renderer.handle(delta("ret-val"));
    renderer.handle(delta("ue-123 and the token is Bearer abc"));
    expect(answer.text).toBe("The key is [redacted] and the token is ");
    renderer.handle(delta("defgh12345, done"));
    renderer.handle({
      type: "assistant",
      message: {
        role: "assistant",
        content: [
          {
            type: "text",
            text: "The key is sk-secret-value-123 and the token is Bearer abcdefgh12345, done",
          },
        ],
      },
    });
    expect(answer.text).toBe("The key is [redacted] and the token is Bearer [redacted], done");
    renderer.end();
    expect(answer.text).not.toMatch(/sk-sec|abcdefgh/);
  });

  it("writes the text of a response that was not streamed", () => {
    const { renderer, answer } = setup();
    renderer.handle({
      type: "assistant",
      message: { role: "assistant", content: [{ type: "text", text: "Whole." }] },
    });
    renderer.end();
    expect(answer.text).toBe("Whole.\n");
  });

  it("ends the open answer line before a tool line, and shows each call with its outcome on one line", () => {
    const { renderer, answer, status, spinnerLog } = setup();
    renderer.handle(delta("Looking."));
    renderer.handle({
      type: "assistant",
      message: {
        role: "assistant",
        content: [
          { type: "text", text: "Looking." },
          { type: "tool_use", id: "a", name: "read_file", input: { path: "src/x.ts" } },
          { type: "tool_use", id: "b", name: "bash", input: { command: "npm test\n--silent" } },
          { type: "tool_use", id: "c", name: "lookup", input: { id: 7 } },
        ],
      },
    });
    expect(answer.text).toBe("Looking.\n");
    expect(spinnerLog.at(-1)).toBe("start running read_file, bash, lookup…");
    renderer.handle({
      type: "user",
      message: {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "a", content: "1\tone\n2\ttwo\n3\tthree" },
          { type: "tool_result", tool_use_id: "b", content: "Exit code 1\nlots of output", is_error: true },
          { type: "tool_result", tool_use_id: "c", content: [{ type: "text", text: "found it" }] },
        ],
      },
    });
    expect(status.text).toBe(
      [
        "  ✓ read_file(src/x.ts) → 3 lines",
        "  ✗ bash(npm test ⏎ --silent) → Exit code 1",
        '  ✓ lookup({"id":7}) → found it',
        "",
      ].join("\n"),
    );
    expect(spinnerLog.at(-1)).toBe("start waiting for the model…");
  });

  it("closes with turns, tokens (cache reads included), cost and time; errors name their subtype and reason", () => {
    expect(statisticsOf(result())).toBe(
      "· 3 turns · 13,345 in (1,000 cached) / 678 out tokens · $0.0123 · 2.3s",
    );
    const { renderer, status } = setup();
    renderer.handle(result({ num_turns: 1, usage: { input_tokens: 5, output_tokens: 2 } }));
    renderer.handle(
      result({
        subtype: "error_during_execution",
        is_error: true,
        error: new Error("401 invalid key sk-secret-value-123"),
      }),
    );
    renderer.handle(result({ subtype: "interrupted" }));
    const lines = status.text.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^✓ done · 1 turn · 5 in \/ 2 out tokens · /);
    expect(lines[1]).toMatch(/^✗ error_during_execution: 401 invalid key \[redacted\] · 3 turns/);
    expect(lines[2]).toMatch(/^⏸ interrupted · 3 turns/);
  });

  it("shows retries and fallbacks as notices", () => {
    const { renderer, status } = setup();
    renderer.handle({
      type: "system",
      subtype: "api_retry",
      attempt: 1,
      max_retries: 2,
      delay_ms: 1500,
      status: 529,
      error_type: "overloaded_error",
      error: new Error("overloaded"),
      model: "m",
    });
    renderer.handle({
      type: "system",
      subtype: "model_fallback",
      from: "a",
      to: "b",
      error: new Error("down"),
    });
    renderer.handle({ type: "system", subtype: "init", model: "m", tools: [] });
    expect(status.text).toBe(
      "↻ 529 overloaded_error: retry 1/2 in 1.5s\n↪ a failed (down); falling back to b\n",
    );
  });

  it("colours status lines only when colour is on", () => {
    const plain = setup(false);
    plain.renderer.handle(result());
    expect(plain.status.text).not.toContain("\u001b");
    const coloured = setup(true);
    coloured.renderer.handle(result());
    expect(coloured.status.text).toContain("\u001b[32m✓ done\u001b[39m");
    expect(stripAnsi(coloured.status.text)).toBe(plain.status.text);
  });

  it("never passes escape sequences or other control characters from the model or a tool to the terminal", () => {
    // OSC 52 writes the clipboard; others retitle the window, hide text, move the cursor.
    const osc52 = "\u001b]52;c;cm0gLXJmIH4=\u0007";
    const { renderer, answer, status } = setup(false);
    renderer.begin();
    renderer.handle(delta(`Done.${osc52}\u001b[2J\r`));
    renderer.handle({
      type: "assistant",
      message: {
        role: "assistant",
        content: [
          { type: "text", text: "ignored: already streamed" },
          { type: "tool_use", id: "t1", name: "read_file", input: { path: "evil\u001b[8m.txt" } },
        ],
      },
    });
    renderer.handle({
      type: "user",
      message: {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "t1", content: `     1\t${osc52}hidden`, is_error: true },
        ],
      },
    });
    renderer.handle({
      type: "system",
      subtype: "hook_error",
      hook: "stop",
      error: new Error("bad \u009b31m thing"),
    });
    renderer.handle(
      result({ subtype: "error_during_execution", is_error: true, error: new Error("x\u001b[0m") }),
    );
    for (const text of [answer.text, status.text]) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters is the point
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
    expect(answer.text).toBe("Done.␛]52;c;cm0gLXJmIH4=␇␛[2J␍\n");
    expect(status.text).toContain("read_file(evil␛[8m.txt)");
    expect(status.text).toContain("1\t␛]52;c;cm0gLXJmIH4=␇hidden");
  });
});
