import { describe, expect, it } from "vitest";
import { toolCatalog } from "../../bench/lib/tool-catalog.mjs";
import { addCompounds, type CompoundSlot } from "../../src/shared/query-compounds";
import { plainWords } from "../../src/shared/search-words";
import { ToolRanker } from "../../src/shared/tool-ranker";

/** The slots of `text`'s compounds added to a slot of `word` (with a synonym), `index` the words tools have. */
function folded(text: string, word: string, index: readonly string[]): CompoundSlot[] {
  const slots: CompoundSlot[] = [{ words: [word], synonyms: [["phon"]] }];
  addCompounds(slots, text, plainWords(text), (form) => index.includes(form));
  return slots;
}

describe("compounds in a query", () => {
  it("puts a hyphenated particle's compound in place of its word's slot, the word only an alternative", () => {
    expect(folded("the on-call engineer", "call", ["on call", "oncall"])).toEqual([
      { words: ["on call"], synonyms: [["oncall"], ["call"]] },
    ]);
  });

  it("keeps a pair written apart as a slot of its own: it may be a preposition and its noun", () => {
    expect(folded("a number in Germany", "numb", ["numb in"])).toEqual([
      { words: ["numb"], synonyms: [["phon"]] },
      { words: ["numb in"], synonyms: [] },
    ]);
  });

  it("puts a particle written apart before its word, as tools have the pair, in place of the word's slot", () => {
    expect(folded("whoever is on call", "call", ["on call"])).toEqual([
      { words: ["on call"], synonyms: [["call"]] },
    ]);
  });

  it("adds a hyphenated word without a particle as a slot of its own", () => {
    expect(folded("append to-dos", "append", ["todo"])).toEqual([
      { words: ["append"], synonyms: [["phon"]] },
      { words: ["todo"], synonyms: [] },
    ]);
  });

  it("leaves out compounds no tool has", () => {
    expect(folded("the on-call engineer", "call", [])).toEqual([{ words: ["call"], synonyms: [["phon"]] }]);
  });
});

describe("an on-call person asked for: the compound counts once, and is no phone call", () => {
  const ranker = new ToolRanker(toolCatalog());

  it("finds who is on call, not the tools that merely mention on-call twice", () => {
    expect(ranker.search("who is the on-call engineer for the storage cluster", 1)[0]?.name).toBe(
      "pagerduty_get_on_call",
    );
  });
});
