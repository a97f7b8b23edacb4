/**
 * The studio's request bodies, checked at the boundary with one schema each (zod, as the web
 * entry's chat requests are): `POST /api/approvals` takes `{ decisions }`, `POST /api/answers`
 * takes `{ decisions?, inputs? }` (a pause's calls and MCP servers' questions, answered together),
 * `POST /api/fork` takes `{ at, newId? }`. A body that does not fit answers 400 before anything is
 * loaded.
 * @module
 */
import type { IncomingMessage } from "node:http";
import { z } from "zod";
import type { ApprovalDecisions, InputAnswers } from "../index";
import { StudioRequestError } from "./actions";

/** The largest request body accepted (decisions, a fork). */
const MAX_BODY_BYTES = 64 * 1024;

const decisionSchema = z.object({ approved: z.boolean(), message: z.string().optional() });
const approvalsSchema = z.looseObject({ decisions: z.record(z.string(), decisionSchema) });
/** A field's value in an answered form: the spec's primitives, or a list of choices. */
const fieldValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
const inputAnswerSchema = z.strictObject({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.record(z.string(), fieldValue).optional(),
});
const answersSchema = z.looseObject({
  decisions: z.record(z.string(), decisionSchema).optional(),
  inputs: z.record(z.string(), inputAnswerSchema).optional(),
});
const forkSchema = z.looseObject({ at: z.number().int().nonnegative(), newId: z.string().optional() });

/** A checked approvals body: one decision per tool_use id (a denial without a reason gets one). */
export function readDecisions(body: unknown): ApprovalDecisions {
  const parsed = approvalsSchema.safeParse(body);
  if (!parsed.success) {
    const shape = parsed.error.issues.some((issue) => issue.path.length > 1);
    throw new StudioRequestError(
      shape
        ? "Each decision is { approved: boolean, message?: string }."
        : "`decisions` must map tool_use ids to { approved, message? }.",
    );
  }
  const decisions: ApprovalDecisions = {};
  for (const [id, { approved, message }] of Object.entries(parsed.data.decisions)) {
    decisions[id] = approved
      ? { approved: true }
      : { approved: false, message: message || "Denied in the studio." };
  }
  return decisions;
}

/**
 * A checked answers body: decisions by tool_use id (as {@link readDecisions}) and answers by pending
 * input id — `{ action: "accept" | "decline" | "cancel", content? }`, `content` a flat object of
 * strings, numbers, booleans and lists of strings (what a form question can ask for).
 */
export function readAnswers(body: unknown): { decisions: ApprovalDecisions; inputs: InputAnswers } {
  const parsed = answersSchema.safeParse(body);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path[0];
    throw new StudioRequestError(
      where === "inputs"
        ? '`inputs` must map pending input ids to { action: "accept" | "decline" | "cancel", content?: { field: value } }.'
        : "`decisions` must map tool_use ids to { approved, message? }.",
    );
  }
  return {
    decisions: readDecisions({ decisions: parsed.data.decisions ?? {} }),
    inputs: parsed.data.inputs ?? {},
  };
}

/** A checked fork body: the index of the last message kept, and the new id when one is given. */
export function readFork(body: unknown): { at: number; newId: string | undefined } {
  const parsed = forkSchema.safeParse(body);
  if (!parsed.success)
    throw new StudioRequestError("A fork is { at: <index of a message>, newId?: string }.");
  const { at, newId } = parsed.data;
  return { at, newId: newId === "" ? undefined : newId };
}

/** The JSON object a POST carries (content-type application/json, at most 64 KiB). */
export async function readJsonObject(request: IncomingMessage): Promise<Record<string, unknown>> {
  if (!(request.headers["content-type"] ?? "").startsWith("application/json"))
    throw new StudioRequestError("Send JSON (content-type: application/json).");
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new StudioRequestError("The request body is too large.");
    chunks.push(chunk);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {}
  throw new StudioRequestError("The request body is not a JSON object.");
}
