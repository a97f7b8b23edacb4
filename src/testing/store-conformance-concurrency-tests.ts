/**
 * The conformance tests of two writers on one conversation: a writer whose view is stale gets an
 * error that extends `ConcurrentQueryError` and writes nothing.
 * @module
 */
import { ConcurrentQueryError } from "../errors";
import type { ConformanceTestApi } from "./store-conformance-api";
import { assistantMessage, userMessage } from "./store-conformance-messages";
import { type ConformanceTest, rejectionOf } from "./store-conformance-runner";

/** Registers the two-writer tests. */
export function registerConcurrencyTests(test: ConformanceTest, expect: ConformanceTestApi["expect"]): void {
  const expectConflict = (error: unknown) => {
    expect(error).toBeInstanceOf(ConcurrentQueryError);
    expect(typeof (error as { conversationId?: unknown }).conversationId).toBe("string");
  };

  test("a writer whose view is stale gets a conflict error and writes nothing", async ({ open }) => {
    const first = await open();
    const second = await open();
    await first.load();
    await second.load();
    await first.append(userMessage("first writer"));
    expectConflict(await rejectionOf(second.append(userMessage("second writer"))));
    expectConflict(await rejectionOf(second.replace([userMessage("second writer replaces")])));
    await first.append(assistantMessage("first writer continues"));
    expect(await (await open()).load()).toEqual([
      userMessage("first writer"),
      assistantMessage("first writer continues"),
    ]);
  });

  test("after a reload the stale writer may continue, and the other becomes stale", async ({ open }) => {
    const first = await open();
    const second = await open();
    await first.load();
    await second.load();
    await first.append(userMessage("one"));
    expectConflict(await rejectionOf(second.append(userMessage("lost"))));
    expect(await second.load()).toEqual([userMessage("one")]);
    await second.append(userMessage("two"));
    expectConflict(await rejectionOf(first.append(userMessage("lost too"))));
    expect(await (await open()).load()).toEqual([userMessage("one"), userMessage("two")]);
  });

  test("a replace by one writer makes the other writer stale", async ({ open }) => {
    const first = await open();
    await first.load();
    await first.append(userMessage("original"));
    const second = await open();
    await first.load();
    await second.load();
    await second.replace([userMessage("compacted")]);
    expectConflict(await rejectionOf(first.append(userMessage("stale"))));
    expect(await (await open()).load()).toEqual([userMessage("compacted")]);
  });

  test("two writers appending at the same moment: exactly one wins", async ({ open }) => {
    const first = await open();
    const second = await open();
    await first.load();
    await second.load();
    const outcomes = await Promise.allSettled([
      first.append(userMessage("first")),
      second.append(userMessage("second")),
    ]);
    const winners = outcomes.flatMap((outcome, index) => (outcome.status === "fulfilled" ? [index] : []));
    expect(winners.length).toBe(1);
    const loser = outcomes.find((outcome) => outcome.status === "rejected") as PromiseRejectedResult;
    expectConflict(loser.reason);
    expect(await (await open()).load()).toEqual([userMessage(winners[0] === 0 ? "first" : "second")]);
  });
}
