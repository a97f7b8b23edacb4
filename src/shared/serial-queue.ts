/**
 * One task at a time: a task starts once every task queued before it has settled, whatever its
 * outcome. The mutex of the history stores' writes, the memory tool's changes, the checkpoint
 * recorder and the MCP token file's changes — one helper instead of a promise chain written out in each.
 * @module
 */

/** Runs the tasks given to it one after another, in the order given. */
export class SerialQueue {
  /** Settles when the last task queued has settled; never rejects. */
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  /**
   * Runs `task` after every task queued before it has settled (a failure of those does not reach
   * it). Its result, or its failure, is the caller's.
   */
  run<T>(task: () => T | PromiseLike<T>): Promise<T> {
    this.queued++;
    const run = this.tail.then(() => task());
    this.tail = run.then(
      () => this.queued--,
      () => this.queued--,
    );
    return run;
  }

  /** Settles (never rejects) once every task queued so far has settled. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined);
  }

  /** Whether no task is queued or running. */
  get isIdle(): boolean {
    return this.queued === 0;
  }
}
