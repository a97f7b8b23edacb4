/**
 * `defineTool` with the three kinds of schema — zod v4, a Standard Schema that states its JSON
 * Schema, and `{ parse, jsonSchema }` — through a real agent: the JSON Schema the model receives,
 * and the validated value `execute` receives.
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  defineTool,
  InvalidOptionError,
  type StandardSchemaWithJsonSchema,
  type Tool,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL, resultText, toolResults, toolUse } from "../loop/support";

/** A hand-written Standard Schema for `{ city: string }`, stating its JSON Schema like zod v4 does. */
function cityStandardSchema(): StandardSchemaWithJsonSchema<{ city: string }> {
  const jsonSchema = {
    type: "object",
    properties: { city: { type: "string", minLength: 1 } },
    required: ["city"],
    additionalProperties: false,
  };
  return {
    "~standard": {
      version: 1,
      vendor: "hand-written",
      validate(value: unknown): StandardSchemaV1.Result<{ city: string }> {
        const city = (value as { city?: unknown } | null)?.city;
        if (typeof city !== "string" || city.length === 0) {
          return { issues: [{ message: "must be a non-empty string", path: ["city"] }] };
        }
        return { value: { city: city.toUpperCase() } };
      },
      jsonSchema: {
        input: () => ({ $schema: "https://json-schema.org/draft/2020-12/schema", ...jsonSchema }),
      },
    },
  };
}

/** Runs one turn that calls `tool` with `input`, then a final text; returns what the tool saw. */
async function callOnce(tool: Tool, input: unknown) {
  const client = createScriptedClient([{ content: [toolUse("t1", tool.name, input)] }, { content: "done" }]);
  const agent = createAgent({ model: MODEL, client, tools: [tool] });
  const result = await agent.prompt("go");
  const [block] = toolResults(await agent.getHistory());
  return { result, block: block!, request: client.requests[0]! };
}

describe("defineTool with zod v4", () => {
  it("sends the zod schema as JSON Schema and gives execute the parsed value", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "forecast",
      description: "Weather forecast",
      inputSchema: z.object({ city: z.string(), days: z.number().int().default(3) }),
      execute: (input) => {
        seen.push(input);
        return `${input.city} for ${input.days} days`;
      },
    });

    const { block, request } = await callOnce(tool, { city: "Oslo" });

    expect(request.tools).toEqual([
      {
        name: "forecast",
        description: "Weather forecast",
        input_schema: expect.objectContaining({
          type: "object",
          properties: expect.objectContaining({ city: { type: "string" } }),
          required: expect.arrayContaining(["city"]),
        }),
      },
    ]);
    expect(request.tools?.[0]?.input_schema).not.toHaveProperty("$schema");
    expect(seen).toEqual([{ city: "Oslo", days: 3 }]);
    expect(block).toEqual({ type: "tool_result", tool_use_id: "t1", content: "Oslo for 3 days" });
  });
});

describe("defineTool with a Standard Schema", () => {
  it("uses the schema's own JSON Schema and its validate()", async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: "lookup",
      inputSchema: cityStandardSchema(),
      execute: (input) => {
        seen.push(input);
        return input.city;
      },
    });

    const { block, request } = await callOnce(tool, { city: "rome" });

    expect(request.tools?.[0]?.input_schema).toEqual({
      type: "object",
      properties: { city: { type: "string", minLength: 1 } },
      required: ["city"],
      additionalProperties: false,
    });
    expect(seen).toEqual([{ city: "ROME" }]);
    expect(block.content).toBe("ROME");
  });

  it("reports its issues with their path when the input fails", async () => {
    const tool = defineTool({ name: "lookup", inputSchema: cityStandardSchema(), execute: () => "ran" });

    const { block, result } = await callOnce(tool, { city: "" });

    expect(block.is_error).toBe(true);
    expect(resultText(block)).toContain("city: must be a non-empty string");
    expect(result.subtype).toBe("success");
  });

  it("refuses the input, and goes on, when the validator itself throws or rejects", async () => {
    let ran = false;
    const execute = () => {
      ran = true;
      return "ran";
    };
    const throwing = z.object({ city: z.string() }).refine(() => {
      throw new Error("refinement bug");
    });
    // A Standard Schema (not zod, which is validated through safeParseAsync) whose validate rejects.
    const rejecting: StandardSchemaWithJsonSchema<{ city: string }> = {
      "~standard": {
        ...cityStandardSchema()["~standard"],
        validate: () => Promise.reject(new Error("async refinement bug")),
      },
    };
    for (const [schema, message] of [
      [throwing, "refinement bug"],
      [rejecting, "async refinement bug"],
    ] as const) {
      const tool = defineTool({ name: "lookup", inputSchema: schema, execute });
      const { block, result } = await callOnce(tool, { city: "Rome" });
      expect(block.is_error).toBe(true);
      expect(resultText(block)).toContain(`The input validator failed: ${message}`);
      expect(result.subtype).toBe("success");
    }
    expect(ran).toBe(false);
  });

  it("validates zod schemas with async refinements without leaving a rejection behind", async () => {
    // zod's own Standard Schema `validate` tries a synchronous parse first: that starts the async
    // refinement and drops its promise, which becomes an unhandled rejection (a crash under Node's
    // default mode) when the refinement rejects. Vitest fails the run on such a rejection.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      let calls = 0;
      const schema = z.object({ city: z.string() }).refine(async ({ city }) => {
        calls += 1;
        if (city === "Atlantis") throw new Error("lookup service down");
        return city !== "Nowhere";
      }, "unknown city");
      const seen: string[] = [];
      const tool = defineTool({
        name: "lookup",
        inputSchema: schema,
        execute: ({ city }) => {
          seen.push(city);
          return city;
        },
      });

      const refused = await callOnce(tool, { city: "Atlantis" });
      const invalid = await callOnce(tool, { city: "Nowhere" });
      const valid = await callOnce(tool, { city: "Rome" });
      await new Promise((resolve) => setTimeout(resolve, 20));

      expect(resultText(refused.block)).toContain("The input validator failed: lookup service down");
      expect(resultText(invalid.block)).toContain("- (root): unknown city");
      expect(valid.block.is_error).toBeFalsy();
      expect(seen).toEqual(["Rome"]);
      expect(calls).toBe(3); // each input validated once, not a second time after a failed sync try
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});

describe("defineTool with { parse, jsonSchema }", () => {
  it("sends jsonSchema as is and gives execute what parse returns", async () => {
    const schema = {
      jsonSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
      parse(input: unknown): { n: number } {
        const n = (input as { n?: unknown }).n;
        if (typeof n !== "number") throw new Error("n must be a number");
        return { n: n * 2 };
      },
    };
    const seen: number[] = [];
    const tool = defineTool({
      name: "double",
      inputSchema: schema,
      execute: ({ n }) => {
        seen.push(n);
        return String(n);
      },
    });

    const { block, request } = await callOnce(tool, { n: 21 });

    expect(request.tools?.[0]?.input_schema).toEqual(schema.jsonSchema);
    expect(seen).toEqual([42]);
    expect(block.content).toBe("42");

    const failed = await callOnce(tool, { n: "x" });
    expect(failed.block.is_error).toBe(true);
    expect(resultText(failed.block)).toContain("n must be a number");
  });

  it("accepts a bare parse when jsonSchema is passed to defineTool", async () => {
    const tool = defineTool({
      name: "bare",
      inputSchema: { parse: (input: unknown) => input as { q: string } },
      jsonSchema: { type: "object", properties: { q: { type: "string" } } },
      execute: ({ q }) => q,
    });

    const { block, request } = await callOnce(tool, { q: "ok" });

    expect(request.tools?.[0]?.input_schema).toEqual({
      type: "object",
      properties: { q: { type: "string" } },
    });
    expect(block.content).toBe("ok");
  });

  it("awaits a parse that returns a promise; a rejection refuses the input", async () => {
    const tool = defineTool({
      name: "resolve",
      inputSchema: {
        jsonSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        async parse(input: unknown) {
          const id = (input as { id?: unknown }).id;
          if (id === "missing") throw new Error("no record with id missing");
          return { id: String(id), found: true };
        },
      },
      execute: (record) => {
        // typed as the awaited value, not as a promise
        const found: boolean = record.found;
        return `${record.id}:${found}`;
      },
    });

    expect((await callOnce(tool, { id: "a1" })).block.content).toBe("a1:true");
    const refused = await callOnce(tool, { id: "missing" });
    expect(refused.block.is_error).toBe(true);
    expect(resultText(refused.block)).toContain("no record with id missing");
  });

  it("a parse that throws or rejects with null or undefined refuses the input", async () => {
    const jsonSchema = { type: "object" };
    const parsers = [
      () => {
        throw null;
      },
      () => Promise.reject(undefined),
    ];
    for (const parse of parsers) {
      const tool = defineTool({ name: "check", inputSchema: { jsonSchema, parse }, execute: () => "ran" });
      const { block, result } = await callOnce(tool, {});
      expect(block.is_error).toBe(true);
      expect(result.subtype).toBe("success");
    }
  });
});

describe("defineTool misuse", () => {
  it("throws when the schema cannot state a JSON Schema", () => {
    expect(() =>
      defineTool({ name: "bare", inputSchema: { parse: (input: unknown) => input }, execute: () => "x" }),
    ).toThrow(InvalidOptionError);
  });

  it("throws on a name the Messages API would refuse", () => {
    expect(() => defineTool({ name: "has space", inputSchema: z.object({}), execute: () => "x" })).toThrow(
      /invalid/,
    );
  });

  it("throws on an input schema the Messages API refuses (not an object, or a top-level union)", () => {
    const refused: Array<[string, Parameters<typeof defineTool>[0]["inputSchema"], RegExp]> = [
      [
        "union",
        z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
        /anyOf at its top level/,
      ],
      ["string", z.string(), /not an object schema \(its type is "string"\)/],
      ["array", z.array(z.string()), /not an object schema/],
    ];
    for (const [name, inputSchema, message] of refused) {
      expect(() => defineTool({ name, inputSchema, execute: () => "x" }), name).toThrow(InvalidOptionError);
      expect(() => defineTool({ name, inputSchema, execute: () => "x" }), name).toThrow(message);
    }
    expect(() =>
      defineTool({
        name: "typeless",
        inputSchema: { parse: (input: unknown) => input },
        jsonSchema: { properties: { a: { type: "string" } } },
        execute: () => "x",
      }),
    ).toThrow(/its type is missing/);
    expect(() =>
      defineTool({
        name: "all_of",
        inputSchema: { parse: (input: unknown) => input },
        jsonSchema: { type: "object", allOf: [{ required: ["a"] }] },
        execute: () => "x",
      }),
    ).toThrow(/allOf at its top level/);
    // An object schema is accepted, refinements and all; zod merges an intersection of objects.
    const merged = z.object({ a: z.string() }).and(z.object({ b: z.number() }));
    expect(defineTool({ name: "merged", inputSchema: merged, execute: () => "x" }).inputSchema).toMatchObject(
      {
        type: "object",
      },
    );
    const refined = z.object({ a: z.string() }).refine((value) => value.a !== "");
    expect(
      defineTool({ name: "refined", inputSchema: refined, execute: () => "x" }).inputSchema,
    ).toMatchObject({
      type: "object",
    });
  });

  it("createAgent throws on two tools with one name", () => {
    const tool = defineTool({ name: "same", inputSchema: z.object({}), execute: () => "x" });
    expect(() =>
      createAgent({ model: MODEL, client: createScriptedClient([]), tools: [tool, tool] }),
    ).toThrow(/already registered/);
  });
});

describe("addTools()", () => {
  it("adds tools that the next request declares", async () => {
    const client = createScriptedClient([{ content: "a" }, { content: "b" }]);
    const agent = createAgent({ model: MODEL, client });
    await agent.prompt("one");

    agent.addTools(defineTool({ name: "later", inputSchema: z.object({}), execute: () => "x" }));
    await agent.prompt("two");

    expect(client.requests[0]?.tools).toBeUndefined();
    expect(client.requests[1]?.tools?.map((tool) => tool.name)).toEqual(["later"]);
  });
});
