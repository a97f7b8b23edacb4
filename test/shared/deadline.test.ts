import { describe, expect, it, vi } from "vitest";
import { startDeadline } from "../../src/shared/deadline";

describe("startDeadline", () => {
  it("aborts with the caller's reason once the time runs out", () => {
    vi.useFakeTimers();
    try {
      const deadline = startDeadline(undefined, 50, (ms) => new Error(`after ${ms} ms`));
      vi.advanceTimersByTime(49);
      expect(deadline.signal.aborted).toBe(false);
      vi.advanceTimersByTime(1);
      expect(deadline.signal.aborted).toBe(true);
      expect(deadline.expired).toBe(true);
      expect((deadline.signal.reason as Error).message).toBe("after 50 ms");
      deadline.clear();
    } finally {
      vi.useRealTimers();
    }
  });

  it("follows its parent with the parent's reason, and is not expired then", () => {
    const parent = new AbortController();
    const deadline = startDeadline(parent.signal, 10_000, () => new Error("late"));
    parent.abort("stop");
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.signal.reason).toBe("stop");
    expect(deadline.expired).toBe(false);
    deadline.clear();
  });

  it("never fires after clear(), and clear() is idempotent", () => {
    vi.useFakeTimers();
    try {
      const deadline = startDeadline(undefined, 5, () => "late");
      deadline.clear();
      deadline.clear();
      vi.advanceTimersByTime(100);
      expect(deadline.signal.aborted).toBe(false);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
