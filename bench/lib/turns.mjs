// The conversation every contender runs: the model asks for the `echo` tool `toolTurns` times
// (call k asks for { n: k }), then answers "done". The tool returns `n`, padded to `resultBytes`.

/** The name, description and JSON Schema of the benchmark tool, shared by every contender. */
export const ECHO_TOOL = {
  name: "echo",
  description: "Echoes the number it is given.",
  inputSchema: {
    type: "object",
    properties: { n: { type: "number" } },
    required: ["n"],
    additionalProperties: false,
  },
};

/** The model name sent by every contender (the mock server and scripted models ignore it). */
export const MODEL = "claude-sonnet-4-6";

/**
 * The prompt that opens a conversation of `toolTurns` tool turns over HTTP: the mock server reads
 * the count from it (see conversationLength), so one server serves conversations of any length.
 */
export function conversationPrompt(toolTurns) {
  return `Call echo ${toolTurns} times.`;
}

/** The tool-turn count a request's first message asks for, or undefined. */
export function conversationLength(messages) {
  const first = messages?.[0]?.content;
  const text = typeof first === "string" ? first : Array.isArray(first) ? first.map((block) => block.text ?? "").join("") : "";
  const match = /Call echo (\d+) times/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** The final answer of every conversation. */
export const FINAL_ANSWER = "done";

/** Returns the tool's output for `n`: `String(n)`, or `n:` followed by filler up to `resultBytes`. */
export function echoOutput(n, resultBytes) {
  if (resultBytes <= 0) return String(n);
  const prefix = `${n}:`;
  return prefix + "x".repeat(Math.max(0, resultBytes - prefix.length));
}

/** The tool call id of call `index`, in the Anthropic format. */
export function toolUseId(index) {
  return `toolu_${String(index).padStart(6, "0")}`;
}

/**
 * Stamps taken at the start of every model request: `wall[k]` is `performance.now()` when request k
 * began; `cpu` holds `process.cpuUsage()` at the requests that bound the measured windows only
 * (calling it on every request would cost a system call per turn and distort the floor).
 */
export function createStamps(toolTurns) {
  const wall = new Float64Array(toolTurns + 1);
  const cpu = new Map();
  const marks = new Set([0, Math.min(100, toolTurns), Math.max(0, toolTurns - 100), toolTurns]);
  let count = 0;
  return {
    wall,
    cpu,
    /** Records request number `count` (the caller's k-th model request). */
    stamp() {
      if (count <= toolTurns) {
        wall[count] = performance.now();
        if (marks.has(count)) cpu.set(count, process.cpuUsage());
      }
      count++;
    },
    get count() {
      return count;
    },
  };
}
