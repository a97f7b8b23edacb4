/**
 * The public types of {@link runHistoryStoreConformance}: the test-framework functions it is given,
 * the store factory, and what the store supports.
 * @module
 */
import type { HistoryStore } from "../history/store";

/** The assertions the suite uses; vitest's and jest's `expect` fit. */
export interface ConformanceAssertion {
  toEqual(expected: unknown): void;
  toBe(expected: unknown): void;
  toBeInstanceOf(expected: any): void;
}

/** The test-framework functions the suite needs. */
export interface ConformanceTestApi {
  describe: (name: string, body: () => void) => void;
  it: (name: string, test: () => Promise<void>) => void;
  expect: (actual: any) => ConformanceAssertion;
}

/** Options of {@link runHistoryStoreConformance}: the framework functions plus what the store supports. */
export interface HistoryStoreConformanceOptions extends ConformanceTestApi {
  /**
   * Run the two-writer tests: a writer whose view is stale must get an error that extends
   * `ConcurrentQueryError` and write nothing. Turn off only for a store meant for one process.
   * @default true
   */
  concurrency?: boolean;
  /**
   * Leaves a torn final write in the stored conversation (e.g. half a JSON line), as a crash
   * mid-write would. When given, the suite checks that load skips it and later appends survive.
   */
  tearTail?: (conversation: string) => Promise<void>;
  /** Removes what a test stored, called after each test with its conversation key. */
  cleanup?: (conversation: string) => Promise<void>;
  /**
   * The store has the optional `replaceTail`: its tests then fail when it is missing. Without this,
   * they run only when the store has it.
   * @default false
   */
  replaceTail?: boolean;
}

/**
 * Opens a store on a conversation. Called several times with the same key to open the same
 * conversation again (a reopen, or a second writer); different keys must not share history.
 */
export type HistoryStoreFactory = (conversation: string) => HistoryStore | Promise<HistoryStore>;
