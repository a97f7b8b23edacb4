import { describe, expect, it } from "vitest";
import { markOrigins, originWords } from "../../src/shared/query-origins";
import { catalogFirst } from "./ranker-test-kit";

const origins = (text: string) => [...originWords(text)];

describe("where a delivered thing comes from", () => {
  it("reads the words before the thing's noun, after a definite word, in a command that delivers it somewhere", () => {
    expect(origins("post the Jira sprint summary to #team")).toEqual(["Jira", "sprint"]);
    expect(origins("upload the Postgres dump into the backups bucket")).toEqual(["Postgres"]);
    expect(origins("email my Stripe receipt to ann@example.com")).toEqual(["Stripe"]);
  });

  it("finds none when the service is the medium, the thing has no modifier, or nothing is delivered", () => {
    // An indefinite thing is a new one, made with the service named: a Slack message is sent with Slack.
    expect(origins("post a Slack message to #eng")).toEqual([]);
    expect(origins("send the summary to #team")).toEqual([]);
    // No place it goes to.
    expect(origins("share the Drive folder")).toEqual([]);
    // Not a verb that delivers.
    expect(origins("archive the Notion roadmap page in the workspace")).toEqual([]);
  });

  it("marks the slots of an origin's words as a subject", () => {
    const slots = [
      { words: ["post"], synonyms: [] },
      { words: ["jira"], synonyms: [] },
      { words: ["summary"], synonyms: [] },
    ];
    markOrigins(slots, new Set(["Jira"]));
    expect(slots.map((slot) => "subject" in slot)).toEqual([false, true, false]);
  });
});

describe("a service named as where a delivered thing comes from is not the service asked for", () => {
  it("posts to the channel, rather than using the tools of the service the thing comes from", () => {
    expect(catalogFirst("send the PagerDuty incident report to #ops")).toBe("slack_post_message");
    expect(catalogFirst("post the Jira epic summary in the #product channel")).toBe("slack_post_message");
  });

  it("uploads to the place named, rather than acting in the service the file comes from", () => {
    expect(catalogFirst("put the Postgres backup into the archive bucket")).toBe("s3_put_object");
  });
});
