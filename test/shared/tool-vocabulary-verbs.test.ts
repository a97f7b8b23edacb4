import { describe, expect, it } from "vitest";
import { toolCatalog } from "../../bench/lib/tool-catalog.mjs";
import { ToolRanker } from "../../src/shared/tool-ranker";
import { catalogFirst } from "./ranker-test-kit";

describe("everyday verbs: opening a thing that exists reads it", () => {
  it("reads `open the …`, `open my …` as reading the thing, not making one", () => {
    expect(catalogFirst("open the 'Quarterly planning' event")).toBe("calendar_get_event");
    expect(catalogFirst("open my Notion page on hiring")).toBe("notion_get_page");
  });

  it("still reads `open a …` as making one", () => {
    expect(catalogFirst("open a ticket for the login bug")).toMatch(/_create_(issue|ticket)$/);
  });
});

describe("actions in the asker's own words", () => {
  const ranker = new ToolRanker(toolCatalog());
  const top = (query: string) => ranker.search(query, 1)[0]?.name;
  const top3 = (query: string) => ranker.search(query, 3).map((hit) => hit.name);

  it("reads sending along as forwarding, writing down as a note, hogging as slow, a dump of rows as a select", () => {
    expect(top("send this email along to my assistant")).toBe("gmail_forward_email");
    expect(top("write down on the outage that we rolled back at 3:10")).toBe("pagerduty_add_incident_note");
    expect(top("what's hogging the database time")).toBe("postgres_list_slow_queries");
    expect(top3("get me a dump of the orders table rows for last week")).toContain("postgres_run_query");
  });
});

describe("the phone's verbs in a catalog whose every schema says `call`", () => {
  const ranker = new ToolRanker(toolCatalog());
  const top = (query: string) => ranker.search(query, 1)[0]?.name;

  it("reads ringing and dialling as a phone call, not a bare `call` that every dry run mentions", () => {
    expect(top("who rang us today")).toBe("twilio_list_calls");
    expect(top("list everyone who dialled us today")).toBe("twilio_list_calls");
  });

  it("reads what a call reads out as its message, not as reading or updating a thing", () => {
    expect(top("phone Lena and read her the payment update")).toBe("twilio_make_call");
    expect(top("ring the depot and read them the closing notice")).toBe("twilio_make_call");
  });
});

describe("`done`, a status, is a word tools are described with", () => {
  const ranker = new ToolRanker(toolCatalog());
  const top = (query: string) => ranker.search(query, 1)[0]?.name;

  it("reads finishing and completing a ticket as moving it to Done", () => {
    expect(top("mark OPS-3 finished")).toBe("jira_transition_issue");
    expect(top("WEB-41 is complete, mark it so")).toBe("jira_transition_issue");
  });
});

describe("writing or saying something in a place", () => {
  const ranker = new ToolRanker(toolCatalog());
  const top = (query: string) => ranker.search(query, 1)[0]?.name;

  it("reads `write in #…` and `say in #…` as posting a message there", () => {
    expect(top("write in #design what we decided")).toBe("slack_post_message");
    expect(top("say in #support the fix is live")).toBe("slack_post_message");
  });
});

describe("everyday verbs: a thing's noun where a command's verb stands", () => {
  const ranker = new ToolRanker(toolCatalog());
  const first = (query: string) => ranker.search(query, 1)[0]?.name;
  const top3 = (query: string) => ranker.search(query, 3).map((hit) => hit.name);

  it("sends or makes one: message a number, message someone", () => {
    expect(first("message +14155550123 that the order shipped")).toBe("twilio_send_sms");
    expect(top3("message the on-call engineer that the deploy is done")).toContain("slack_post_message");
    expect(first("invoice Globex for the May consulting work")).toBe("stripe_create_invoice");
  });

  it("elsewhere names the thing", () => {
    expect(first("which text messages came in today?")).toBe("twilio_list_messages");
  });
});

describe("getting or taking a thing out of a place", () => {
  const ranker = new ToolRanker(toolCatalog());
  const first = (query: string) => ranker.search(query, 1)[0]?.name;

  it("removes it from there (`get … out`, `take … out`): it reads nothing", () => {
    expect(first("get the newsletters out of the mailbox")).toBe("gmail_archive_email");
    expect(first("get the page out of the workspace")).toBe("notion_archive_page");
  });
});
