/**
 * The signals of the second round of issue 45 beside the words: entity shapes, questions,
 * coordination, separable phrasal verbs and the verb classes of the default vocabulary.
 */
import { describe, expect, it } from "vitest";
import { ToolRanker } from "../../src/shared/tool-ranker";

const tool = (name: string, description: string, inputSchema: unknown = { type: "object" }) => ({
  name,
  description,
  inputSchema,
});

const tools = [
  tool("drive_move_file", "Move a document to another folder."),
  tool("drive_share_file", "Share a document with people, as viewer or editor."),
  tool("tracker_transition_issue", "Move a ticket to another status of its workflow."),
  tool("tracker_assign_issue", "Assign a ticket to a person."),
  tool("tracker_add_worklog", "Log time spent on a ticket."),
  tool("chat_post_message", "Post a message to a channel."),
  tool("chat_create_channel", "Create a new channel and invite members."),
  tool("chat_list_channels", "List the channels of the workspace."),
  tool("mail_send_email", "Send an email to recipients."),
  tool("mail_forward_email", "Forward an email to another address."),
  tool("calendar_create_event", "Create an event on the calendar."),
  tool("calendar_list_events", "List the events on the calendar between two dates."),
  tool("calendar_update_event", "Change an event's time or title."),
  tool("billing_create_coupon", "Create a discount coupon."),
  tool("code_search", "Search code across repositories."),
  tool("calls_get_recording", "Get the recording of a phone call."),
];
const ranker = new ToolRanker(tools);
const first = (query: string) => ranker.search(query, 3)[0]?.name;

describe("ToolRanker signals", () => {
  it("reads entity shapes: an issue key means a ticket, a #channel a channel, 20% off a coupon", () => {
    // Without the key, "move" alone points at the file move.
    expect(first("move it to the archive")).toBe("drive_move_file");
    expect(first("move PROJ-12 to Done")).toBe("tracker_transition_issue");
    expect(first("tell #general that the deploy is finished")).toBe("chat_post_message");
    expect(first("a 20% off code for the spring sale")).toBe("billing_create_coupon");
  });

  it("searches with a shape's meaning, not its value: #incidents is a channel, not incidents", () => {
    const values = new ToolRanker([
      ...tools,
      tool("oncall_list_incidents", "List open and recent incidents."),
      tool("chat_get_channel_history", "Read the recent messages of a channel."),
    ]);
    expect(values.search("what has been said in #incidents today", 1)[0]!.name).toBe(
      "chat_get_channel_history",
    );
    expect(values.search("list the incidents", 1)[0]!.name).toBe("oncall_list_incidents");
  });

  it("maps everyday verbs to the verbs of APIs", () => {
    expect(first("give the ticket to Sam")).toBe("tracker_assign_issue");
    expect(first("record 2 hours of work on PROJ-7")).toBe("tracker_add_worklog");
    expect(first("push the design review to Friday")).toBe("calendar_update_event");
    expect(first("let Tom edit the budget document, as an editor")).toBe("drive_share_file");
  });

  it("joins a verb with its particle a few words later (pass this email along)", () => {
    expect(first("pass this email along to my accountant")).toBe("mail_forward_email");
    // Too far apart, the words are read one by one.
    expect(first("pass the email from last week about the offsite and the budget along")).not.toBe(
      "mail_forward_email",
    );
  });

  it("favours a reading tool for a question", () => {
    expect(first("events on my calendar")).toBe("calendar_create_event");
    expect(first("what events are on my calendar")).toBe("calendar_list_events");
    expect(first("any events on my calendar?")).toBe("calendar_list_events");
  });

  it("ranks a tool matching more of the query above one matching a single word often", () => {
    const coordinated = new ToolRanker([
      tool("notes_archive", "Archive archived archives: archive the archive."),
      tool("notes_archive_page", "Archive a page of notes."),
    ]);
    expect(coordinated.search("archive the notes page", 2).map((hit) => hit.name)[0]).toBe(
      "notes_archive_page",
    );
  });

  it("does not count a shape's words twice when the query says them", () => {
    // "schedule" is said and "tomorrow" would add it again: the event tool is not pushed past.
    const scheduling = new ToolRanker([
      tool("chat_schedule_message", "Schedule a message for later."),
      tool("calendar_create_event", "Create a calendar event: schedule a meeting at a date."),
    ]);
    const hits = scheduling.search("schedule a meeting tomorrow", 2).map((hit) => hit.name);
    expect(hits[0]).toBe("calendar_create_event");
  });
});
