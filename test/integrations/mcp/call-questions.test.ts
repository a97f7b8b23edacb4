/**
 * Matching a question asked again to a stored answer (`call-questions.ts`): by elicitationId when
 * both have one, else by mode, message, schema (key order ignored) and URL; each answer used once;
 * a question that matches none is recorded with a fresh id.
 */
import { describe, expect, it } from "vitest";
import { CallQuestions } from "../../../src/integrations/mcp/call-questions";
import type { McpElicitationRequest } from "../../../src/integrations/mcp/elicitation-types";
import type { PendingInput } from "../../../src/messages/pending-inputs";

const stored: PendingInput = {
  id: "toolu_1/input-1",
  server: "crm",
  message: "Region?",
  mode: "form",
  requestedSchema: { type: "object", properties: { region: { type: "string" } } },
  tool_use_id: "toolu_1",
};
const asked: McpElicitationRequest = {
  server: "crm",
  message: "Region?",
  mode: "form",
  requestedSchema: { properties: { region: { type: "string" } }, type: "object" },
};

describe("CallQuestions", () => {
  it("answers the same question (schema keys in another order) once", () => {
    const questions = new CallQuestions("toolu_1", [
      { input: stored, answer: { action: "accept", content: { region: "eu" } } },
    ]);
    expect(questions.answerFor(asked)).toEqual({ action: "accept", content: { region: "eu" } });
    expect(questions.answerFor(asked)).toBeUndefined();
  });

  it("does not answer another server's, another message's or another schema's question", () => {
    const questions = new CallQuestions("toolu_1", [{ input: stored, answer: { action: "decline" } }]);
    expect(questions.answerFor({ ...asked, server: "other" })).toBeUndefined();
    expect(questions.answerFor({ ...asked, message: "Country?" })).toBeUndefined();
    expect(questions.answerFor({ ...asked, requestedSchema: { type: "object" } })).toBeUndefined();
    expect(questions.answerFor(asked)).toEqual({ action: "decline" });
  });

  it("matches URL questions by elicitationId when both have one", () => {
    const url: PendingInput = { ...stored, mode: "url", url: "https://a.example/x", elicitationId: "e1" };
    delete url.requestedSchema;
    const questions = new CallQuestions("toolu_1", [{ input: url, answer: { action: "accept" } }]);
    const again = {
      server: "crm",
      message: "Changed wording",
      mode: "url" as const,
      url: "https://a.example/y",
    };
    expect(questions.answerFor({ ...again, elicitationId: "e2" })).toBeUndefined();
    expect(questions.answerFor({ ...again, elicitationId: "e1" })).toEqual({ action: "accept" });
  });

  it("records an unmatched question with an id the stored answers do not use", () => {
    const questions = new CallQuestions("toolu_1", [{ input: stored, answer: { action: "cancel" } }]);
    questions.pause({ ...asked, message: "Plan?" });
    expect(questions.asked).toEqual([
      { ...stored, id: "toolu_1/input-2", message: "Plan?", requestedSchema: asked.requestedSchema },
    ]);
  });

  it("matches a stored question whose text history redacted: [redacted] stands for some text, the rest must be the same", () => {
    const redacted: PendingInput = {
      ...stored,
      message: "Rotate [redacted]? It was used by [redacted].",
      requestedSchema: {
        type: "object",
        properties: { ok: { type: "boolean", description: "Token [redacted]" } },
      },
    };
    const again: McpElicitationRequest = {
      ...asked,
      message: "Rotate key-4242-secret? It was used by ci-bot.",
      requestedSchema: { type: "object", properties: { ok: { type: "boolean", description: "Token abc" } } },
    };
    const questions = new CallQuestions("toolu_1", [
      { input: redacted, answer: { action: "accept", content: {} } },
    ]);
    expect(questions.answerFor({ ...again, message: "Rotate key? It was used by ci-bot!" })).toBeUndefined();
    expect(questions.answerFor({ ...again, message: "Rotate ? It was used by ci-bot." })).toBeUndefined();
    expect(
      questions.answerFor({
        ...again,
        requestedSchema: { type: "object", properties: { ok: { type: "string", description: "Token abc" } } },
      }),
    ).toBeUndefined();
    expect(questions.answerFor(again)).toEqual({ action: "accept", content: {} });
  });
});
