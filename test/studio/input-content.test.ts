/**
 * The studio's check of an answer against an MCP server's question (`answerProblem`): every field
 * kind of the spec's form schemas — text with length and format, numbers and whole numbers with a
 * range, booleans, a choice (`enum`, titled `oneOf`), several choices (an array of choices) —
 * required fields and defaults, fields never asked for, and content where none is taken.
 */
import { describe, expect, it } from "vitest";
import type { InputAnswer, PendingInput } from "../../src/index";
import { choicesOf, formFields } from "../../src/studio/form-schema";
import { answerProblem } from "../../src/studio/input-content";

const question = (requestedSchema: unknown, mode: "form" | "url" = "form"): PendingInput => ({
  id: "toolu_1/input-1",
  server: "s",
  message: "?",
  mode,
  tool_use_id: "toolu_1",
  requestedSchema,
});

const FORM = question({
  type: "object",
  properties: {
    email: { type: "string", format: "email" },
    site: { type: "string", format: "uri" },
    day: { type: "string", format: "date" },
    at: { type: "string", format: "date-time" },
    code: { type: "string", minLength: 2, maxLength: 4 },
    ratio: { type: "number", minimum: 0, maximum: 1 },
    count: { type: "integer" },
    ok: { type: "boolean" },
    size: {
      type: "string",
      oneOf: [
        { const: "s", title: "Small" },
        { const: "l", title: "Large" },
      ],
    },
    tags: { type: "array", items: { type: "string", enum: ["a", "b", "c"] }, minItems: 1, maxItems: 2 },
    plan: { type: "string", enum: ["free", "pro"], default: "free" },
  },
  required: ["code", "plan"],
});

const accept = (content: Record<string, unknown>): InputAnswer => ({ action: "accept", content });

describe("answerProblem", () => {
  it("accepts content that fits, a required field with a default left out", () => {
    expect(
      answerProblem(
        FORM,
        accept({
          email: "a@b.example",
          site: "https://x.example/p",
          day: "2026-12-06",
          at: "2026-12-06T17:00:00Z",
          code: "abc",
          ratio: 0.5,
          count: 3,
          ok: false,
          size: "l",
          tags: ["a", "c"],
        }),
      ),
    ).toBeUndefined();
    expect(answerProblem(FORM, { action: "decline" })).toBeUndefined();
    expect(answerProblem(question(undefined, "url"), { action: "accept" })).toBeUndefined();
  });

  it.each([
    [{ code: "abc", email: "not an email" }, /"email": not a valid email/],
    [{ code: "abc", site: "no scheme" }, /"site": not a valid uri/],
    [{ code: "abc", day: "06/12/2026" }, /"day": not a valid date/],
    [{ code: "abc", at: "yesterday" }, /"at": not a valid date-time/],
    [{ code: "a" }, /"code": at least 2 characters/],
    [{ code: "abcde" }, /"code": at most 4 characters/],
    [{ code: "abc", ratio: 2 }, /"ratio": at most 1/],
    [{ code: "abc", ratio: "0.5" }, /"ratio": expected a number/],
    [{ code: "abc", count: 1.5 }, /"count": expected a whole number/],
    [{ code: "abc", ok: "yes" }, /"ok": expected true or false/],
    [{ code: "abc", size: "m" }, /"size": not one of the choices/],
    [{ code: "abc", tags: [] }, /"tags": choose at least 1/],
    [{ code: "abc", tags: ["a", "b", "c"] }, /"tags": choose at most 2/],
    [{ code: "abc", tags: ["a", "a"] }, /"tags": a choice given twice/],
    [{ code: "abc", tags: ["z"] }, /"tags": not one of the choices/],
    [{ code: "abc", tags: "a" }, /"tags": expected a list/],
    [{ code: "abc", plan: "enterprise" }, /"plan": not one of the choices/],
    [{ ratio: 0.1 }, /"code" is required/],
    [{ code: "abc", admin: true }, /no field "admin"/],
    [{ code: "abc", toString: "x" }, /no field "toString"/],
  ])("refuses %j", (content, problem) => {
    expect(answerProblem(FORM, accept(content))).toMatch(problem);
  });

  it("refuses an accept without the required content, and content where none is taken", () => {
    expect(answerProblem(FORM, { action: "accept" })).toMatch(/"code" is required/);
    expect(answerProblem(FORM, { action: "cancel", content: {} })).toMatch(/Only an accepted form/);
    expect(answerProblem(question(undefined, "url"), accept({}))).toMatch(/Only an accepted form/);
  });

  it("refuses a field whose schema gives no type it can answer", () => {
    const odd = question({ type: "object", properties: { blob: { type: "object" } } });
    expect(answerProblem(odd, accept({ blob: "x" }))).toMatch(/no type the studio can answer/);
  });
});

describe("form-schema", () => {
  it("reads the fields of a malformed schema as none, and the choices of a titled anyOf", () => {
    expect(formFields("nonsense")).toEqual({ fields: {}, required: [] });
    expect(formFields({ properties: [], required: "x" })).toEqual({ fields: {}, required: [] });
    expect(choicesOf({ anyOf: [{ const: "x", title: "X" }, { title: "no const" }] })).toEqual(["x"]);
    expect(choicesOf({ type: "string" })).toBeUndefined();
  });
});
