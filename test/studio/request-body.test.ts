/** The studio's request bodies, checked by their schemas: what fits is taken, anything else is a 400 error. */
import { describe, expect, it } from "vitest";
import { StudioRequestError } from "../../src/studio/actions";
import { readDecisions, readFork } from "../../src/studio/request-body";

describe("the studio's request bodies", () => {
  it("takes decisions, giving a denial without a reason the studio's", () => {
    expect(
      readDecisions({
        decisions: { a: { approved: true }, b: { approved: false }, c: { approved: false, message: "no" } },
      }),
    ).toEqual({
      a: { approved: true },
      b: { approved: false, message: "Denied in the studio." },
      c: { approved: false, message: "no" },
    });
  });

  it("refuses decisions that are not a map of { approved, message? }", () => {
    for (const body of [
      {},
      { decisions: [] },
      { decisions: "yes" },
      { decisions: { a: null } },
      { decisions: { a: { approved: "yes" } } },
      { decisions: { a: { approved: false, message: 3 } } },
    ]) {
      expect(() => readDecisions(body), JSON.stringify(body)).toThrow(StudioRequestError);
    }
  });

  it("takes a fork's index and new id; refuses anything else", () => {
    expect(readFork({ at: 2 })).toEqual({ at: 2, newId: undefined });
    expect(readFork({ at: 0, newId: "" })).toEqual({ at: 0, newId: undefined });
    expect(readFork({ at: 3, newId: "copy" })).toEqual({ at: 3, newId: "copy" });
    for (const body of [{}, { at: "2" }, { at: -1 }, { at: 1.5 }, { at: 1, newId: 7 }]) {
      expect(() => readFork(body), JSON.stringify(body)).toThrow(StudioRequestError);
    }
  });
});
