/**
 * The texts of compaction: the summarising instructions sent to the model, and the note that
 * introduces a summary in the rebuilt history.
 *
 * The prompts are single paragraphs without double quotes or backslashes, so they read the same
 * in a request whether it is inspected as text or as serialised JSON.
 * @module
 */

/**
 * The instruction that asks the model for a summary of the older part of a conversation. It is
 * sent verbatim after a transcript of the messages being replaced; `autoCompact.prompt` overrides it.
 */
export const DEFAULT_COMPACTION_PROMPT =
  "Write a summary of the conversation above so that the work can carry on without it: once you answer, " +
  "those messages are deleted and your summary is the only record left of them, so it must stand on its own. " +
  "Cover, in this order: " +
  "(1) The user's requests and goals, quoted word for word when they are short, paraphrased faithfully " +
  "when long, including every constraint, preference and correction the user gave. " +
  "(2) Decisions taken and why, including approaches that were tried and abandoned. " +
  "(3) Files, commands, tools and external resources touched: exact paths, names, identifiers, URLs and " +
  "the commands run, with what each showed or changed. " +
  "(4) Errors met and how each was resolved, or that it is still open. " +
  "(5) The current state: what is done, what is half done, and any values or facts later steps depend on. " +
  "(6) The next steps, starting with the one that was in progress when the conversation was cut. " +
  "If the conversation begins with an earlier summary, carry its content forward into this one. " +
  "Prefer exact facts over general description, leave out greetings and pleasantries, and do not " +
  "invent anything that the conversation does not show. Reply with the summary only.";

/**
 * The instruction that asks the model to condense one oversized tool result before it enters
 * history. It is sent verbatim after the tool's name, input and full output.
 */
export const DEFAULT_TOOL_RESULT_SUMMARY_PROMPT =
  "The tool output above is too large to keep in the conversation, so your condensed version will replace it. " +
  "Keep every fact the task could still need, exactly as written: identifiers, names, numbers, dates, " +
  "paths, URLs, line numbers, error messages and warnings, and the parts that answer what the tool was " +
  "called for. Drop repetition, boilerplate and filler. End with one line saying what kinds of content " +
  "were left out, so a reader knows what to fetch again if it turns out to matter. Do not add anything " +
  "the output does not contain. Reply with the condensed output only.";

/**
 * Wraps a compaction summary in the note that opens the rebuilt history: the earlier conversation
 * was compacted just now, the summary stands for it, and the model is to continue the task where
 * it stopped instead of restarting it or greeting the user again.
 */
export function wrapSummary(summary: string): string {
  return (
    "The earlier part of this conversation was compacted just now to free context space: those messages " +
    "were replaced by the summary below and are no longer available. Continue the task from exactly where " +
    "it stopped, using the summary and the messages that follow it. Do not restart the task, do not redo " +
    "work the summary reports as done, and do not greet the user or mention this note.\n\n" +
    `<summary>\n${summary}\n</summary>`
  );
}
