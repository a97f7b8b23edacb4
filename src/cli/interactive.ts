/**
 * `agent-lattice` without a prompt: a readline session, one query per line, and the session's
 * commands (`/help`, `/clear`, `/compact`, `/model`, `/cost`, `/exit`: see repl-commands.ts). On a
 * terminal, Ctrl-C interrupts the running query (a second press aborts it and quits) and, at the
 * idle prompt, Ctrl-C or Ctrl-D ends the session. With piped input every line is a prompt or a
 * command, run in order. A line ending with `\` continues on the next: the lines are sent as one
 * message. Calls left waiting for approval in the `--session` are shown and asked about first.
 * @module
 */
import { createInterface, type Interface } from "node:readline";
import { type Ask, askAndResume } from "./approval-run";
import { EXIT_ABORTED, EXIT_AGENT_ERROR, EXIT_APPROVAL_REQUIRED, EXIT_SUCCESS } from "./exit-codes";
import { parseReplLine, type ReplContext, runReplCommand } from "./repl-commands";
import { runPrompt } from "./run-prompt";

/** The prompt shown at the start of each input line. */
export const INPUT_PROMPT = "› ";

/** The prompt of a continuation line: the line before ended with `\`. */
export const CONTINUATION_PROMPT = "… ";

/**
 * Runs the session until the input ends or `/exit`. Exit code: 0; 130 when a second Ctrl-C
 * aborted a query; with piped input, 1 when any prompt ended with an error result or any command
 * failed (an unknown command, a failed `/compact` …).
 */
export async function runInteractiveSession(context: ReplContext, banner: string): Promise<number> {
  const { run } = context;
  const { io } = run;
  const terminal = io.stdin.isTTY === true && io.stdout.isTTY === true;
  const readline = createInterface({
    input: io.stdin,
    output: terminal ? io.stdout : undefined,
    terminal,
    prompt: INPUT_PROMPT,
  });
  const lines = readline[Symbol.asyncIterator]();
  const onInterrupt = () => {
    const action = run.control.press();
    if (action === "force") process.exit(EXIT_ABORTED);
    if (action === "idle") readline.close();
  };
  // On a terminal readline reads Ctrl-C as a key and emits "SIGINT" itself; with piped input the
  // terminal driver sends the process a real SIGINT.
  readline.on("SIGINT", onInterrupt);
  process.on("SIGINT", onInterrupt);
  // Ctrl-C or Ctrl-D at a question closes the input: the session ends without a fresh prompt.
  let closed = false;
  readline.on("close", () => {
    closed = true;
  });
  let exitCode = EXIT_SUCCESS;
  const ask: Ask = async (question) => {
    if (terminal) readline.setPrompt(question);
    else io.stderr.write(question);
    if (terminal) readline.prompt();
    const answer = await lines.next();
    readline.setPrompt(INPUT_PROMPT);
    return answer.done ? undefined : answer.value;
  };
  try {
    if (terminal) run.output.notice(banner);
    const left = await run.agent.getPendingApprovals();
    const questions = await run.agent.getPendingInputs();
    if (left.length > 0 || questions.length > 0) {
      run.output.notice(
        left.length > 0
          ? `⏸ ${left.length} tool ${left.length === 1 ? "call" : "calls"} from before still waiting for approval:`
          : `⏸ ${questions.length} ${questions.length === 1 ? "question" : "questions"} from before still waiting for an answer:`,
      );
      const code = await askAndResume(EXIT_APPROVAL_REQUIRED, run, ask);
      if (code === EXIT_ABORTED) return EXIT_ABORTED;
      if (code === EXIT_APPROVAL_REQUIRED) return terminal ? EXIT_SUCCESS : code; // left unanswered again
    }
    for (;;) {
      if (terminal && closed) break; // piped input closes early, its lines still queued
      if (terminal) readline.prompt();
      const next = await lines.next();
      if (next.done) break;
      const line = parseReplLine(await joinContinuations(next.value, lines, readline, terminal));
      if (line.kind === "empty") continue;
      if (line.kind === "command") {
        const outcome = await runReplCommand(line, context);
        if (run.control.aborted) return EXIT_ABORTED;
        if (outcome === "exit") break;
        if (!terminal && outcome === "failed") exitCode = EXIT_AGENT_ERROR;
        continue;
      }
      const code = await askAndResume(await runPrompt(line.text, run), run, ask);
      if (code === EXIT_ABORTED) return EXIT_ABORTED;
      if (!terminal && code === EXIT_AGENT_ERROR) exitCode = EXIT_AGENT_ERROR;
      if (!terminal && code === EXIT_APPROVAL_REQUIRED && exitCode === EXIT_SUCCESS) exitCode = code; // input ended unanswered
    }
    if (terminal) io.stdout.write("\n");
    return exitCode;
  } finally {
    process.off("SIGINT", onInterrupt);
    readline.close();
  }
}

/**
 * `first`, joined with the lines that follow while each ends with `\` (the backslash removed, a
 * newline kept): one message. The input ending mid-way sends what was typed.
 */
async function joinContinuations(
  first: string,
  lines: AsyncIterator<string>,
  readline: Interface,
  terminal: boolean,
): Promise<string> {
  let text = first;
  while (text.endsWith("\\")) {
    if (terminal) {
      readline.setPrompt(CONTINUATION_PROMPT);
      readline.prompt();
    }
    const more = await lines.next();
    readline.setPrompt(INPUT_PROMPT);
    if (more.done) return text.slice(0, -1);
    text = `${text.slice(0, -1)}\n${more.value}`;
  }
  return text;
}
