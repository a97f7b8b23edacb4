/**
 * The step journal of one batch of tool calls (`ToolContext.step`), over the conversation's
 * history: a step's result is recorded as a message of its own after the assistant message that
 * made the calls (`history/tool-steps.ts`), written to the store before `step` returns. Records are
 * written one at a time, in the order the steps finished — never before the batch has begun: a call
 * started while the response still streamed holds its records back until the response is recorded.
 *
 * When the batch ends, its records give way to its results: {@link StepJournal.close} returns the
 * steps by call (for the results' `meta.tool_steps`) and where the records begin, and the tool step
 * writes the results in their place. A call run again after a crash is given the steps its first
 * run recorded: they are replayed, not run.
 * @module
 */
import type { HistoryLog } from "../history/history-log";
import { type ToolStep, type ToolStepsByCall, toolStepRecord } from "../history/tool-steps";
import type { StepJournal } from "../tools/tool-context";

/** No replayed steps (a first run): shared, read only, so a batch's journal costs no second object. */
const NO_STEPS: ToolStepsByCall = Object.freeze({});

/** The steps a closed journal recorded, and the index of their first record in history. */
export interface JournalledSteps {
  from: number;
  steps: ToolStepsByCall;
}

/** One batch's journal (see the module comment). Cheap while no step is recorded: a batch that records none pays nothing. */
export class BatchStepJournal implements StepJournal {
  /** Steps recorded in this batch, by call. */
  private readonly steps: ToolStepsByCall = {};
  /** The index of the batch's first record in history, once one was written. */
  private from = -1;
  /** The record under way (the last of the chain), when one is. */
  private writing: Promise<unknown> | undefined;
  /** Whether the batch has begun: before it, records wait for {@link open}. */
  private opened = false;
  private begin: (() => void) | undefined;
  private closed = false;

  /** `replayed`: the steps an earlier run of the calls recorded (a re-run after a crash). */
  constructor(
    private readonly history: HistoryLog,
    private readonly replayed: ToolStepsByCall = NO_STEPS,
  ) {}

  /** The batch has begun (its response is recorded): records may be written. */
  open(): void {
    this.opened = true;
    this.begin?.();
  }

  recorded(toolUseId: string, name: string): ToolStep | undefined {
    return (
      this.steps[toolUseId]?.find((step) => step.name === name) ??
      this.replayed[toolUseId]?.find((step) => step.name === name)
    );
  }

  record(toolUseId: string, name: string, result: unknown, input: unknown): Promise<unknown> {
    const before = this.writing ?? (this.opened ? undefined : this.beginning());
    const write = () => this.write(toolUseId, name, result, input);
    const recording = before ? before.then(write) : write();
    this.writing = recording.catch(() => {});
    return recording;
  }

  private beginning(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.begin = resolve;
    });
  }

  private async write(toolUseId: string, name: string, result: unknown, input: unknown): Promise<unknown> {
    if (this.closed) return result; // a call abandoned with its response (never run as a batch)
    if (this.from === -1) this.from = this.history.messages.length;
    const first = this.recordedFor(toolUseId) === 0;
    const entry = this.history.record(toolStepRecord(toolUseId, name, result, first ? input : undefined));
    const step: ToolStep = { name };
    if ("result" in entry.tool_step) step.result = entry.tool_step.result;
    (this.steps[toolUseId] ??= []).push(step);
    await this.history.save(entry);
    return step.result;
  }

  /** How many steps of `toolUseId` are recorded in history (its first run's and this batch's). */
  private recordedFor(toolUseId: string): number {
    return (this.steps[toolUseId]?.length ?? 0) + (this.replayed[toolUseId]?.length ?? 0);
  }

  /**
   * Ends the journal once the records under way are written: later records are not written. The
   * steps this batch recorded, after the replayed ones — or `undefined` (at once) when it recorded none.
   */
  close(): Promise<JournalledSteps | undefined> | undefined {
    this.open();
    if (this.writing === undefined) {
      this.closed = true;
      return undefined;
    }
    return this.writing.then(() => {
      this.closed = true;
      if (this.from === -1) return undefined;
      const steps: ToolStepsByCall = { ...this.replayed };
      for (const [id, recorded] of Object.entries(this.steps))
        steps[id] = [...(steps[id] ?? []), ...recorded];
      return { from: this.from, steps };
    });
  }
}
