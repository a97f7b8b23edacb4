/**
 * `agent-lattice eval`'s arguments, parsed by `parseArgs` (src/cli/parse-options.ts): modes,
 * values inline or after the flag, paths as positionals, and the usage errors the command turns
 * into exit code 2 (test/cli/eval-command.test.ts runs the command itself).
 */
import { describe, expect, it } from "vitest";
import { parseEvalArguments } from "../../src/cli/eval-arguments";

describe("agent-lattice eval's arguments", () => {
  it("reads modes, values (inline or after the flag) and paths", () => {
    expect(
      parseEvalArguments([
        "evals",
        "--replay",
        "--trials=3",
        "--filter",
        "refund",
        "--reporter",
        "md,junit",
        "--out",
        "out",
        "--no-store",
        "more.eval.mjs",
      ]),
    ).toEqual({
      paths: ["evals", "more.eval.mjs"],
      mode: "replay",
      trials: 3,
      filter: "refund",
      reporters: ["md", "junit"],
      out: "out",
      store: false,
      help: false,
    });
    expect(parseEvalArguments([])).toEqual({
      paths: [],
      mode: "live",
      reporters: ["terminal", "json"],
      out: "eval-results",
      store: true,
      help: false,
    });
    expect(parseEvalArguments(["-h"]).help).toBe(true);
  });

  it("refuses what it cannot use, each with one sentence", () => {
    expect(() => parseEvalArguments(["--record", "--live"])).toThrow(
      "choose one of --record, --replay and --live (got --record, --live).",
    );
    expect(() => parseEvalArguments(["--trials", "0"])).toThrow(
      '--trials needs a positive integer, not "0".',
    );
    expect(() => parseEvalArguments(["--trials"])).toThrow("Option '--trials <value>' argument missing");
    expect(() => parseEvalArguments(["--filter="])).toThrow("--filter needs a value.");
    expect(() => parseEvalArguments(["--verbose"])).toThrow("Unknown option '--verbose'");
    expect(() => parseEvalArguments(["--reporter", "html"])).toThrow(/html/);
  });
});
