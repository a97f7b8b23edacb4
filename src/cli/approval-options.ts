/**
 * The approval flags of the command: `--ask-before-writes` (every call that is not read-only waits
 * for a decision) and the decisions that resume a `--session`'s paused query, `--approve <id>` and
 * `--deny <id>[=reason]` (each may be repeated; `all` stands for every pending call).
 * @module
 */

/** Makes the error for a mistake on the command line (the command's `UsageError`: exit 2). */
export type UsageFailure = (message: string) => Error;

/** The decisions given on the command line; ids as typed (`all` resolved later, against the session). */
export interface CliDecisions {
  approve: string[];
  /** Ids denied, with the reason given after `=` (if any). */
  deny: Array<{ id: string; message?: string }>;
}

/** The `parseArgs` options of the approval flags. */
export const APPROVAL_OPTION_SPEC = {
  "ask-before-writes": { type: "boolean" },
  approve: { type: "string", multiple: true },
  deny: { type: "string", multiple: true },
} as const;

/** The lines of `--help` for the approval flags. */
export const APPROVAL_USAGE = `  --ask-before-writes      every tool call that is not read-only waits for your approval
                           (interactive: asked y/n; otherwise the run exits 3 and lists them)
  --approve <id|all>       with --session and no prompt: approve a pending call and resume
  --deny <id|all>[=reason] with --session and no prompt: deny a pending call (the reason is
                           what the model reads) and resume; every pending call needs a decision`;

/** The approval fields of the options, from the parsed values. */
export function approvalOptionsOf(
  values: {
    "ask-before-writes"?: boolean;
    approve?: string[];
    deny?: string[];
  },
  fail: UsageFailure,
): { askBeforeWrites?: true; decisions?: CliDecisions } {
  // Absent unless given, so that the options of a run without approvals are as before.
  const ask: { askBeforeWrites?: true } = values["ask-before-writes"] ? { askBeforeWrites: true } : {};
  if (values.approve === undefined && values.deny === undefined) return ask;
  const approve = (values.approve ?? []).map((id) => idOf("--approve", id, fail));
  const deny = (values.deny ?? []).map((value) => {
    const split = value.indexOf("=");
    const id = idOf("--deny", split < 0 ? value : value.slice(0, split), fail);
    const message = split < 0 ? undefined : value.slice(split + 1).trim();
    return message ? { id, message } : { id };
  });
  const twice = approve.find((id) => deny.some((denied) => denied.id === id));
  if (twice !== undefined) throw fail(`"${twice}" is both approved and denied`);
  return { ...ask, decisions: { approve, deny } };
}

/** Decisions resume a session: they need `--session`, and no prompt (the run is the resume). */
export function checkApprovalCombinations(
  options: {
    decisions?: CliDecisions;
    sessionPath?: string;
    prompt?: string;
    demo: boolean;
  },
  fail: UsageFailure,
): void {
  if (!options.decisions) return;
  if (options.demo) throw fail("--demo does not pause for approval; drop --approve/--deny");
  if (options.sessionPath === undefined)
    throw fail("--approve/--deny resume a paused session: give its --session file");
  if (options.prompt !== undefined)
    throw fail("--approve/--deny resume the paused query: give no prompt with them");
}

function idOf(flag: string, value: string, fail: UsageFailure): string {
  const id = value.trim();
  if (id === "") throw fail(`${flag} needs a tool call id (or all)`);
  return id;
}
