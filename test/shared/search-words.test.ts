import { describe, expect, it } from "vitest";
import { hyphenatedWords, plainWords, searchWords, stem, stopWordPairs } from "../../src/shared/search-words";

const same2 = (a: string, b: string) => expect(stem(a)).toBe(stem(b));

describe("search words", () => {
  it("splits at non-alphanumerics, camelCase and snake_case, drops one-letter bits, and reads an acronym's plural as its singular", () => {
    expect(plainWords("createIssue for GitHub_repo: what's PRs")).toEqual([
      "create",
      "issue",
      "for",
      "git",
      "hub",
      "repo",
      "what",
      "pr",
    ]);
    expect(plainWords("URLs of the APIs, not SMS")).toEqual(["url", "of", "the", "api", "not", "sms"]);
  });

  it("leaves out stop words and question words, and stems the rest", () => {
    expect(searchWords("What are the labels of my mailbox?")).toEqual(["label", "mailbox"]);
    expect(searchWords("Which channels did Priya post to")).toEqual(["channel", "priya", "post"]);
    expect(plainWords("HTTPServer IDs")).toEqual(["http", "server", "id"]);
  });

  it("brings the forms of a word to one stem", () => {
    const same = (...words: string[]) => expect(new Set(words.map(stem)).size).toBe(1);
    same("create", "creates", "created", "creating");
    same("label", "labels", "labeled", "labeling");
    same("schedule", "scheduled", "scheduling");
    same("query", "queries");
    same("stop", "stopped", "stopping");
    same("match", "matches");
    same("remind", "reminder", "reminders");
    same("edit", "editor");
    same("bill", "billing");
    expect(stem("status")).toBe("status");
    expect(stem("access")).toBe("access");
    expect(stem("sms")).toBe("sms");
    expect(stem("v2")).toBe("v2");
    expect(stem("s3")).toBe("s3");
  });

  it("takes -ing only off a stem with a vowel, and keeps nouns in -ing whose verb means another thing", () => {
    expect(stem("string")).toBe("string");
    expect(stem("spring")).toBe("spring");
    same2("recording", "recordings");
    same2("setting", "settings");
    expect(stem("recording")).not.toBe(stem("record"));
    expect(stem("settings")).not.toBe(stem("set"));
    expect(stem("evening")).not.toBe(stem("even"));
  });

  it("keeps whole the people named by an action whose verb names another thing", () => {
    same2("requester", "requesters");
    expect(stem("requester")).not.toBe(stem("request"));
    expect(stem("reporters")).not.toBe(stem("report"));
    expect(stem("sender")).not.toBe(stem("send"));
    same2("remind", "reminder");
  });

  it("keeps hyphenated words and stop-word pairs that stop words would break", () => {
    expect(hyphenatedWords("Append to-dos; page the on-call responder")).toEqual(["todo", "oncall"]);
    expect(stopWordPairs(["who", "is", "on", "call", "now", "mark", "as", "read"])).toEqual([
      "on call",
      "mark as",
      "as read",
    ]);
    expect(searchWords("get_on_call")).toContain("on call");
    expect(searchWords("mark_as_read")).toEqual(["mark", "read", "mark as", "as read"]);
  });
});

describe("contractions typed without their apostrophe", () => {
  it("are read as their first word: stop words and negations, not words to search with", () => {
    expect(searchWords("whats on my calendar")).toEqual(["calendar"]);
    expect(plainWords("dont send it")).toEqual(["don", "send", "it"]);
    expect(plainWords("Whos on call")).toEqual(["who", "on", "call"]);
  });

  it("read can't as cannot, with or without its apostrophe, not as its opposite can", () => {
    expect(plainWords("I can't make it")).toEqual(["cannot", "make", "it"]);
    expect(plainWords("cant attend, can’t come")).toEqual(["cannot", "attend", "cannot", "come"]);
    expect(plainWords("Cancel the scan")).toEqual(["cancel", "the", "scan"]);
    expect(searchWords("cannot")).toEqual([]);
  });

  it("leave a camelCase name that begins like one whole: WhatsApp is no `what`", () => {
    // As a tool's name indexes it: its words kept, none dropped as a stop word.
    expect(searchWords("WhatsApp the driver")).toEqual([stem("whats"), "app", stem("driver")]);
  });
});

describe("British doubled l", () => {
  it("meets the word as tools write it: cancelled, labelling, traveller", () => {
    expect(stem("cancelled")).toBe(stem("cancel"));
    expect(stem("cancelling")).toBe(stem("cancels"));
    expect(stem("labelled")).toBe(stem("label"));
    expect(stem("traveller")).toBe(stem("travel"));
    expect(stem("dialled")).toBe(stem("dial"));
  });

  it("keeps the double l of a word that has it: billing, called, installed, spelled", () => {
    expect(stem("billing")).toBe("bill");
    expect(stem("called")).toBe("call");
    expect(stem("installed")).toBe("install");
    expect(stem("spelled")).toBe("spell");
  });
});

describe("stems kept apart from stop words", () => {
  it("a word that is no stop word does not stem into one", () => {
    // `note` would stem to `not`: "the meeting notes page" read as "not page" (silence paging).
    expect(stem("notes")).not.toBe("not");
    expect(stem("note")).toBe(stem("notes"));
    expect(stem("noted")).toBe(stem("notes"));
    expect(stem("canned")).not.toBe("can");
    expect(stem("done")).not.toBe("don");
    // Stop words and other words stem as before.
    expect(stem("not")).toBe("not");
    expect(stem("created")).toBe("creat");
  });
});
