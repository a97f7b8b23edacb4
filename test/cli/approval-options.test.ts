/** The approval flags on the command line, and the decisions they make for the pending calls. */
import { describe, expect, it } from "vitest";
import { decisionsFor, describePending } from "../../src/cli/approval-run";
import { parseCommandLine } from "../../src/cli/args";
import { createRedactor } from "../../src/cli/redact";
import { UsageError } from "../../src/cli/usage-error";

const parse = (...argv: string[]) => {
  const command = parseCommandLine(argv, {});
  if (command.kind !== "run") throw new Error("not a run");
  return command.options;
};
const pending = (...ids: string[]) => ids.map((id) => ({ tool_use_id: id, name: "write_file", input: {} }));

describe("--ask-before-writes, --approve, --deny", () => {
  it("reads the flags: repeated, with reasons after =, none by default", () => {
    expect(parse("Hi")).not.toHaveProperty("decisions");
    expect(parse("Hi")).not.toHaveProperty("askBeforeWrites");
    expect(parse("--ask-before-writes", "Hi").askBeforeWrites).toBe(true);
    expect(
      parse(
        "--session",
        "s.jsonl",
        "--approve",
        "a",
        "--approve",
        "b",
        "--deny",
        "c=Not = now ",
        "--deny",
        "d",
      ).decisions,
    ).toEqual({
      approve: ["a", "b"],
      deny: [{ id: "c", message: "Not = now" }, { id: "d" }],
    });
  });

  it("refuses decisions without --session, with a prompt, with --demo, twice for one id, or without an id", () => {
    const refused = (...argv: string[]) => expect(() => parse(...argv)).toThrow(UsageError);
    refused("--approve", "a");
    refused("--session", "s.jsonl", "--approve", "a", "Hi");
    refused("--demo", "--session", "s.jsonl", "--approve", "a");
    refused("--session", "s.jsonl", "--approve", "a", "--deny", "a");
    refused("--session", "s.jsonl", "--deny", "=why");
    refused("--session", "s.jsonl", "--approve", " ");
  });

  it("makes one decision per pending call; all fills the calls not named; a denial without reason says the user denied it", () => {
    expect(
      decisionsFor({ approve: ["all"], deny: [{ id: "b", message: "no" }] }, pending("a", "b", "c")),
    ).toEqual({
      a: { approved: true },
      b: { approved: false, message: "no" },
      c: { approved: true },
    });
    expect(decisionsFor({ approve: [], deny: [{ id: "all" }] }, pending("a"))).toEqual({
      a: { approved: false, message: "The user denied this call." },
    });
  });

  it("refuses decisions when nothing is pending, for an id not pending, or leaving a call undecided", () => {
    expect(() => decisionsFor({ approve: ["a"], deny: [] }, [])).toThrow(
      "no tool call in this session is waiting",
    );
    expect(() => decisionsFor({ approve: ["x"], deny: [] }, pending("a"))).toThrow(
      '"x" is not waiting for approval (pending: a)',
    );
    expect(() => decisionsFor({ approve: ["a"], deny: [] }, pending("a", "b"))).toThrow("no decision for b");
  });
});

describe("describePending", () => {
  it("names the subagent a call waits inside", () => {
    const own = { tool_use_id: "t1", name: "deploy", input: { target: "prod" } };
    const inChild = { ...own, tool_use_id: "c1", parent_tool_use_id: "p1", agent: "releaser" };
    const same = createRedactor([]);
    expect(describePending(own, same)).toBe(`deploy {"target":"prod"} [t1]`);
    expect(describePending(inChild, same)).toBe(`deploy {"target":"prod"} [c1] (in subagent "releaser")`);
  });
});
