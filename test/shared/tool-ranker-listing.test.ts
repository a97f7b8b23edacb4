import { describe, expect, it } from "vitest";
import { ToolRanker } from "../../src/shared/tool-ranker";

const tools = [
  { name: "phone_make_call", description: "Place an outbound phone call to a number.", inputSchema: {} },
  {
    name: "phone_list_calls",
    description: "List phone calls with their status and duration.",
    inputSchema: {},
  },
  { name: "phone_get_call", description: "Get one phone call by its id.", inputSchema: {} },
];

describe("ToolRanker: asking to see things in the plural", () => {
  it("favours the listing tool when the query asks which calls", () => {
    const ranker = new ToolRanker(tools);
    expect(ranker.search("what calls came in", 1)[0]!.name).toBe("phone_list_calls");
    expect(ranker.search("which calls went to voicemail?", 1)[0]!.name).toBe("phone_list_calls");
  });

  it("does not when one call is asked for or a call is to be placed", () => {
    const ranker = new ToolRanker(tools);
    expect(ranker.search("place a call to Bob", 1)[0]!.name).toBe("phone_make_call");
    expect(ranker.search("show the call with id 42", 1)[0]!.name).toBe("phone_get_call");
  });
});
