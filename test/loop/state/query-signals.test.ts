/**
 * QuerySignals: the query's model and tool signals, and the flags the loop reads instead of their
 * `aborted` getters — each flag says exactly what its signal says, whichever way it aborted.
 */
import { describe, expect, it } from "vitest";
import { QuerySignals } from "../../../src/loop/state/query-signals";

function expectFlagsFollowSignals(signals: QuerySignals): void {
  expect(signals.modelAborted).toBe(signals.model.aborted);
  expect(signals.toolsAborted).toBe(signals.tools.aborted);
}

describe("QuerySignals flags", () => {
  it("are false while nothing aborted, without a caller's signal too", () => {
    const signals = new QuerySignals(undefined);
    expect(signals.aborted).toBe(false);
    expect(signals.modelAborted).toBe(false);
    expect(signals.toolsAborted).toBe(false);
    expectFlagsFollowSignals(signals);
  });

  it("follow the caller's signal aborting after the links were made", () => {
    const caller = new AbortController();
    const signals = new QuerySignals(caller.signal);
    expectFlagsFollowSignals(signals);
    caller.abort(new Error("stop"));
    expect(signals.aborted).toBe(true);
    expect(signals.modelAborted).toBe(true);
    expect(signals.toolsAborted).toBe(true);
    expectFlagsFollowSignals(signals);
  });

  it("read a caller's signal aborted before the first link", () => {
    const caller = new AbortController();
    caller.abort(new Error("stop"));
    const signals = new QuerySignals(caller.signal);
    expect(signals.modelAborted).toBe(true);
    expect(signals.toolsAborted).toBe(true);
    expectFlagsFollowSignals(signals);
  });

  it("an interrupt aborts the model's signal only; a consumer that leaves aborts both", () => {
    const interrupted = new QuerySignals(undefined);
    expect(interrupted.modelAborted).toBe(false); // linked before the interrupt
    interrupted.interrupt();
    expect(interrupted.modelAborted).toBe(true);
    expect(interrupted.toolsAborted).toBe(false);
    expectFlagsFollowSignals(interrupted);
    const cancelled = new QuerySignals(undefined);
    cancelled.cancel(); // before any link
    expect(cancelled.modelAborted).toBe(true);
    expect(cancelled.toolsAborted).toBe(true);
    expectFlagsFollowSignals(cancelled);
  });
});
