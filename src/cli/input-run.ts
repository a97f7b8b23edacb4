/**
 * MCP servers' questions in the command: a query that pauses `requires_input` is answered by the
 * person — asked on the terminal in an interactive session (a URL to open, or a form's fields one by
 * one), or, elsewhere, listed (exit code 3) and left in the `--session` file, where the next
 * interactive session over it asks again (a program can answer with `prompt({ inputs })` over the
 * same file).
 * @module
 */
import type { InputAnswer, InputAnswers, PendingInput } from "../messages/pending-inputs";
import type { Redactor } from "./redact";
import type { PromptRun } from "./run-prompt";

/** Asks the person one question; `undefined` when the input has ended (as the approvals' asking). */
type Ask = (question: string) => Promise<string | undefined>;

/** One question as the person reads it: `server: message [id]` (and the URL to open). */
export function describeInput(input: PendingInput, redact: Redactor): string {
  const url = input.mode === "url" && input.url ? ` — open ${input.url}` : "";
  return redact(`${input.server}: ${input.message} [${input.id}]${url}`);
}

/** After a run that paused on questions (not interactive): what is waiting and how to go on. */
export async function reportInputs(run: PromptRun): Promise<void> {
  const inputs = await run.agent.getPendingInputs();
  const count = `${inputs.length} ${inputs.length === 1 ? "question" : "questions"}`;
  run.output.notice(`⏸ waiting for answers to ${count} of MCP servers:`);
  for (const input of inputs) run.output.notice(`  ${describeInput(input, run.output.redact)}`);
  run.output.notice(
    run.sessionPath === undefined
      ? "  (no --session: this pause ends with the command; use --session to answer it later)"
      : `  answer: agent-lattice --session ${run.sessionPath} (an interactive session asks them)`,
  );
  run.output.data({
    type: "inputs",
    pending: inputs.map(({ id, server, message, mode }) => ({ id, server, message, mode })),
  });
}

/**
 * In an interactive session: asks each of the pending `questions` and returns the answers;
 * `undefined` when the input ended (or was left with Ctrl-C / Ctrl-D) before every one was answered.
 */
export async function askInputs(
  questions: readonly PendingInput[],
  run: PromptRun,
  ask: Ask,
): Promise<InputAnswers | undefined> {
  const answers: InputAnswers = {};
  for (const input of questions) {
    run.output.notice(`? ${describeInput(input, run.output.redact)}`);
    const answer = input.mode === "url" ? await askVisited(ask) : await askForm(input, ask);
    if (!answer) return undefined;
    answers[input.id] = answer;
  }
  return answers;
}

async function askVisited(ask: Ask): Promise<InputAnswer | undefined> {
  const reply = await ask("  done (y), decline (n)? ");
  if (reply === undefined) return undefined;
  return { action: /^y(es)?$/i.test(reply.trim()) ? "accept" : "decline" };
}

/** A form: answer it (y) or decline (n), then each field; an empty field is left out (its default applies). */
async function askForm(input: PendingInput, ask: Ask): Promise<InputAnswer | undefined> {
  const reply = await ask("  answer (y), decline (n)? ");
  if (reply === undefined) return undefined;
  if (!/^y(es)?$/i.test(reply.trim())) return { action: "decline" };
  const content: Record<string, unknown> = {};
  for (const [name, field] of formFields(input.requestedSchema)) {
    const hint =
      field.default === undefined ? field.type : `${field.type}, default ${JSON.stringify(field.default)}`;
    const value = await ask(`  ${field.title ?? name} (${hint}): `);
    if (value === undefined) return undefined;
    if (value.trim() !== "") content[name] = fieldValue(value.trim(), field.type);
  }
  return { action: "accept", content };
}

interface FormField {
  type: string;
  title?: string;
  default?: unknown;
}

/** The fields of a flat form schema (`properties`), in their order. */
function formFields(schema: unknown): Array<[string, FormField]> {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== "object" || properties === null) return [];
  return Object.entries(properties as Record<string, Record<string, unknown>>).map(([name, field]) => [
    name,
    {
      type: typeof field?.type === "string" ? field.type : "string",
      ...(typeof field?.title === "string" ? { title: field.title } : {}),
      ...(field?.default !== undefined ? { default: field.default } : {}),
    },
  ]);
}

/** A typed field's value from what was typed: numbers and booleans as such, the rest as text. */
export function fieldValue(text: string, type: string): unknown {
  if (type === "boolean") return /^(y|yes|true|1)$/i.test(text);
  if (type === "number" || type === "integer") {
    const number = Number(text);
    return Number.isFinite(number) ? number : text;
  }
  return text;
}
