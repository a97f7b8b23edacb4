/**
 * A small rule-based "model" for the mock Messages API server (`startMockAnthropicServer` from
 * agent-lattice/testing): what the example's cassettes were recorded against, so anyone can
 * re-record them offline (`node examples/evals/record.mjs`). It is deterministic: the same request
 * always gets the same response.
 *
 * As the agent: the prompt is split into steps ("Read notes.md, then …"); each step that names an
 * action becomes one tool call, one per response, in order; when every step is done it answers
 * from the tool results. A system prompt saying "without tools" makes it skip every tool (the
 * seeded regression). As a judge (a request offering `submit_output` under the evaluator's system
 * prompt): it checks each `- mentions "…"` line of the rubric against the transcript's final answer.
 */

const STEP_RULES = [
  [/\bread (?:the file )?([\w./-]+\.\w+)/i, (m) => ({ name: "read_file", input: { path: m[1] } })],
  [
    /\b(?:create|write) ([\w./-]+\.\w+) (?:with|containing) "([^"]*)"/i,
    (m) => ({ name: "write_file", input: { path: m[1], content: m[2] } }),
  ],
  [
    /\breplace "([^"]*)" with "([^"]*)" in ([\w./-]+\.\w+)/i,
    (m) => ({ name: "edit_file", input: { path: m[3], old_string: m[1], new_string: m[2] } }),
  ],
  [
    /\bsearch (?:for )?"([^"]+)"(?: in ([\w./-]+))?/i,
    (m) => ({ name: "grep", input: { pattern: m[1], ...(m[2] && { path: m[2] }) } }),
  ],
  [
    /\bfind (?:files matching )?([\w*?./{},-]*[*?][\w*?./{},-]*)/i,
    (m) => ({ name: "glob", input: { pattern: m[1] } }),
  ],
  [
    /\blist (?:the )?files(?: in ([\w./-]+))?/i,
    (m) => ({ name: "list_files", input: { path: m[1] ?? "." } }),
  ],
];

/** The handler to give `startMockAnthropicServer({ handler })`. */
export function ruleModel() {
  return (body) => (isJudgeRequest(body) ? judgeResponse(body) : agentResponse(body));
}

function agentResponse(body) {
  const messages = body.messages ?? [];
  const tools = new Set((body.tools ?? []).map((tool) => tool.name));
  const start = lastPromptIndex(messages);
  const prompt = textOf(messages[start]?.content);
  const noTools = /without tools/i.test(systemText(body.system));
  const steps = noTools ? [] : planOf(prompt).filter((call) => tools.has(call.name));
  const done = messages.slice(start + 1).flatMap((message) => blocks(message, "tool_use")).length;
  if (done < steps.length) {
    const call = steps[done];
    return {
      content: [
        { type: "text", text: `Step ${done + 1}: ${call.name}.` },
        { type: "tool_use", id: `toolu_rule_${start}_${done + 1}`, name: call.name, input: call.input },
      ],
      stop_reason: "tool_use",
    };
  }
  const results = messages.slice(start + 1).flatMap((message) => blocks(message, "tool_result"));
  return { content: [{ type: "text", text: finalAnswer(prompt, steps, results) }] };
}

function planOf(prompt) {
  return prompt
    .split(/(?:\.\s+|;\s*|,?\s+then\s+|\s+and then\s+)/i)
    .map((step) =>
      STEP_RULES.map(([pattern, make]) => pattern.exec(step) && make(pattern.exec(step))).find(Boolean),
    )
    .filter(Boolean);
}

function finalAnswer(prompt, steps, results) {
  if (steps.length === 0)
    return `Answering from memory: ${prompt.length > 80 ? `${prompt.slice(0, 80)}…` : prompt}`;
  const lines = steps.map((call, index) => {
    const result = results[index];
    const text = textOf(result?.content).trim();
    if (result?.is_error) return `${call.name} failed: ${firstLine(text)}`;
    if (call.name === "read_file") return `${call.input.path} says: ${stripLineNumbers(text)}`;
    if (call.name === "write_file") return `Wrote ${call.input.path}.`;
    if (call.name === "edit_file") return `Edited ${call.input.path}.`;
    return `${call.name} found: ${text.split("\n").slice(0, 6).join(", ")}`;
  });
  return `Done. ${lines.join(" ")}`;
}

function stripLineNumbers(text) {
  return text
    .split("\n")
    .map((line) => line.replace(/^\s*\d+[\t→|:]\s?/, ""))
    .filter((line) => line.trim() !== "" && !line.startsWith("["))
    .slice(0, 4)
    .join(" / ");
}

function isJudgeRequest(body) {
  return (
    (body.tools ?? []).some((tool) => tool.name === "submit_output") &&
    /impartial evaluator/i.test(systemText(body.system))
  );
}

function judgeResponse(body) {
  const prompt = textOf(body.messages?.[0]?.content);
  const rubric = /<rubric>([\s\S]*?)<\/rubric>/.exec(prompt)?.[1] ?? "";
  const answer = /Final answer: ([\s\S]*?)\n<\/transcript>/.exec(prompt)?.[1] ?? "";
  const wanted = [...rubric.matchAll(/- mentions "([^"]+)"/g)].map((m) => m[1]);
  const missing = wanted.filter((text) => !answer.toLowerCase().includes(text.toLowerCase()));
  const score = wanted.length === 0 ? 1 : (wanted.length - missing.length) / wanted.length;
  const reason =
    missing.length === 0
      ? `The answer mentions ${wanted.map((text) => `"${text}"`).join(", ") || "what the rubric asks"}.`
      : `The answer does not mention ${missing.map((text) => `"${text}"`).join(", ")}.`;
  return {
    content: [
      {
        type: "tool_use",
        id: "toolu_verdict",
        name: "submit_output",
        input: { score, pass: missing.length === 0, reason },
      },
    ],
    stop_reason: "tool_use",
  };
}

function lastPromptIndex(messages) {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (
      message.role === "user" &&
      textOf(message.content).trim() !== "" &&
      blocks(message, "tool_result").length === 0
    )
      return index;
  }
  return 0;
}

function blocks(message, type) {
  return Array.isArray(message?.content) ? message.content.filter((block) => block.type === type) : [];
}

function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

function systemText(system) {
  return typeof system === "string" ? system : textOf(system);
}

function firstLine(text) {
  return text.split("\n")[0];
}
