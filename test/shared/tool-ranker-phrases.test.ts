/**
 * The second vocabulary round of issue 45: where a query's phrase says the action and its first
 * verb does not — a verb whose particle comes later (`put the page away`), a light verb before the
 * phrase that carries the action (`give the team a heads up`). Each case is a class of query over a
 * small catalog of its own, not a bench query.
 */
import { describe, expect, it } from "vitest";
import { readQuery } from "../../src/shared/query-slots";
import { ToolRanker } from "../../src/shared/tool-ranker";
import { longestKey, synonymTable } from "../../src/shared/tool-synonyms";

const tool = (name: string, description: string) => ({ name, description, inputSchema: { type: "object" } });

const ranker = new ToolRanker([
  tool("notes_archive_page", "Archive a page: it is hidden from search but kept."),
  tool("notes_add_comment", "Add a comment to a page."),
  tool("files_put_object", "Put an object into a storage bucket."),
  tool("files_share_file", "Share a file with people, as viewer or editor."),
  tool("calendar_create_event", "Create an event on a calendar."),
  tool("calendar_delete_event", "Delete an event from a calendar."),
  tool("tracker_assign_issue", "Assign an issue to a member of the project."),
  tool("chat_post_message", "Post a message to a channel."),
  tool("shop_refund_payment", "Refund a payment to the customer."),
]);
const first = (query: string) => ranker.search(query, 1)[0]?.name;

const synonyms = synonymTable();
const reader = { synonyms, longestKey: longestKey(synonyms), indexed: () => false };
const slot = (query: string, word: string) =>
  readQuery(query, reader).slots.find((each) => each.words[0] === word);

describe("ToolRanker: a verb whose particle comes later", () => {
  it("reads the verb with its particle when the two are a phrase, before the verb alone", () => {
    // `put` alone is to upload; `put … away` is to archive. `call` alone is a phone call.
    expect(slot("put the old page away", "put")?.synonyms).toContainEqual(["archiv"]);
    expect(slot("call the planning meeting off", "call")?.synonyms).toContainEqual(["cancel"]);
    expect(slot("give the customer's money back", "giv")?.synonyms).toContainEqual(["refund"]);
  });

  it("ranks by the phrase: put the page away archives it, give the payment back refunds it", () => {
    expect(first("put the launch page away")).toBe("notes_archive_page");
    expect(first("give the buyer's payment back")).toBe("shop_refund_payment");
  });
});
