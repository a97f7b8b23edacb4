/**
 * What the studio may do when given `createAgent`: decide pending approvals and answer MCP
 * servers' pending questions (resuming the conversation through `agent.prompt({ approvals,
 * inputs })`, both in one resume when both wait) and fork a conversation at a message. Both
 * run one at a time per conversation in this process — a second tab's click waits for the first
 * and then finds nothing left to decide — and the agent's conversation guard and the store's
 * versioned writes refuse a run of another process.
 * @module
 */
import {
  type Agent,
  type ApprovalDecisions,
  type ApprovalInput,
  type InputAnswers,
  isWellFormedHistory,
  type ModelMessage,
} from "../index";
import { answerProblem } from "./input-content";
import type { StudioSource } from "./source";

/** Builds the agent of a conversation (the option of `startStudio`). */
export type StudioAgentFactory = (context: { conversationId: string }) => Agent | Promise<Agent>;

/** A request the conversation's state refuses (nothing pending, a fork id taken): HTTP 409. */
export class StudioConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StudioConflictError";
  }
}

/** A request that makes no sense (an index out of range): HTTP 400. */
export class StudioRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StudioRequestError";
  }
}

/**
 * The resume `decisions` and `inputs` make of the pause `agent` holds now: 409 when one of them is
 * not pending (any more) or nothing is given, 400 when something pending is left out or an
 * answer does not fit its question.
 */
async function checkedResume(
  agent: Agent,
  decisions: ApprovalDecisions,
  inputs: InputAnswers,
): Promise<ApprovalInput> {
  const [calls, questions] = await Promise.all([agent.getPendingApprovals(), agent.getPendingInputs()]);
  const callIds = new Set(calls.map((call) => call.tool_use_id));
  const byId = new Map(questions.map((question) => [question.id, question]));
  const decided = Object.keys(decisions);
  const answered = Object.keys(inputs);
  if (
    decided.length + answered.length === 0 ||
    !decided.every((id) => callIds.has(id)) ||
    !answered.every((id) => byId.has(id))
  )
    throw new StudioConflictError("These calls or questions are not waiting for an answer (any more).");
  if (decided.length !== callIds.size || answered.length !== byId.size)
    throw new StudioRequestError(
      "Decide every pending call and answer every pending question of the pause at once.",
    );
  for (const [id, answer] of Object.entries(inputs)) {
    const problem = answerProblem(byId.get(id)!, answer);
    if (problem) throw new StudioRequestError(problem);
  }
  if (answered.length === 0) return { approvals: decisions };
  return decided.length === 0 ? { inputs } : { approvals: decisions, inputs };
}

/** The acting side of a studio. */
export class StudioActions {
  private readonly chains = new Map<string, Promise<unknown>>();
  private readonly resuming = new Set<string>();

  constructor(private readonly createAgent: StudioAgentFactory) {}

  /** Resumes a paused conversation with `decisions` alone (see {@link StudioActions.answer}). */
  decide(conversationId: string, decisions: ApprovalDecisions): Promise<{ subtype: string }> {
    return this.answer(conversationId, { decisions, inputs: {} });
  }

  /**
   * Resumes a paused conversation with `decisions` (one for every pending call) and `inputs` (one
   * answer for every pending question, its content checked against the question's schema), in one
   * `prompt({ approvals, inputs })`, once: every decided call and answered question must still be
   * pending when this request's turn comes, or nothing runs (409).
   */
  answer(
    conversationId: string,
    { decisions, inputs }: { decisions: ApprovalDecisions; inputs: InputAnswers },
  ): Promise<{ subtype: string }> {
    return this.serialized(conversationId, async () => {
      const agent = await this.createAgent({ conversationId });
      this.resuming.add(conversationId);
      try {
        const resume = await checkedResume(agent, decisions, inputs);
        const result = await agent.prompt(resume);
        return { subtype: result.subtype };
      } finally {
        this.resuming.delete(conversationId);
        await agent.close();
      }
    });
  }

  /** Copies messages 0…`at` of a conversation into a new conversation `newId` of the same source. */
  fork(
    source: StudioSource,
    conversationId: string,
    at: number,
    newId: string,
  ): Promise<{ conversationId: string }> {
    return this.serialized(conversationId, async () => {
      const messages: ModelMessage[] = await source.open(conversationId).load();
      if (!Number.isInteger(at) || at < 0 || at >= messages.length)
        throw new StudioRequestError(`No message ${at} in this conversation.`);
      const kept = messages.slice(0, at + 1);
      const last = kept.at(-1)!;
      const dangling = last.role === "assistant" && last.content.some((block) => block.type === "tool_use");
      if (dangling || !isWellFormedHistory(kept))
        throw new StudioRequestError(
          "The conversation cannot be cut there: a tool call would be left without its result.",
        );
      if ((await source.list()).some((entry) => entry.conversationId === newId))
        throw new StudioConflictError(`A conversation ${JSON.stringify(newId)} exists already.`);
      const store = source.open(newId);
      await store.replace(kept);
      await store.close?.();
      return { conversationId: newId };
    });
  }

  /** Whether this studio is resuming the conversation after approval now. */
  busy(conversationId: string): boolean {
    return this.resuming.has(conversationId);
  }

  /** Runs `work` after every earlier action of the conversation settled. */
  private serialized<R>(conversationId: string, work: () => Promise<R>): Promise<R> {
    const before = this.chains.get(conversationId) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(conversationId, settled);
    void settled.then(() => {
      if (this.chains.get(conversationId) === settled) this.chains.delete(conversationId);
    });
    return run;
  }
}
