import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findCompactionCut } from "../../src/compaction/cut";
import { rebuildHistory } from "../../src/compaction/transcript";
import { findHistoryProblem, isWellFormedHistory } from "../../src/compaction/well-formed";
import type { ModelMessage } from "../../src/messages/types";
import { orderlyHistory, wellFormedHistory } from "./history-fixtures";

/** A history and a keepRecentMessages from 0 to two past its length. */
function historyWithKeep(histories: fc.Arbitrary<ModelMessage[]>) {
  return histories.chain((messages) =>
    fc.tuple(fc.constant(messages), fc.integer({ min: 0, max: messages.length + 2 })),
  );
}

/**
 * Brute-force reference, straight from the definition: a cut is safe when no kept tool_result
 * answers a tool_use before the cut and the kept part does not open with tool_results.
 */
function isSafeByDefinition(messages: readonly ModelMessage[], cut: number): boolean {
  const first = messages[cut];
  if (
    first?.role === "user" &&
    Array.isArray(first.content) &&
    first.content.some((b) => b.type === "tool_result")
  ) {
    return false;
  }
  for (let kept = cut; kept < messages.length; kept += 1) {
    for (const resultId of toolResultIds(messages[kept]!)) {
      for (let summarised = 0; summarised < cut; summarised += 1) {
        if (toolUseIds(messages[summarised]!).includes(resultId)) return false;
      }
    }
  }
  return true;
}

function toolResultIds(message: ModelMessage): string[] {
  if (typeof message.content === "string") return [];
  return message.content.flatMap((block) => (block.type === "tool_result" ? [block.tool_use_id] : []));
}

function toolUseIds(message: ModelMessage): string[] {
  if (typeof message.content === "string") return [];
  return message.content.flatMap((block) => (block.type === "tool_use" ? [block.id] : []));
}

/** The latest cut in [1, target] accepted by `isSafe`, or undefined. */
function latestCut(length: number, keep: number, isSafe: (cut: number) => boolean): number | undefined {
  for (let cut = length - keep; cut >= 1; cut -= 1) if (isSafe(cut)) return cut;
  return undefined;
}

describe("findCompactionCut over random histories", () => {
  it("generates well-formed histories (sanity check of the generator)", () => {
    fc.assert(
      fc.property(wellFormedHistory, (messages) => {
        expect(findHistoryProblem(messages)).toBeUndefined();
      }),
    );
  });

  it("returns a cut whose rebuilt history is well formed, at or before the target", () => {
    fc.assert(
      fc.property(historyWithKeep(wellFormedHistory), ([messages, keep]) => {
        const cut = findCompactionCut(messages, keep);
        if (cut === undefined) return;
        expect(cut).toBeGreaterThanOrEqual(1);
        expect(cut).toBeLessThanOrEqual(messages.length - keep);
        const rebuilt = rebuildHistory("summary", messages.slice(cut));
        expect(findHistoryProblem(rebuilt)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it("returns the latest cut whose rebuilt history is well formed, and undefined exactly when there is none", () => {
    fc.assert(
      fc.property(historyWithKeep(wellFormedHistory), ([messages, keep]) => {
        const expected = latestCut(messages.length, keep, (cut) =>
          isWellFormedHistory(rebuildHistory("summary", messages.slice(cut))),
        );
        expect(findCompactionCut(messages, keep)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with the brute-force definition on well-formed histories", () => {
    fc.assert(
      fc.property(historyWithKeep(wellFormedHistory), ([messages, keep]) => {
        const expected = latestCut(messages.length, keep, (cut) => isSafeByDefinition(messages, cut));
        expect(findCompactionCut(messages, keep)).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("agrees with the brute-force definition on broken histories (late, missing and orphaned results)", () => {
    fc.assert(
      fc.property(historyWithKeep(orderlyHistory), ([messages, keep]) => {
        const expected = latestCut(messages.length, keep, (cut) => isSafeByDefinition(messages, cut));
        expect(findCompactionCut(messages, keep)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it("meets both outcomes on broken histories, so the agreement above covers skipping too", () => {
    const seen = { skipped: 0, found: 0 };
    fc.assert(
      fc.property(historyWithKeep(orderlyHistory), ([messages, keep]) => {
        const cut = findCompactionCut(messages, keep);
        if (cut === undefined) seen.skipped += messages.length - keep >= 1 ? 1 : 0;
        else seen.found += 1;
      }),
      { numRuns: 1000 },
    );
    // The generator must reach both outcomes for the previous property to mean anything.
    expect(seen.skipped).toBeGreaterThan(0);
    expect(seen.found).toBeGreaterThan(0);
  });
});
