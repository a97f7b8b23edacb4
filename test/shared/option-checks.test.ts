/**
 * Issue 32: one option-checker module for every factory. Each factory's messages are worded as they
 * always were (the strings below are the ones the factories' own checkers produced before).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createAgent, InvalidOptionError } from "../../src/index";
import {
  nonNegativeInteger,
  type OptionLabel,
  positiveInteger,
  timerMilliseconds,
} from "../../src/shared/option-checks";
import { createScriptedClient } from "../../src/testing/index";
import { createWorkspaceTools } from "../../src/workspace-tools/index";
import { createMemoryTool } from "../../src/workspace-tools/memory/memory-tool";

const root = mkdtempSync(join(tmpdir(), "option-checks-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function message(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionError);
    return (error as Error).message;
  }
  throw new Error("it did not throw");
}

const queue: OptionLabel = { factory: "createAgentWorker", option: "`concurrency`", show: "text" };

describe("the option checks", () => {
  it("return the value when it passes", () => {
    expect(positiveInteger(3, queue)).toBe(3);
    expect(nonNegativeInteger(0, queue)).toBe(0);
    expect(timerMilliseconds(2_147_483_647, queue)).toBe(2_147_483_647);
  });

  it("word each factory's refusal as before", () => {
    expect(message(() => positiveInteger(0, queue))).toBe(
      "createAgentWorker: `concurrency` must be a positive integer, got 0.",
    );
    expect(message(() => nonNegativeInteger(-1, { ...queue, option: "`gracePeriodMs`" }))).toBe(
      "createAgentWorker: `gracePeriodMs` must be a non-negative integer, got -1.",
    );
    expect(message(() => positiveInteger(undefined, { ...queue, factory: "waitForResult" }))).toBe(
      "waitForResult: `concurrency` must be a positive integer, got undefined.",
    );
    expect(message(() => positiveInteger(0, { factory: "rewind()", option: "holdMs", show: "none" }))).toBe(
      "rewind(): holdMs must be a positive integer.",
    );
    expect(message(() => positiveInteger("7", { option: "`maxTurns`" }))).toBe(
      '`maxTurns` must be a positive integer, got "7".',
    );
  });

  it("take safe integers only unless told any integer passes", () => {
    expect(() => positiveInteger(2 ** 60, queue)).toThrow(InvalidOptionError);
    expect(positiveInteger(2 ** 60, { ...queue, integers: "any" })).toBe(2 ** 60);
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 1.5, null, "1", true])
      expect(() => positiveInteger(bad, { ...queue, integers: "any" })).toThrow(InvalidOptionError);
  });

  it("refuse a delay a timer cannot wait", () => {
    expect(message(() => timerMilliseconds(2_147_483_648, { option: "`toolTimeoutMs`" }))).toBe(
      "`toolTimeoutMs` must be at most 2147483647 ms (about 24.8 days, the longest a timer can wait), got 2147483648.",
    );
  });
});

describe("the factories over them", () => {
  const client = createScriptedClient([]);

  it("createAgent", () => {
    expect(message(() => createAgent({ model: "m", client, maxTurns: 0 }))).toBe(
      "`maxTurns` must be a positive integer, got 0.",
    );
    expect(message(() => createAgent({ model: "m", client, retry: { maxRetries: -1 } }))).toBe(
      "`retry.maxRetries` must be a non-negative integer, got -1.",
    );
    expect(message(() => createAgent({ model: "m", client, instructions: { files: [], maxBytes: 0 } }))).toBe(
      "createAgent: `instructions.maxBytes` must be a positive integer.",
    );
  });

  it("createWorkspaceTools and createMemoryTool", () => {
    expect(message(() => createWorkspaceTools({ root, maxReadBytes: 0 }))).toBe(
      "createWorkspaceTools: maxReadBytes must be a positive integer, got 0.",
    );
    expect(message(() => createWorkspaceTools({ root, bashTimeoutMs: 2 ** 31 }))).toBe(
      "createWorkspaceTools: bashTimeoutMs must be at most 2147483647 ms (about 24.8 days, the longest a timer can wait), got 2147483648.",
    );
    expect(message(() => createWorkspaceTools({ root, maxReadBytes: null as never }))).toBe(
      "createWorkspaceTools: maxReadBytes must be a positive integer, got null.",
    );
    expect(message(() => createMemoryTool({ root, maxFileBytes: 0 }))).toBe(
      "createMemoryTool: `maxFileBytes` must be a positive integer (bytes), got 0.",
    );
  });
});
