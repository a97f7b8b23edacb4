import { describe, expect, it } from "vitest";
import { z } from "zod";
import { plainObjectSchema } from "../../src/tools/plain-object-schema";
import { jsonSchemaOf, validatorOf } from "../../src/tools/schema";

const fields = {
  query: { type: "string", minLength: 1, description: "What to look for." },
  limit: { type: "integer", minimum: 1, maximum: 10, optional: true, description: "At most this many." },
} as const;
const plain = plainObjectSchema<{ query: string; limit?: number }>(fields);
const zod = z.object({
  query: z.string().min(1).describe("What to look for."),
  limit: z.number().int().min(1).max(10).optional().describe("At most this many."),
});

describe("plainObjectSchema", () => {
  it("states the JSON Schema zod states for the same object", () => {
    expect(jsonSchemaOf(plain)).toEqual(jsonSchemaOf(zod));
  });

  it("accepts and refuses what zod accepts and refuses, with zod's words", async () => {
    const inputs: unknown[] = [
      { query: "calendar" },
      { query: "calendar", limit: 3 },
      { query: "calendar", limit: 3, extra: true },
      { query: "" },
      { query: "x", limit: 0 },
      { query: "x", limit: 11 },
      { query: "x", limit: 2.5 },
      { query: 5 },
      {},
      null,
      "text",
      [],
    ];
    for (const input of inputs) {
      const ours = await validatorOf(plain)(input);
      const theirs = await validatorOf(zod)(input);
      expect(ours, JSON.stringify(input)).toEqual(theirs);
    }
  });
});
