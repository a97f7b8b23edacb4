import { describe, expect, it } from "vitest";
import { toolCatalog } from "../../bench/lib/tool-catalog.mjs";
import { ToolRanker } from "../../src/shared/tool-ranker";

const first = (ranker: ToolRanker, query: string) => ranker.search(query, 1)[0]?.name;

describe("values in a query: what is done with them, not tools whose object they are", () => {
  // The bench's catalog of 150 tools: ten phone tools among tools about on-call, reminders, customers.
  const ranker = new ToolRanker(toolCatalog());

  it("reads a phone number as the phone a call or a text goes to, not a number to buy or look up", () => {
    expect(first(ranker, "dial +1 212 555 0199 and play the storm closure notice")).toBe("twilio_make_call");
    expect(first(ranker, "get me the recording of the call from +33 1 70 36 39 50")).toBe(
      "twilio_get_call_recording",
    );
    expect(first(ranker, "which carrier is +1 415 555 0100 on")).toBe("twilio_lookup_number");
  });

  it("reads what a call plays as its message: the reminder played is no reminder to set", () => {
    expect(first(ranker, "phone the tenant and play the rent reminder")).toBe("twilio_make_call");
  });
});

describe("people named by what they do", () => {
  const ranker = new ToolRanker(toolCatalog());

  it("reads a ticket's requester as a person, not a pull request", () => {
    expect(first(ranker, "what has the requester asked for")).toBe("zendesk_search_tickets");
  });
});

describe("a record's fields: what is set on a row is its properties", () => {
  const ranker = new ToolRanker(toolCatalog());

  it("reads a field of one row pointed at as the row's properties", () => {
    expect(first(ranker, "update the priority cell on that entry to High")).toBe(
      "notion_update_page_properties",
    );
  });

  it("reads several fields set at once as a record's properties, not a ticket's status", () => {
    expect(first(ranker, "set Status to Done and Owner to Lee on the hiring tracker row")).toBe(
      "notion_update_page_properties",
    );
  });
});

describe("an object another tool's object becomes: a contested payment is a dispute", () => {
  const ranker = new ToolRanker(toolCatalog());

  it("reads payments being contested or disputed as disputes, not charges", () => {
    expect(first(ranker, "which payments are shoppers contesting")).toBe("stripe_list_disputes");
    expect(first(ranker, "what card payments did buyers dispute in March")).toBe("stripe_list_disputes");
  });
});

describe("a team's name: a value that names no object", () => {
  const ranker = new ToolRanker(toolCatalog());

  it("finds who is on call for a team named after payments, not payment tools", () => {
    expect(first(ranker, "who is on call for the payments team this weekend")).toBe("pagerduty_get_on_call");
  });
});

describe("records picked by a condition on their fields are queried, not changed", () => {
  const ranker = new ToolRanker(toolCatalog());

  it("reads `where <field> > <value>` and `whose <field> is <value>` as a query over records", () => {
    expect(first(ranker, "records where amount > 1000 in postgres")).toBe("postgres_run_query");
    expect(first(ranker, "entries of the hiring database whose stage is Onsite")).toBe(
      "notion_query_database",
    );
  });
});

describe("two issue keys and a relation: a link, not a state to mark", () => {
  const ranker = new ToolRanker(toolCatalog());

  it("reads `mark A-1 as blocked by A-2` as linking the two, not marking mail as read", () => {
    expect(first(ranker, "mark OPS-12 as blocked by OPS-9")).toBe("jira_link_issues");
  });
});
