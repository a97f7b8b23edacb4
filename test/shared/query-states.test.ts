import { describe, expect, it } from "vitest";
import { queryStates, wordSlot } from "../../src/shared/query-states";
import { plainWords } from "../../src/shared/search-words";

const statesOf = (text: string) => queryStates(text, plainWords(text));

describe("the states a query names things by", () => {
  it("finds states that describe what to list and states set as a target", () => {
    expect([...statesOf("show closed tickets from last week").states]).toEqual(["closed"]);
    expect(statesOf("move PAY-9 back to open").targets).toEqual(["open"]);
    expect(statesOf("write up the notes as a new page").targets).toEqual([]);
  });

  it("reads a status as a tool's status or state, and a target's own word as an alternative only", () => {
    expect(wordSlot("closed", "clos", [], statesOf("show closed tickets"))).toEqual({
      words: ["clos"],
      synonyms: [["status"], ["stat"]],
    });
    expect(wordSlot("open", "open", [], statesOf("move PAY-9 back to open"))).toEqual({
      words: [],
      synonyms: [["open"], ["status"], ["stat"]],
    });
    expect(wordSlot("new", "new", [], statesOf("show new messages"))).toEqual({
      words: ["new"],
      synonyms: [],
    });
  });
});
