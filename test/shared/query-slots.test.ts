import { describe, expect, it } from "vitest";
import { readQuery } from "../../src/shared/query-slots";
import { longestKey, synonymTable } from "../../src/shared/tool-synonyms";
import { catalogFirst } from "./ranker-test-kit";

const synonyms = synonymTable();
const reader = {
  synonyms,
  longestKey: longestKey(synonyms),
  indexed: (word: string) => ["read", "set up"].includes(word),
};
const words = (query: string) => readQuery(query, reader).slots.map((slot) => slot.words.join(" "));

describe("readQuery", () => {
  it("lets a kind named before a value say what the value is: `ticket #77` is no pull request", () => {
    const alternatives = (query: string) => readQuery(query, reader).slots.flatMap((slot) => slot.synonyms);
    expect(alternatives("answer ticket #77 saying the fix is live")).not.toContainEqual(["pull", "request"]);
    expect(alternatives("answer #77 saying the fix is live")).toContainEqual(["pull", "request"]);
  });

  it("reads a question, or things named by their state, as asking to read", () => {
    expect(readQuery("what's on my calendar", reader).reads).toBe(true);
    expect(readQuery("open PRs by dana", reader).reads).toBe(true);
    expect(readQuery("pending support tickets", reader).reads).toBe(true);
    expect(readQuery("open a ticket for Acme", reader).reads).toBe(false);
    // After a verb, the state only says which: "add new users" adds.
    expect(readQuery("add new users to the team", reader).reads).toBe(false);
    expect(readQuery("close all open tickets", reader).reads).toBe(false);
    // A state word before a stop word or a singular is no listing.
    expect(readQuery("new story in the backlog", reader).reads).toBe(false);
  });

  it("gives the state word no verb synonyms when it describes what to list, only its status", () => {
    const [open] = readQuery("open PRs", reader).slots;
    expect(open).toEqual({ words: ["open"], synonyms: [["status"], ["stat"]] });
    const [verb] = readQuery("open a ticket", reader).slots;
    expect(verb!.synonyms).toContainEqual(["creat"]);
  });

  it("keeps a changing synonym's verb only for the query's first word", () => {
    const first = readQuery("text Bob the code", reader).slots[0]!;
    expect(first.synonyms).toContainEqual(["send", "sms"]);
    const later = readQuery("forward texts to Bob", reader).slots.find((slot) => slot.words[0] === "text")!;
    expect(later.synonyms).toContainEqual(["sms"]);
    expect(later.synonyms).not.toContainEqual(["send", "sms"]);
  });

  it("leaves out the word a negation negates, and reads un- words by an indexed base", () => {
    expect(words("lead not qualified by sales")).toEqual(["lead", "sal"]);
    const unread = readQuery("unread mail", reader).slots[0]!;
    expect(unread).toEqual({ words: ["unread"], synonyms: [["read"]] });
  });

  it("matches a phrasal verb as its pair, and drops a synonym another slot says", () => {
    expect(words("set up a calendar")[0]).toBe("set up");
    const sms = readQuery("SMS texts", reader).slots;
    expect(sms[1]).toEqual({ words: ["text"], synonyms: [] });
  });
});

describe("readQuery: asking for a list", () => {
  it("reads things in the plural after a showing first word as a list to see", () => {
    expect(readQuery("show the calls we placed this week", reader).lists).toBe(true);
    expect(readQuery("which servers are reporting in?", reader).lists).toBe(true);
    expect(readQuery("what SMS texts came in overnight", reader).lists).toBe(true);
  });

  it("does not for one thing, another first word, or a plural far from the start", () => {
    expect(readQuery("show the invoice for Acme", reader).lists).toBe(false);
    expect(readQuery("where in our GitHub repos is parseDate defined?", reader).lists).toBe(false);
    expect(readQuery("close the tickets from Acme", reader).lists).toBe(false);
    expect(readQuery("what is the status of the deploy for the web servers", reader).lists).toBe(false);
  });

  it("reads a count of things as a list of them, not a count of a measure", () => {
    expect(readQuery("how many files are in the images bucket?", reader).lists).toBe(true);
    expect(readQuery("how many times did we call Acme last week?", reader).lists).toBe(true);
    expect(readQuery("how many gigabytes does the events table use?", reader).lists).toBe(false);
    expect(readQuery("how many hours did I log this week?", reader).lists).toBe(false);
  });
});

describe("readQuery: a value taken out leaves no pair of the words around it", () => {
  const pairs = { ...reader, indexed: (word: string) => ["mark as", "as read"].includes(word) };
  const read = (query: string) => readQuery(query, pairs).slots.map((slot) => slot.words.join(" "));

  it("reads `mark OPS-12 as blocked` with no `mark as`: the issue key stood between the two", () => {
    expect(read("mark OPS-12 as blocked by OPS-9")).not.toContain("mark as");
    expect(read("mark these as read")).toContain("as read");
    expect(read("mark as read")).toContain("mark as");
  });
});

describe("a thing's status named in a query", () => {
  const slotOf = (query: string, word: string) =>
    readQuery(query, reader).slots.find((slot) => slot.words.includes(word));

  it("reads a status set as a target (`back to open`) as a status, not a verb", () => {
    expect(slotOf("open a ticket for the outage", "open")?.synonyms).toContainEqual(["creat"]);
    expect(slotOf("write up the notes as a new page", "new")?.synonyms).toContainEqual(["creat"]);
  });

  it("counts a target's own word as an alternative only: it is a value, not what is asked", () => {
    const target = readQuery("move PAY-9 back to open", reader).slots.find((slot) =>
      slot.synonyms.some((words) => words[0] === "open"),
    );
    expect(target).toEqual({ words: [], synonyms: [["open"], ["status"], ["stat"]] });
  });

  it("reads a status that names things to list (`closed tickets`) as a status", () => {
    expect(slotOf("show closed tickets from last week", "clos")?.synonyms).toContainEqual(["status"]);
    expect(slotOf("show new messages", "new")?.synonyms ?? []).not.toContainEqual(["status"]);
  });
});

describe("a verb and its particle apart", () => {
  const first = (query: string) => readQuery(query, reader).slots[0]!;

  it("does not count the stop words between a verb and its particle", () => {
    expect(first("put the outdated spec page away").synonyms).toContainEqual(["archiv"]);
    expect(first("pass this email from the client on to legal").synonyms).toContainEqual(["forward"]);
  });

  it("counts every word after a stop word: `are` is no verb to reach far from", () => {
    const slots = readQuery("servers are reporting in and one is down", reader).slots;
    expect(slots.find((slot) => slot.words[0] === "are")).toBeUndefined();
  });
});

describe("a question that asks where", () => {
  it("asks to find the thing: a hint of search and find", () => {
    const hint = (query: string) =>
      readQuery(query, reader).slots.find(
        (slot) => slot.words.length === 0 && slot.synonyms.some((w) => w[0] === "search"),
      );
    expect(hint("where's the onboarding checklist doc")?.synonyms).toEqual([["search"], ["find"]]);
    expect(hint("where is the Q3 budget sheet?")).toBeDefined();
    expect(hint("show the Q3 budget sheet")).toBeUndefined();
  });
});

describe("readQuery: a light verb before a noun compound", () => {
  it("keeps the light verb's command when the phrase after it names a thing, not an action", () => {
    // `action items` and `support request` are things: "make a page with the action items" creates.
    expect(readQuery("make a wiki page with the action items", reader).slots[0]!.synonyms).toContainEqual([
      "creat",
    ]);
    expect(
      readQuery("make a support request for the broken login", reader).slots[0]!.synonyms,
    ).toContainEqual(["creat"]);
    // A verb phrase (a stop word in it) still takes the command: a heads up is a message.
    expect(readQuery("give the team a heads up", reader).slots[0]!.synonyms).toEqual([]);
  });
});

describe("readQuery: a verb and its particle apart", () => {
  const slot = (query: string, word: string) =>
    readQuery(query, reader).slots.find((each) => each.words[0] === word);

  it("counts only the words but stop words between a verb and its particle", () => {
    // Four words between, two of them stop words: still `pass along`, forwarding.
    expect(slot("pass that message from HR along to Raj", "pass")?.synonyms).toContainEqual(["forward"]);
    expect(slot("put all of the old pages away", "put")?.synonyms).toContainEqual(["archiv"]);
  });

  it("leaves a particle to the nearer repeat of the verb", () => {
    const slots = readQuery("which servers are reporting in and are any down?", reader).slots;
    expect(slots.filter((each) => each.words[0] === "are")).toHaveLength(1);
  });
});

describe("a command to show things in the plural", () => {
  const listWeight = (query: string) =>
    readQuery(query, reader).slots.find((slot) => slot.synonyms.some((each) => each.join(" ") === "list"))
      ?.weight;

  it("asks plainly for a list, more than a question in the plural hints at one", () => {
    expect(listWeight("show all the calendars I have")).toBeGreaterThan(
      listWeight("which calendars do I have")!,
    );
  });

  it("ranks the listing of those things first, not getting one", () => {
    expect(catalogFirst("show all my calendars")).toBe("calendar_list_calendars");
    expect(catalogFirst("show all the calendars shared with me")).toBe("calendar_list_calendars");
  });
});

describe("a verb and its preposition", () => {
  it("means what its synonyms say: `look for` keeps no `look` to match another pair's", () => {
    expect(words("look for the budget")[0]).toBe("");
    expect(words("look up the budget")[0]).not.toBe("");
  });

  it("ranks searching first, not looking a profile up", () => {
    expect(catalogFirst("look for the message where Ana mentioned the budget in Slack")).toBe(
      "slack_search_messages",
    );
  });
});

describe("a question whether someone wrote back", () => {
  it("asks to search for the message, as a `where` question asks to find a thing", () => {
    const searched = (query: string) =>
      readQuery(query, reader).slots.some((slot) =>
        slot.synonyms.some((each) => each.join(" ") === "search"),
      );
    expect(searched("did the landlord write back about the deposit?")).toBe(true);
    expect(searched("has Omar emailed us back")).toBe(true);
    expect(searched("did the build pass?")).toBe(false);
  });

  it("ranks searching the mailbox first", () => {
    expect(catalogFirst("did billing@acme.com email us back about the renewal?")).toBe("gmail_search_emails");
  });
});

describe("a question whether someone mentioned a thing", () => {
  it("ranks searching the messages first, not reading a channel", () => {
    expect(catalogFirst("did anyone mention the migration in Slack last week")).toBe("slack_search_messages");
  });
});
