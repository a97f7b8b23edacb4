import { describe, expect, it } from "vitest";
import { queryShapes, readShapes } from "../../src/shared/query-shapes";
import { catalogFirst } from "./ranker-test-kit";

const kinds = (query: string) => queryShapes(query).map((shape) => shape.kind);

describe("query shapes", () => {
  it("tells a #channel from a #number, and finds issue keys", () => {
    expect(kinds("post it in #eng-alerts")).toEqual(["channel"]);
    expect(kinds("comment on PR #311")).toEqual(["number-ref"]);
    expect(kinds("move PROJ-12 to Done")).toEqual(["issue-key", "status"]);
    // Lower case or a single letter is no issue key.
    expect(kinds("use utf-8 and x-1")).toEqual([]);
  });

  it("finds addresses, mentions, URLs, paths and phone numbers", () => {
    expect(kinds("forward it to ann.lee+work@example.co.uk")).toEqual(["email"]);
    expect(kinds("ask @dana about it")).toEqual(["mention"]);
    // An s3:// address names a stored object: a path, not a web link.
    expect(kinds("download s3://assets/logo.png")).toEqual(["path"]);
    expect(kinds("open https://example.com/a")).toEqual(["url"]);
    // A bare domain is a value too: `stripe.com` names no service to search in.
    expect(readShapes("label mail that comes from stripe.com").rest.trim()).toBe(
      "label mail that comes from",
    );
    expect(kinds("read src/index.ts")).toEqual(["path"]);
    expect(kinds("text +1 415 555 0100")).toEqual(["phone"]);
  });

  it("reads sharing a thing in a #channel as uploading or posting it there, the verb taken out", () => {
    expect(kinds("share the screenshot in the #bugs channel")).toEqual(["in-channel", "channel"]);
    expect(readShapes("share the screenshot in #design").rest.trim()).toBe("the screenshot in");
    expect(kinds("share the budget doc with Dana")).toEqual([]);
  });

  it("reads a branch named as where a thing is as a ref, a value: `main` is no branch to create", () => {
    expect(kinds("did the build pass on main?")).toEqual(["on-branch"]);
    expect(readShapes("is CI green on the release-2.0 branch").rest.trim()).toBe("is CI green");
    expect(kinds("cut a branch off main")).toEqual([]);
  });

  it("takes a file name with several dots whole: no `gz` of backup.tar.gz is left to search with", () => {
    const left = (query: string) => readShapes(query).rest.split(/\s+/).filter(Boolean);
    expect(left("drop backup.tar.gz into the bucket")).toEqual(["drop", "into", "the", "bucket"]);
    expect(left("upload app.min.js now")).toEqual(["upload", "now"]);
  });

  it("tells money from a discount and a percentage", () => {
    expect(kinds("refund $49.99")).toEqual(["money"]);
    expect(kinds("a 20% off code")).toEqual(["discount"]);
    expect(kinds("alert when CPU is at 90%")).toEqual(["percent"]);
    expect(kinds("charge 200 EUR")).toEqual(["money"]);
  });

  it("finds dates ahead and behind, durations and ages", () => {
    expect(kinds("move it to next Tuesday at 3pm")).toEqual(["to-time", "future"]);
    expect(kinds("what was said yesterday")).toEqual(["past"]);
    expect(kinds("log 2h on it")).toEqual(["duration"]);
    expect(kinds("log two hours on it")).toEqual(["duration"]);
    expect(kinds("delete files older than 30 days")).toContain("age");
    // "an ad" is not "a day".
    expect(kinds("create an ad campaign")).toEqual([]);
  });

  it("finds emoji, percentiles, conditions and what a question asks for", () => {
    expect(kinds("drop a 🎉 on it")).toEqual(["emoji"]);
    expect(kinds("react with :tada: to it")).toEqual(["emoji"]);
    expect(kinds("p99 of checkout")).toEqual(["percentile"]);
    expect(kinds("tell me when errors go above the limit")).toEqual(["condition"]);
    expect(kinds("why is it slow")).toEqual(["why"]);
    expect(kinds("how many users signed up")).toEqual(["how-much"]);
    expect(kinds("who's on call")).toEqual(["who"]);
  });

  it("reads quoted text as a value, found before the shapes its words would make", () => {
    const { shapes, rest } = readShapes("set the topic to 'On call this week: Sam'");
    expect(shapes.map((shape) => shape.kind)).toEqual(["quoted"]);
    expect(rest.trim()).toBe("set the topic to");
    // An apostrophe is no quote.
    expect(kinds("what's on Dana's calendar")).toEqual([]);
  });

  it("finds query syntax: SQL, field filters, where and sort clauses", () => {
    expect(kinds("SELECT id FROM users WHERE age > 3")).toEqual(["sql"]);
    expect(readShapes("select the newest rows from orders").rest.trim()).toBe("");
    // English "select … from" is no SQL.
    expect(kinds("select a template from the gallery")).toEqual([]);
    expect(kinds("Select the plan from the pricing page")).toEqual([]);
    expect(kinds("errors from service:billing")).toEqual(["field-filter"]);
    // The field's name stays a word to search with; its value is taken out.
    expect(readShapes("errors from service:billing").rest.trim()).toBe("errors from service");
    expect(kinds("rows where Status is Open")).toEqual(["where"]);
    // A comparison, `whose`, an article before the field: still a condition that picks records.
    expect(kinds("orders where total > 500")).toEqual(["where"]);
    expect(kinds("candidates whose stage is Onsite")).toEqual(["where"]);
    expect(kinds("pages where the owner is Kim")).toEqual(["where"]);
    expect(kinds("the tickets, newest first")).toEqual(["where"]);
    // A time or a URL is no field filter.
    expect(kinds("at 10:30")).not.toContain("field-filter");
    expect(kinds("open https://example.com")).toEqual(["url"]);
  });

  it("finds meetings named by their time or kind, and by a length on a day ahead", () => {
    expect(kinds("push my 3pm to Thursday")).toContain("meeting");
    expect(kinds("call off tomorrow's 1:1")).toContain("meeting");
    expect(kinds("30 minutes with Ana next Tuesday")).toContain("timed-meeting");
    // A length alone, or one in the past, is no meeting.
    expect(kinds("mute it for 30 minutes")).not.toContain("timed-meeting");
    expect(kinds("at 3pm")).not.toContain("meeting");
  });

  it("reads moving a thing to a time as rescheduling it, and a table.column_name as a column", () => {
    expect(kinds("move my 3pm dentist appointment to 4:30")).toContain("to-time");
    expect(kinds("move the review to Friday")).toContain("to-time");
    // Moved to a place or a status, it is no rescheduling.
    expect(kinds("move the file to the Archive folder")).toEqual([]);
    expect(kinds("add an index on orders.customer_id")).toEqual(["column"]);
    expect(kinds("mail it to ann@example.com")).not.toContain("column");
  });

  it("reads 'who changed' as a question about history, and 'the last 15 minutes' as the past", () => {
    expect(kinds("who changed the pricing doc")).toContain("who-did");
    expect(kinds("who was the document last edited by")).not.toContain("who-did");
    expect(kinds("errors in the last 15 minutes")).toEqual(["past"]);
  });

  it("reads a date in a question as what is asked about, and blanks out consumed values", () => {
    expect(readShapes("send it tomorrow").shapes[0]!.alternatives).toContainEqual(["schedul"]);
    expect(readShapes("what's on tomorrow", true).shapes[0]!.alternatives).toEqual([["dat"]]);
    const { rest } = readShapes("tell #incidents about PROJ-7, cc ann@example.com");
    expect(rest.split(/[^a-z]+/i).filter(Boolean)).toEqual(["tell", "about", "cc"]);
  });

  it("weights a plain shape above a hint, and gives stemmed alternatives", () => {
    const [key] = queryShapes("PROJ-7");
    const [date] = queryShapes("tomorrow");
    expect(key!.alternatives).toEqual([["issu"], ["ticket"]]);
    expect(key!.weight).toBeGreaterThan(date!.weight);
  });
});

describe("things picked by sender and subject", () => {
  it("reads `from … about …` (either order) as a search", () => {
    expect(kinds("anything from the landlord about the deposit?")).toContain("from-about");
    expect(kinds("mails about the renewal from Acme")).toContain("from-about");
    const shape = queryShapes("tickets from Contoso about invoices").find(
      (found) => found.kind === "from-about",
    );
    expect(shape!.alternatives).toContainEqual(["search"]);
  });

  it("not `from` or `about` alone", () => {
    expect(kinds("copy the file from the bucket")).not.toContain("from-about");
    expect(kinds("write a note about the outage")).not.toContain("from-about");
  });
});

describe("a thing called by its name", () => {
  it("reads what a thing is called, named or titled as a value", () => {
    expect(kinds("make a folder called Invoices 2025")).toEqual(["named"]);
    expect(readShapes("create a page titled Meeting Notes").rest).not.toContain("Meeting");
    expect(readShapes("set up a bucket named acme-logs in us-east-2").rest).not.toContain("logs");
  });

  it("not a caller's verb, nor a plain word after it", () => {
    expect(kinds("who called Acme yesterday")).not.toContain("named");
    expect(kinds("the customer called Dana about it")).not.toContain("named");
    expect(kinds("list calls we called back")).not.toContain("named");
  });
});

describe("a team named by its work", () => {
  it("reads `the payments team` as a value, not payments to act on", () => {
    expect(readShapes("who's on call for the payments team tonight").rest).not.toContain("payments");
    expect(kinds("page the database squad")).toEqual(["team"]);
  });

  it("not a determiner's or a possessive's team: the team itself is what is meant", () => {
    expect(kinds("let the whole team know")).not.toContain("team");
    expect(kinds("change Tom's team to Sales")).not.toContain("team");
  });
});

describe("query shapes: a pasted statement and where to run it", () => {
  it("ends the statement before a last `in <service>` or `on the <database>`, which stay words", () => {
    const rest = (query: string) => readShapes(query, false).rest.replace(/\s+/g, " ").trim();
    expect(rest("run SELECT Id FROM Account WHERE Industry = 'Retail' in Salesforce")).toBe(
      "run in Salesforce",
    );
    expect(rest("SELECT count(*) FROM orders on the billing database")).toBe("on the billing database");
    expect(rest("select id from users in warehouse")).toBe("in warehouse");
    // SQL's own IN and ON stay in the statement.
    expect(rest("run SELECT * FROM a JOIN b ON b.id = a.id WHERE a.x IN (1, 2)")).toBe("run");
  });
});

describe("query shapes: a duration in words", () => {
  it("finds a duration counted in words, with a half, or half an hour", () => {
    expect(kinds("book two and a half hours against that ticket")).toEqual(["duration"]);
    expect(kinds("spent forty-five minutes on the login bug")).toEqual(["duration"]);
    expect(kinds("a couple of hours on the import")).toEqual(["duration"]);
    expect(kinds("half an hour on the review")).toEqual(["duration"]);
    // A time ago or a span back is no duration spent.
    expect(kinds("two days ago")).not.toContain("duration");
  });
});

describe("query shapes: a time ahead of a thing", () => {
  it("is when to be reminded, not a duration spent", () => {
    expect(kinds("give me a heads-up an hour before the flight")).toEqual(["ahead"]);
    expect(kinds("ping me two days ahead of the launch")).toEqual(["ahead"]);
    expect(kinds("log two hours on the release")).toEqual(["duration"]);
  });
});

describe("a question whether a thing exists", () => {
  it("reads `is there a …`, `any …` as a search for it", () => {
    expect(kinds("is there a doc on the travel policy?")).toContain("exists");
    expect(kinds("any mails from the school this week?")).toContain("exists");
    expect(kinds("are there any tickets about refunds")).toContain("exists");
  });

  it("not `is there` or `any` inside a command, or `is` about a named thing", () => {
    expect(kinds("archive any mails from the school")).not.toContain("exists");
    expect(kinds("is the build green")).not.toContain("exists");
  });

  it("ranks the search for such a thing first", () => {
    expect(catalogFirst("any mails from my dentist this month?")).toBe("gmail_search_emails");
    expect(catalogFirst("is there a Notion page on parental leave?")).toBe("notion_search_pages");
  });
});

describe("a channel named by a noun", () => {
  it("reads the word before `channel` as the channel's name, a value", () => {
    expect(readShapes("post the notes in the incidents channel").rest).not.toContain("incidents");
    expect(kinds("drop the mockup into the bugs channel")).toContain("channel-name");
  });

  it("not a kind of channel or the chat service's name", () => {
    expect(kinds("list the private channels")).not.toContain("channel-name");
    expect(kinds("post in the slack channel")).not.toContain("channel-name");
    expect(kinds("make a new channel for the launch")).not.toContain("channel-name");
  });

  it("ranks posting there first, not the incident the name says", () => {
    expect(catalogFirst("post the notes in the incidents channel")).toBe("slack_post_message");
  });
});

describe("a file sent to a channel", () => {
  it("reads sending or posting a file in a #channel as uploading it there", () => {
    expect(kinds("send the budget spreadsheet into #finance")).toContain("in-channel");
    expect(kinds("post the Q3 sales deck in #sales")).toContain("in-channel");
  });

  it("not a message sent there, nor a file sent elsewhere", () => {
    expect(kinds("send a message to #general")).not.toContain("in-channel");
    expect(kinds("send the spreadsheet to Dana")).not.toContain("in-channel");
  });

  it("ranks uploading the file first", () => {
    expect(catalogFirst("send the expenses sheet to #accounting")).toBe("slack_upload_file");
  });
});

describe("people added to a meeting", () => {
  it("reads adding, inviting or including someone in a meeting as changing its attendees", () => {
    expect(kinds("add Omar to the budget meeting")).toContain("to-meeting");
    expect(kinds("invite Ann and Raj to Monday's retro")).toContain("to-meeting");
  });

  it("not a meeting added, nor a thing added to a meeting's page", () => {
    expect(kinds("add a meeting with Omar")).not.toContain("to-meeting");
    expect(kinds("add the notes to the meeting page")).not.toContain("to-meeting");
  });

  it("ranks changing the event first, not making one", () => {
    expect(catalogFirst("add Omar to the budget meeting")).toBe("calendar_update_event");
    expect(catalogFirst("invite Ann to the standup")).toBe("calendar_update_event");
  });
});

describe("where a thing is", () => {
  it("asks for its location among its details: where an event is is one event's details", () => {
    expect(catalogFirst("where is the quarterly planning lunch")).toBe("calendar_get_event");
    expect(catalogFirst("where's the offsite")).toBe("calendar_get_event");
  });
});

describe("a tag or a commit named as where a thing is", () => {
  it("reads `at tag v2.0`, `at commit 3f2a9c1` as a ref, a value: no tag to label or release to publish", () => {
    expect(kinds("read the README at tag v2.0")).toContain("on-branch");
    expect(readShapes("open setup.py at commit 3f2a9c1").rest).not.toContain("commit");
    // a tag named as what to publish from is no place
    expect(kinds("publish a release from tag v3.2")).not.toContain("on-branch");
  });

  it("ranks reading the file first", () => {
    expect(catalogFirst("pull up the Dockerfile from the repo at tag v1.8")).toBe("github_get_file_contents");
  });
});

describe("query shapes: an age things are removed at", () => {
  it("reads an age in words, in months, or before `old`, and not as time spent", () => {
    expect(kinds("automatically delete uploads older than a week")).toEqual(["age"]);
    expect(kinds("remove backups that are 30 days old")).toEqual(["age"]);
    expect(kinds("archive files after 6 months")).toEqual(["age"]);
    expect(kinds("expire objects in the logs bucket after 30 days")).toEqual(["age"]);
  });

  it("stands for what ages things out even where the query says expire", () => {
    const age = queryShapes("expire objects after 30 days")[0]!;
    expect(age.alternatives).toContainEqual(["lifecycl"]);
    expect(age.alternatives).not.toContainEqual(["expir"]);
  });
});

describe("query shapes: a threshold", () => {
  it("reads a condition on a number as a threshold to alert on, and a plain condition as a hint only", () => {
    expect(kinds("notify me if latency crosses 500ms")).toContain("threshold");
    expect(kinds("tell me when disk usage passes 80%")).toContain("threshold");
    expect(kinds("label mail when it goes to the archive")).not.toContain("threshold");
  });
});
