import { describe, expect, it } from "vitest";
import { OutputValidationError, outputSchemaFrom } from "../../src/cli/output-schema";
import { UsageError } from "../../src/cli/usage-error";

/** The issues `schema` finds in `value`, as the model reads them: `path: message`. */
async function messagesOf(schema: object, value: unknown): Promise<string[]> {
  const output = await outputSchemaFrom(schema);
  try {
    output.parse(value);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(OutputValidationError);
    return (error as OutputValidationError).issues.map(
      (issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`,
    );
  }
}

async function refusal(schema: unknown): Promise<string> {
  const error = await outputSchemaFrom(schema, "s.json").then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as Error).message;
}

describe("the --output-schema validator (Ajv)", () => {
  it("checks types, integers against numbers, and null", async () => {
    expect(await messagesOf({ type: "integer" }, 3)).toEqual([]);
    expect(await messagesOf({ type: "integer" }, 3.5)).toEqual(["(root): expected integer, got number"]);
    expect(await messagesOf({ type: ["string", "null"] }, null)).toEqual([]);
    expect(await messagesOf({ type: ["string", "null"] }, 1)).toEqual([
      "(root): expected string or null, got number",
    ]);
    expect(await messagesOf({ type: "object" }, [])).toEqual(["(root): expected object, got array"]);
  });

  it("names the path of required, nested and additional properties", async () => {
    const schema = {
      type: "object",
      properties: {
        items: { type: "array", items: { type: "object", properties: { n: { type: "number" } } } },
      },
      required: ["items", "owner"],
      additionalProperties: { type: "boolean" },
    };
    const messages = await messagesOf(schema, { items: [{ n: 1 }, { n: "2" }], flag: true, other: "x" });
    expect(messages.sort()).toEqual(
      [
        "owner: is required",
        "items.1.n: expected number, got string",
        "other: expected boolean, got string",
      ].sort(),
    );
    expect(
      await messagesOf({ type: "object", properties: {}, additionalProperties: false }, { extra: 1 }),
    ).toEqual(["extra: is not an allowed property"]);
  });

  it("says enum, const, string, number and array bounds in words", async () => {
    expect(await messagesOf({ enum: ["low", "high"] }, "urgent")).toEqual([
      '(root): must be one of "low", "high"',
    ]);
    expect(await messagesOf({ const: "x" }, "y")).toEqual(['(root): must be "x"']);
    expect(await messagesOf({ type: "string", minLength: 2, maxLength: 3, pattern: "^a" }, "bcde")).toEqual([
      "(root): must be at most 3 characters long",
      "(root): must match the pattern /^a/",
    ]);
    expect(await messagesOf({ minimum: 1, exclusiveMaximum: 5, multipleOf: 0.5 }, 5)).toEqual([
      "(root): must be less than 5",
    ]);
    expect(await messagesOf({ multipleOf: 0.5 }, 0.3)).toEqual(["(root): must be a multiple of 0.5"]);
    expect(await messagesOf({ type: "array", uniqueItems: true }, [1, 2, 1])).toEqual([
      "2: duplicates item 0",
    ]);
    expect(await messagesOf({ type: "array", minItems: 1 }, [])).toEqual([
      "(root): must have at least 1 items",
    ]);
  });

  it("reports a failed anyOf/oneOf once, without the errors of each branch", async () => {
    const either = { anyOf: [{ type: "string" }, { type: "number" }] };
    expect(await messagesOf(either, 1)).toEqual([]);
    expect(await messagesOf(either, true)).toEqual(["(root): must match at least one of the anyOf schemas"]);
    expect(await messagesOf({ oneOf: [{ type: "number" }, { type: "integer" }] }, 2)).toEqual([
      "(root): must match exactly one of the oneOf schemas (matched 2)",
    ]);
    expect(await messagesOf({ not: { type: "null" } }, null)).toEqual([
      "(root): must not match the schema under not",
    ]);
  });

  it("follows $ref into $defs (2020-12) and definitions (draft-07), recursion included", async () => {
    const tree = {
      $defs: {
        node: {
          type: "object",
          required: ["name"],
          properties: {
            name: { type: "string" },
            children: { type: "array", items: { $ref: "#/$defs/node" } },
          },
        },
      },
      $ref: "#/$defs/node",
    };
    expect(await messagesOf(tree, { name: "a", children: [{ name: "b", children: [] }] })).toEqual([]);
    expect(await messagesOf(tree, { name: "a", children: [{ children: [{ name: 3 }] }] })).toEqual([
      "children.0.name: is required",
      "children.0.children.0.name: expected string, got number",
    ]);
    const draft07 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { id: { type: "string", minLength: 1 } },
      properties: { id: { $ref: "#/definitions/id" } },
    };
    expect(await messagesOf(draft07, { id: "" })).toEqual(["id: must be at least 1 characters long"]);
  });

  it("checks formats and if/then (keywords the old validator refused)", async () => {
    expect(await messagesOf({ type: "string", format: "email" }, "not an address")).toEqual([
      "(root): must be a valid email",
    ]);
    expect(await messagesOf({ type: "string", format: "date" }, "2026-12-01")).toEqual([]);
    // Parsed, as from a schema file: an object literal with a `then` key would be a thenable.
    const conditional = JSON.parse(
      '{ "if": { "properties": { "kind": { "const": "bug" } } }, "then": { "required": ["severity"] } }',
    );
    expect(await messagesOf(conditional, { kind: "bug" })).toContain("severity: is required");
    expect(await messagesOf(conditional, { kind: "idea" })).toEqual([]);
  });

  it("refuses, with the reason, a schema it cannot check: unknown keyword or format, bad $ref, unknown dialect", async () => {
    expect(await refusal({ type: "object", requried: ["a"] })).toMatch(/s\.json cannot be used: .*requried/);
    expect(await refusal({ type: "string", format: "colour" })).toMatch(/unknown format "colour"/);
    expect(await refusal({ $ref: "#/$defs/missing" })).toMatch(/can't resolve reference #\/\$defs\/missing/);
    expect(await refusal({ type: "strin" })).toMatch(/cannot be used/);
    expect(await refusal({ $schema: "http://json-schema.org/draft-04/schema#" })).toMatch(
      /supported are JSON Schema 2020-12 \(the default\), 2019-09 and draft-07/,
    );
    expect(await refusal([1, 2])).toMatch(/must hold a JSON Schema object/);
  });

  it("as an output schema: parse returns the value itself or throws issues the loop can format", async () => {
    const schema = await outputSchemaFrom({ type: "object", required: ["a"] });
    const value = { a: 1 };
    expect(schema.parse(value)).toBe(value);
    expect(schema.jsonSchema).toEqual({ type: "object", required: ["a"] });
    let thrown: unknown;
    try {
      schema.parse({});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(OutputValidationError);
    expect((thrown as OutputValidationError).issues).toEqual([{ path: ["a"], message: "is required" }]);
    expect((thrown as Error).message).toBe("a: is required");
  });
});
