/**
 * `runHistoryStoreConformance`: the behaviour every {@link HistoryStore} must have, as a test suite
 * any store can run — ours run it, and so can yours. It takes the test framework's functions as
 * arguments (vitest, jest, or anything with the same shape), so this package imports none.
 * @module
 */
import type { HistoryStoreConformanceOptions, HistoryStoreFactory } from "./store-conformance-api";
import { registerApprovalTests } from "./store-conformance-approval-tests";
import { registerCheckpointTests } from "./store-conformance-checkpoint-tests";
import { registerConcurrencyTests } from "./store-conformance-concurrency-tests";
import { registerHistoryTests } from "./store-conformance-history-tests";
import { createTestRunner } from "./store-conformance-runner";
import { registerStepTests } from "./store-conformance-step-tests";
import { registerStrainTests } from "./store-conformance-strain-tests";
import { registerTailTests } from "./store-conformance-tail-tests";
import { registerWindowTests } from "./store-conformance-window-tests";

/**
 * Registers the conformance suite for a store.
 *
 * @example
 * import { describe, expect, it } from "vitest";
 * import { runHistoryStoreConformance } from "agent-lattice/testing";
 *
 * runHistoryStoreConformance("my store", (conversation) => createMyStore({ id: conversation }), {
 *   describe, it, expect,
 * });
 */
export function runHistoryStoreConformance(
  name: string,
  factory: HistoryStoreFactory,
  options: HistoryStoreConformanceOptions,
): void {
  const { describe, expect } = options;
  const test = createTestRunner(factory, options);

  describe(`${name}: history store conformance`, () => {
    registerHistoryTests(test, expect);
    registerStrainTests(test, expect, options.tearTail);
    registerApprovalTests(test, expect, options.concurrency ?? true);
    if (options.concurrency ?? true) registerConcurrencyTests(test, expect);
    registerCheckpointTests(test, expect, factory, options);
    registerWindowTests(test, expect, options.concurrency ?? true);
    registerTailTests(test, expect, options.concurrency ?? true, options.replaceTail ?? false);
    registerStepTests(test, expect);
  });
}
