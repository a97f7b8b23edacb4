import { describe, expect, it } from "vitest";
import { rankTools, ToolRanker } from "../../src/shared/tool-ranker";

const tool = (name: string, description: string, inputSchema: unknown = { type: "object" }) => ({
  name,
  description,
  inputSchema,
});

const tools = [
  tool("twilio_send_whatsapp", "Send a WhatsApp message."),
  tool("twilio_send_sms", "Send an SMS text message to a phone number."),
  tool("gmail_send_email", "Send an email to recipients."),
  tool("slack_post_message", "Post a message to a channel."),
  tool("slack_schedule_message", "Schedule a message to be posted to a channel later."),
  tool("slack_list_channels", "List the channels of the workspace."),
  tool("drive_search_files", "Search documents and files by name and content."),
  tool("drive_create_spreadsheet", "Create a new spreadsheet with sheets and headers."),
  tool("drive_export_pdf", "Export a document or spreadsheet as PDF."),
  tool("stripe_refund_payment", "Refund a payment, fully or partly."),
  tool("stripe_list_charges", "List the charges of a period."),
  tool("calendar_list_events", "List the events between two dates."),
];
const names = (ranker: ToolRanker, query: string, limit = 3) =>
  ranker.search(query, limit).map((hit) => hit.name);

describe("ToolRanker", () => {
  const ranker = new ToolRanker(tools);

  it("matches whole words only: a question beginning with what does not find WhatsApp", () => {
    expect(names(ranker, "what events are on my calendar")[0]).toBe("calendar_list_events");
    expect(names(ranker, "what events are on my calendar")).not.toContain("twilio_send_whatsapp");
    expect(names(ranker, "what", 20)).not.toContain("twilio_send_whatsapp");
    expect(names(ranker, "whatsapp")).toEqual(["twilio_send_whatsapp"]);
    expect(names(ranker, "kubernetes")).toEqual([]);
  });

  it("finds a tool by a synonym of its words: find → search, money back → refund, text → SMS", () => {
    expect(names(ranker, "find the budget sheet in my Drive")[0]).toBe("drive_search_files");
    expect(names(ranker, "give the customer their money back")[0]).toBe("stripe_refund_payment");
    expect(names(ranker, "text the driver that the van is here")[0]).toBe("twilio_send_sms");
  });

  it("keeps the results in a service the query names (a tool-name prefix)", () => {
    expect(names(ranker, "schedule a Slack message for tomorrow")).toEqual([
      "slack_schedule_message",
      "slack_post_message",
      "slack_list_channels",
    ]);
    // Plain BM25 puts twilio_send_sms first here (send + SMS); naming Slack keeps to Slack.
    expect(names(ranker, "text my team on Slack").every((name) => name.startsWith("slack_"))).toBe(true);
    // Without the service named, every service's tools compete.
    expect(names(ranker, "send a message")).toContain("twilio_send_whatsapp");
    // `driver` does not name the `drive` service: the drive tools are not put first.
    expect(names(ranker, "text the driver")[0]).toBe("twilio_send_sms");
  });

  it("favours an MCP server named in the query, and does not take a verb prefix for a service", () => {
    const mcp = new ToolRanker([
      tool("mcp__linear__create_issue", "Create an issue."),
      tool("mcp__github__create_issue", "Create an issue."),
      tool("mcp__google-drive__search", "Search files."),
      tool("mcp__slack__post_message", "Post a message to a channel."),
      tool("mcp__twilio__send_sms", "Send an SMS text message."),
      tool("get_weather", "Current weather for a city."),
      tool("get_news", "Today's headlines."),
      tool("forecast_week", "The weather forecast for the coming week, day by day."),
    ]);
    expect(names(mcp, "open an issue on github")[0]).toBe("mcp__github__create_issue");
    expect(names(mcp, "create a Linear issue")[0]).toBe("mcp__linear__create_issue");
    expect(names(mcp, "look for a file in google drive")[0]).toBe("mcp__google-drive__search");
    expect(names(mcp, "text the team on Slack")[0]).toBe("mcp__slack__post_message");
    // `get` is a verb, not a service: the get_ tools are not put first for it.
    expect(names(mcp, "get the weather forecast for the week")[0]).toBe("forecast_week");
  });

  it("weights the tool's name words above a description's", () => {
    const weighted = new ToolRanker([
      tool("archive_page", "Moves a page out of sight; it can be restored from the trash."),
      tool("trash_cleaner", "Archives old pages."),
    ]);
    expect(names(weighted, "trash")[0]).toBe("trash_cleaner");
    expect(names(weighted, "archive")[0]).toBe("archive_page");
  });

  it("searches the input schema's property names and descriptions", () => {
    const schema = new ToolRanker([
      tool("db_query", "Run SQL.", {
        type: "object",
        properties: { warehouse: { type: "string", description: "Snowflake warehouse" } },
      }),
      tool("db_list", "List tables."),
    ]);
    expect(names(schema, "snowflake")).toEqual(["db_query"]);
  });

  it("takes the user's synonyms besides the defaults", () => {
    const catalog = [tool("deploy_service", "Roll out a new build."), tool("list_builds", "List builds.")];
    expect(names(new ToolRanker(catalog), "promote it")).toEqual([]);
    const extended = new ToolRanker(catalog, { promote: ["deploy", "roll out"], "go live": ["deploy"] });
    expect(names(extended, "promote it")).toEqual(["deploy_service"]);
    expect(names(extended, "make the service go live")[0]).toBe("deploy_service");
    // The defaults still apply.
    expect(names(extended, "show every build")[0]).toBe("list_builds");
  });

  it("ranks equal scores by name, honours the limit, and handles an empty catalog", () => {
    const twins = new ToolRanker([tool("b_thing", "Frobnicate."), tool("a_thing", "Frobnicate.")]);
    expect(names(twins, "frobnicate")).toEqual(["a_thing", "b_thing"]);
    expect(names(twins, "frobnicate", 1)).toEqual(["a_thing"]);
    expect(new ToolRanker([]).search("anything", 3)).toEqual([]);
  });

  it("rankTools ranks in one call, with the options search_tools takes", () => {
    const hits = rankTools(tools, "money back", { limit: 1 });
    expect(hits).toEqual([{ name: "stripe_refund_payment", score: expect.any(Number) }]);
    expect(rankTools(tools, "ship", { synonyms: { ship: ["export"] } })[0]!.name).toBe("drive_export_pdf");
  });
});

describe("schema text every tool has alike", () => {
  // Every schema says "the call" (options of the call): the word tells no tool apart there.
  const schema = {
    type: "object",
    properties: { options: { type: "object", description: "Optional settings of the call." } },
  };
  const ranker = new ToolRanker(
    [
      ["phone_make_call", "Place an outbound phone call that plays a message."],
      ["phone_buy_phone_number", "Buy a phone number in a country."],
      ["phone_send_sms", "Send an SMS text message to a phone number."],
      ["phone_lookup_number", "Look up a phone number's carrier and type."],
      ["mail_send_email", "Send an email."],
      ["mail_read_email", "Read an email."],
      ["files_upload_file", "Upload a file."],
      ["files_delete_file", "Delete a file."],
      ["chat_post_message", "Post a message to a channel."],
      ["chat_list_channels", "List the channels."],
    ].map(([name, description]) => tool(name!, description!, schema)),
  );

  it("does not count in a word's rarity, so that a tool's own name word counts", () => {
    expect(names(ranker, "ring the sales line", 1)).toEqual(["phone_make_call"]);
    expect(names(ranker, "phone the support line and play the reminder", 1)).toEqual(["phone_make_call"]);
  });

  it("leaves a small tool set's schema words alone", () => {
    const few = new ToolRanker([
      tool("a_make_call", "Place a call.", schema),
      tool("a_send_sms", "Send an SMS.", schema),
    ]);
    expect(names(few, "call Ann", 1)).toEqual(["a_make_call"]);
  });
});
