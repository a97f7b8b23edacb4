import { describe, expect, it } from "vitest";
import { misspeltWords, oneSlipApart } from "../../src/shared/misspellings";
import { ToolRanker } from "../../src/shared/tool-ranker";

describe("oneSlipApart", () => {
  it("reads a letter left out, one too many or two neighbours swapped as one slip", () => {
    expect(oneSlipApart("serch", "search")).toBe(true);
    expect(oneSlipApart("searrch", "search")).toBe(true);
    expect(oneSlipApart("saerch", "search")).toBe(true);
    expect(oneSlipApart("calender", "calendar")).toBe(true);
  });

  it("does not read short words with a letter changed or dropped as slips: they are other words", () => {
    expect(oneSlipApart("stale", "state")).toBe(false);
    expect(oneSlipApart("ready", "read")).toBe(false);
    expect(oneSlipApart("search", "search")).toBe(false);
    expect(oneSlipApart("serch", "sarch")).toBe(false);
    expect(oneSlipApart("refnd", "refunds")).toBe(false);
  });
});

describe("misspeltWords", () => {
  const index = ["search", "refund", "acknowledg", "on call"];
  const indexed = (word: string) => index.includes(word);
  it("finds the indexed words a word tools lack is one slip from, by the word or its stem", () => {
    expect(misspeltWords("refnd", "refnd", index, indexed)).toEqual(["refund"]);
    expect(misspeltWords("aknowledge", "aknowledg", index, indexed)).toEqual(["acknowledg"]);
  });

  it("reads a misspelt plural as its singular misspelt, which the stemmer would cut short", () => {
    const words = ["calendar", "dashboard"];
    const known = (word: string) => words.includes(word);
    expect(misspeltWords("calenders", "calend", words, known)).toEqual(["calendar"]);
    expect(misspeltWords("dashbords", "dashbord", words, known)).toEqual(["dashboard"]);
  });

  it("leaves indexed words, short words and numbers alone", () => {
    expect(misspeltWords("search", "search", index, indexed)).toEqual([]);
    expect(misspeltWords("srch", "srch", index, indexed)).toEqual([]);
    expect(misspeltWords("20251", "20251", ["20250"], () => false)).toEqual([]);
  });
});

describe("ToolRanker with a misspelt query", () => {
  const tools = [
    { name: "tickets_search", description: "Search support tickets by text.", inputSchema: {} },
    { name: "tickets_create", description: "Create a support ticket.", inputSchema: {} },
    { name: "payments_refund", description: "Refund a payment.", inputSchema: {} },
  ];
  it("ranks the tool of the word meant first", () => {
    const ranker = new ToolRanker(tools);
    expect(ranker.search("serch tickets for the login bug", 1)[0]!.name).toBe("tickets_search");
    expect(ranker.search("refnd the payment", 1)[0]!.name).toBe("payments_refund");
    expect(ranker.search("serch", 3).map((hit) => hit.name)).toEqual(["tickets_search"]);
  });
});
