import { describe, expect, it } from "vitest";
import { findUnsupportedSchemaParts, validateAgainstSchema } from "../../src/cli/json-schema";
import { OutputValidationError, outputSchemaFrom } from "../../src/cli/output-schema";

const messagesOf = (schema: Parameters<typeof validateAgainstSchema>[0], value: unknown) =>
  validateAgainstSchema(schema, value).map(
    (issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`,
  );

describe("the --output-schema validator", () => {
  it("checks types, integers against numbers, and null", () => {
    expect(messagesOf({ type: "integer" }, 3)).toEqual([]);
    expect(messagesOf({ type: "integer" }, 3.5)).toEqual(["(root): expected integer, got number"]);
    expect(messagesOf({ type: "number" }, 3)).toEqual([]);
    expect(messagesOf({ type: ["string", "null"] }, null)).toEqual([]);
    expect(messagesOf({ type: "object" }, [])).toEqual(["(root): expected object, got array"]);
    expect(messagesOf({ type: "string" }, undefined)).toEqual(["(root): expected string, got undefined"]);
  });

  it("checks required, nested properties with their paths, and additionalProperties", () => {
    const schema = {
      type: "object",
      properties: {
        items: { type: "array", items: { type: "object", properties: { n: { type: "number" } } } },
      },
      required: ["items", "owner"],
      additionalProperties: { type: "boolean" },
    };
    expect(messagesOf(schema, { items: [{ n: 1 }, { n: "2" }], flag: true, other: "x" })).toEqual([
      "owner: is required",
      "items.1.n: expected number, got string",
      "other: expected boolean, got string",
    ]);
  });

  it("checks enum, const, string, number and array bounds", () => {
    expect(messagesOf({ enum: [1, { a: [true] }] }, { a: [true] })).toEqual([]);
    expect(messagesOf({ const: "x" }, "y")).toEqual(['(root): must be "x"']);
    expect(messagesOf({ type: "string", minLength: 2, maxLength: 3, pattern: "^a" }, "bcde")).toEqual([
      "(root): must be at most 3 characters long",
      "(root): must match the pattern /^a/",
    ]);
    expect(messagesOf({ minimum: 1, exclusiveMaximum: 5, multipleOf: 0.5 }, 5)).toEqual([
      "(root): must be less than 5",
    ]);
    expect(messagesOf({ multipleOf: 0.1 }, 0.3)).toEqual([]);
    expect(messagesOf({ multipleOf: 0.5 }, 0.3)).toEqual(["(root): must be a multiple of 0.5"]);
    expect(messagesOf({ type: "array", minItems: 1, uniqueItems: true }, [1, 2, 1])).toEqual([
      "2: duplicates an earlier item",
    ]);
    expect(messagesOf({ type: "array", minItems: 1 }, [])).toEqual(["(root): must have at least 1 items"]);
  });

  it("checks anyOf, oneOf, allOf and not", () => {
    const either = { anyOf: [{ type: "string" }, { type: "number" }] };
    expect(messagesOf(either, 1)).toEqual([]);
    expect(messagesOf(either, true)).toEqual(["(root): must match at least one of the anyOf schemas"]);
    expect(messagesOf({ oneOf: [{ type: "number" }, { type: "integer" }] }, 2)).toEqual([
      "(root): must match exactly one of the oneOf schemas (matched 2)",
    ]);
    expect(messagesOf({ allOf: [{ minimum: 1 }, { maximum: 2 }] }, 3)).toEqual(["(root): must be at most 2"]);
    expect(messagesOf({ not: { type: "null" } }, null)).toEqual([
      "(root): must not match the schema under not",
    ]);
    expect(messagesOf(false, 1)).toEqual(["(root): no value is allowed here"]);
  });

  it("refuses schemas it cannot fully check, naming where", () => {
    expect(
      findUnsupportedSchemaParts({ type: "object", title: "t", description: "d", format: "email" }),
    ).toEqual([]);
    expect(
      findUnsupportedSchemaParts({
        type: "object",
        properties: { a: { $ref: "#/x" }, b: { type: "strin" } },
        if: {},
        items: { pattern: "(" },
      }),
    ).toEqual([
      '#/properties/a/$ref: the keyword "$ref" is not supported',
      '#/properties/b/type: unknown type "strin"',
      '#/if: the keyword "if" is not supported',
      "#/items/pattern: must be a valid regular expression",
    ]);
  });

  it("as an output schema: parse returns the value or throws issues the loop can format", () => {
    const schema = outputSchemaFrom({ type: "object", required: ["a"] });
    expect(schema.parse({ a: 1 })).toEqual({ a: 1 });
    expect(schema.jsonSchema).toEqual({ type: "object", required: ["a"] });
    let thrown: unknown;
    try {
      schema.parse({});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OutputValidationError);
    expect((thrown as OutputValidationError).issues).toEqual([{ path: ["a"], message: "is required" }]);
  });
});
