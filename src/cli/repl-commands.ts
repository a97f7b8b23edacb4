/**
 * The commands of an interactive session: a line starting with `/` and a word is a command and
 * never reaches the model (`/help`, `/clear`, `/compact`, `/model`, `/cost`, `/rewind`, `/fork`, `/exit`; anything
 * else is an unknown command). A line starting with `//` is a prompt that starts with `/`, and a
 * line such as `/etc/hosts: what is it?` (a slash inside the first word) is a prompt as well.
 * @module
 */
import type { ModelPricing } from "../cost/pricing";
import type { RequestSettings } from "../loop/state/loop-config";
import type { ModelClient } from "../model/client";
import { formatUsd } from "../shared/money";
import { compactConversation } from "./compact-command";
import { hasPrice, howToPrice } from "./pricing-options";
import type { PromptRun } from "./run-prompt";
import type { SessionTally } from "./session-tally";

/** One input line, read. */
export type ReplLine =
  | { kind: "empty" }
  | { kind: "prompt"; text: string }
  | { kind: "command"; name: string; argument: string };

/** What the session does after a command: go on, end, or go on having failed (piped input exits 1). */
export type CommandOutcome = "continue" | "exit" | "failed";

/** What a command may use. */
export interface ReplContext {
  run: PromptRun & { tally: SessionTally };
  /** The agent's client: `/compact` sends its summary request through it. */
  client: ModelClient;
  /** The prices from `--price` / `--pricing`. */
  pricing?: Record<string, ModelPricing>;
  /** `--budget`: every model switched to must have a price. */
  budgetUsd?: number;
  /** The model settings of `/compact`'s summary request (as automatic compaction's). */
  summarySettings?: RequestSettings;
}

/** `/help`: the commands and what they do. */
export const REPL_HELP = [
  "Commands (a line starting with / and a word; start it with // to send it to the model instead):",
  "  /help                    this list",
  "  /clear                   start a new conversation (the --session file is emptied too)",
  "  /compact [instructions]  replace older messages with a summary the model writes now",
  "  /model [id]              show the model, or switch to another for the next prompts",
  "  /cost                    tokens and cost of this session so far, per model",
  "  /rewind [n|id]           list the checkpoints (one per prompt), or go back to before one (files too)",
  "  /fork [n|id]             list them, or copy the conversation before one into a new --session file",
  "  /exit, /quit             end the session (as Ctrl-D does)",
].join("\n");

const COMMAND_LINE = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/;

/** Reads one line of input: empty, a prompt, or a command (its name lowercased). */
export function parseReplLine(line: string): ReplLine {
  const text = line.trim();
  if (text === "") return { kind: "empty" };
  if (text.startsWith("//")) return { kind: "prompt", text: text.slice(1) };
  const match = COMMAND_LINE.exec(text);
  if (!match) return { kind: "prompt", text };
  return { kind: "command", name: match[1]!.toLowerCase(), argument: (match[2] ?? "").trim() };
}

/** Runs one command; its output goes to the session's notices (stderr). */
export async function runReplCommand(
  command: Extract<ReplLine, { kind: "command" }>,
  context: ReplContext,
): Promise<CommandOutcome> {
  const say = (text: string) => context.run.output.notice(text);
  switch (command.name) {
    case "help":
      say(REPL_HELP);
      return "continue";
    case "exit":
    case "quit":
      return "exit";
    case "clear":
      try {
        await context.run.agent.replaceHistory([]);
      } catch (error) {
        say(`! /clear failed, the conversation is unchanged: ${(error as Error).message}`);
        return "failed";
      }
      say("⟲ new conversation: the earlier messages are gone");
      return "continue";
    case "compact":
      return await compactCommand(command.argument, context);
    case "model":
      return switchModel(command.argument, context);
    case "rewind":
    case "fork":
      return await checkpointCommand(command.name, command.argument, context);
    case "cost":
      for (const line of context.run.tally.describe((model) => hasPrice(model, context.pricing))) say(line);
      return "continue";
    default:
      say(
        `! unknown command /${command.name} (/help lists the commands; start the line with // to send it to the model)`,
      );
      return "failed";
  }
}

function switchModel(argument: string, context: ReplContext): CommandOutcome {
  const { agent, output } = context.run;
  if (argument === "") {
    output.notice(`model: ${agent.model}`);
    return "continue";
  }
  if (/\s/.test(argument)) {
    output.notice(`! /model takes one model id, got "${argument}"`);
    return "failed";
  }
  if (context.budgetUsd !== undefined && !hasPrice(argument, context.pricing)) {
    output.notice(
      `! not switched: with --budget every model needs a price, and "${argument}" has none (restart with --model ${argument} and --price or --pricing)`,
    );
    return "failed";
  }
  const previous = agent.model;
  agent.setModel(argument);
  const unpriced = hasPrice(argument, context.pricing)
    ? ""
    : ` (no price is known for it: its cost counts as $0; ${howToPrice(argument)})`;
  output.notice(`model: ${previous} → ${argument}${unpriced}`);
  return "continue";
}

async function compactCommand(instructions: string, context: ReplContext): Promise<CommandOutcome> {
  const { run } = context;
  const signal = run.control.begin(true);
  run.output.begin();
  let outcome: Awaited<ReturnType<typeof compactConversation>>;
  try {
    outcome = await compactConversation(run.agent, context.client, {
      signal,
      instructions: instructions === "" ? undefined : instructions,
      pricing: context.pricing,
      settings: context.summarySettings,
    });
  } catch (error) {
    outcome = { kind: "failed", error: error as Error };
  } finally {
    run.control.end();
    run.output.end();
  }
  if ("spent" in outcome && outcome.spent) {
    const { model, usage, costUsd } = outcome.spent;
    run.tally.recordCompaction(model, usage, costUsd);
  }
  switch (outcome.kind) {
    case "compacted":
      run.output.notice(
        `⋯ compacted ${outcome.compactedMessages} messages into a summary (kept the last ${outcome.keptMessages}) · ${formatUsd(outcome.spent.costUsd)}`,
      );
      return "continue";
    case "nothing-to-compact":
      run.output.notice(
        `nothing to compact: the conversation has ${outcome.messages} messages, and the most recent ones are kept as they are`,
      );
      return "continue";
    case "cancelled":
      run.output.notice("⏸ compaction interrupted: the conversation is unchanged");
      return "continue";
    case "failed":
      run.output.notice(`! compaction failed, the conversation is unchanged: ${outcome.error.message}`);
      return "failed";
  }
}

async function checkpointCommand(
  name: "rewind" | "fork",
  argument: string,
  context: ReplContext,
): Promise<CommandOutcome> {
  const { agent, output, sessionPath } = context.run;
  const { checkpointLines, forkTo, rewindTo } = await import("./checkpoint-commands");
  if (argument === "") {
    for (const line of checkpointLines(await agent.checkpoints())) output.notice(line);
    output.notice(
      `/${name} <number or id> ${name === "rewind" ? "goes back to just before that prompt" : "forks before it"}`,
    );
    return "continue";
  }
  const { ok, lines } =
    name === "rewind" ? await rewindTo(agent, argument) : await forkTo(agent, argument, sessionPath);
  for (const line of lines) output.notice(line);
  return ok ? "continue" : "failed";
}
