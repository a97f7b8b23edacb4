/**
 * `outputSchema` and the built-in `submit_output` tool: the run ends with a validated, typed
 * payload, and the harness — not the prompt — enforces how it may end.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
  createAgent,
  defineTool,
  InvalidOptionError,
  MissingOutputError,
  SUBMIT_OUTPUT_EXCLUSIVE_BATCH,
  SUBMIT_OUTPUT_TOOL_NAME,
} from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { collect, expectWellFormed, lastResult, MODEL, resultText, toolResults, toolUse } from "./support";

const submit = (id: string, input: unknown) => toolUse(id, SUBMIT_OUTPUT_TOOL_NAME, input);

describe("submit_output", () => {
  it("is named by SUBMIT_OUTPUT_TOOL_NAME", () => {
    expect(SUBMIT_OUTPUT_TOOL_NAME).toBe("submit_output");
    expect(SUBMIT_OUTPUT_EXCLUSIVE_BATCH).toBe("submit_output_exclusive_batch");
  });

  it("is injected with the zod schema as its JSON Schema, and a valid submission ends success", async () => {
    const client = createScriptedClient([{ content: [submit("s1", { n: 42, label: "answer" })] }]);
    const agent = createAgent({
      model: MODEL,
      client,
      outputSchema: z.object({ n: z.number(), label: z.string() }),
    });

    const messages = await collect(agent.query("compute"));
    const result = lastResult(messages);

    expect(messages[0]).toMatchObject({ type: "system", subtype: "init", tools: ["submit_output"] });
    const declared = client.requests[0]?.tools;
    expect(declared).toHaveLength(1);
    expect(declared?.[0]?.name).toBe("submit_output");
    expect(declared?.[0]?.input_schema).toMatchObject({
      type: "object",
      properties: { n: { type: "number" }, label: { type: "string" } },
      required: ["n", "label"],
    });
    expect(result.subtype).toBe("success");
    expect(result.is_error).toBe(false);
    expect(result.structuredResult).toEqual({ n: 42, label: "answer" });
    expectTypeOf(result.structuredResult).toEqualTypeOf<{ n: number; label: string } | undefined>();
    expect(JSON.parse(result.result)).toEqual({ n: 42, label: "answer" });
    expect(client.callCount).toBe(1);
    const history = await agent.getHistory();
    expectWellFormed(history);
    expect(toolResults(history)).toEqual([
      { type: "tool_result", tool_use_id: "s1", content: "Output accepted." },
    ]);
  });

  it("is declared after the agent's own tools", async () => {
    const lookup = defineTool({ name: "lookup", inputSchema: z.object({}), execute: () => "x" });
    const client = createScriptedClient([{ content: [submit("s1", { n: 1 })] }]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [lookup],
      outputSchema: z.object({ n: z.number() }),
    });

    await agent.prompt("go");

    expect(client.requests[0]?.tools?.map((tool) => tool.name)).toEqual(["lookup", "submit_output"]);
  });

  it("returns the schema's parsed value (transforms applied), not the raw payload", async () => {
    const client = createScriptedClient([{ content: [submit("s1", { when: "2024-05-01" })] }]);
    const agent = createAgent({
      model: MODEL,
      client,
      outputSchema: z.object({ when: z.string().transform((text) => text.split("-").map(Number)) }),
    });

    const result = await agent.prompt("date");

    expect(result.structuredResult).toEqual({ when: [2024, 5, 1] });
  });

  it("a parsed value JSON cannot state (a BigInt from a transform) still succeeds; result is the payload as submitted", async () => {
    const client = createScriptedClient([{ content: [submit("s1", { id: "12345678901234567890" })] }]);
    const agent = createAgent({
      model: MODEL,
      client,
      outputSchema: z.object({ id: z.string().transform((text) => BigInt(text)) }),
    });

    const result = await agent.prompt("id");

    expect(result.subtype).toBe("success");
    expect(result.structuredResult).toEqual({ id: 12345678901234567890n });
    expect(result.result).toBe('{"id":"12345678901234567890"}');
    const history = await agent.getHistory();
    expect(history.at(-1)).toEqual({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "s1", content: "Output accepted." }],
    });
  });

  it("sends a failing payload back as an error result showing the issues, then accepts the fix", async () => {
    const client = createScriptedClient([
      { content: [submit("s1", { n: "forty-two" })] },
      { content: [submit("s2", { n: 42 })] },
    ]);
    const agent = createAgent({ model: MODEL, client, outputSchema: z.object({ n: z.number() }) });

    const result = await agent.prompt("compute");

    expect(result.subtype).toBe("success");
    expect(result.structuredResult).toEqual({ n: 42 });
    expect(result.num_turns).toBe(2);
    const [rejected, accepted] = toolResults(await agent.getHistory());
    expect(rejected).toMatchObject({ tool_use_id: "s1", is_error: true });
    expect(resultText(rejected!)).toMatch(/failed validation/);
    expect(resultText(rejected!)).toMatch(/- n: .*number/i);
    expect(resultText(rejected!)).toMatch(/call submit_output again/);
    expect(accepted).toMatchObject({ tool_use_id: "s2" });
    expect(accepted?.is_error).toBeUndefined();
    expect(client.requests[1]?.messages[2]).toEqual({ role: "user", content: [rejected] });
  });

  it("a bare parse gets a permissive object schema and parse alone decides", async () => {
    const outputSchema = {
      parse(input: unknown): { total: number } {
        const total = (input as { total?: unknown }).total;
        if (typeof total !== "number" || total < 0) throw new Error("total must be a non-negative number");
        return { total: Math.round(total) };
      },
    };
    const client = createScriptedClient([
      { content: [submit("s1", { total: -3 })] },
      { content: [submit("s2", { total: 9.6 })] },
    ]);
    const agent = createAgent({ model: MODEL, client, outputSchema });

    const result = await agent.prompt("sum");

    expect(client.requests[0]?.tools?.[0]?.input_schema).toEqual({
      type: "object",
      additionalProperties: true,
    });
    const [rejected] = toolResults(await agent.getHistory());
    expect(rejected?.is_error).toBe(true);
    expect(resultText(rejected!)).toContain("total must be a non-negative number");
    expect(result.structuredResult).toEqual({ total: 10 });
  });

  it("a validator that breaks (a Standard Schema whose validate returns nothing) is reported as such, not as an abort", async () => {
    const broken = {
      "~standard": { version: 1, vendor: "homemade", validate: () => undefined },
      jsonSchema: { type: "object" },
    } as never;
    const client = createScriptedClient([{ content: [submit("s1", { n: 1 })] }, { content: "gave up" }]);
    const agent = createAgent({ model: MODEL, client, outputSchema: broken });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("error_missing_output");
    const [block] = toolResults(await agent.getHistory());
    expect(block?.is_error).toBe(true);
    expect(resultText(block!)).not.toMatch(/aborted/);
    expect(resultText(block!)).toMatch(/validator failed/);
  });

  it("a { parse, jsonSchema } schema declares its jsonSchema as is", async () => {
    const jsonSchema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };
    const outputSchema = { jsonSchema, parse: (input: unknown) => input as { ok: boolean } };
    const client = createScriptedClient([{ content: [submit("s1", { ok: true })] }]);
    const agent = createAgent({ model: MODEL, client, outputSchema });

    const result = await agent.prompt("check");

    expect(client.requests[0]?.tools?.[0]?.input_schema).toEqual(jsonSchema);
    expect(result.structuredResult).toEqual({ ok: true });
  });

  it("a non-object schema is wrapped as { value } for the model and unwrapped for the result", async () => {
    const client = createScriptedClient([{ content: [submit("s1", { value: ["a", "b"] })] }]);
    const agent = createAgent({ model: MODEL, client, outputSchema: z.array(z.string()) });

    const result = await agent.prompt("list");

    expect(client.requests[0]?.tools?.[0]?.input_schema).toMatchObject({
      type: "object",
      properties: { value: { type: "array" } },
      required: ["value"],
    });
    expect(result.structuredResult).toEqual(["a", "b"]);
  });

  it("an object schema with a top-level anyOf/oneOf/allOf is wrapped too (the API refuses those at the top)", async () => {
    const jsonSchema = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "number" } },
      oneOf: [{ required: ["a"] }, { required: ["b"] }],
    };
    const outputSchema = { parse: (input: unknown) => input as { a?: string; b?: number }, jsonSchema };
    const client = createScriptedClient([{ content: [submit("s1", { value: { a: "x" } })] }]);
    const agent = createAgent({ model: MODEL, client, outputSchema });

    const result = await agent.prompt("pick");

    expect(client.requests[0]?.tools?.[0]?.input_schema).toEqual({
      type: "object",
      properties: { value: jsonSchema },
      required: ["value"],
    });
    expect(result.structuredResult).toEqual({ a: "x" });
  });
});

describe("ending without a submission", () => {
  it("fails error_missing_output with a MissingOutputError, and never parses the text as JSON", async () => {
    const client = createScriptedClient([{ content: '{"n": 42}' }]);
    const agent = createAgent({ model: MODEL, client, outputSchema: z.object({ n: z.number() }) });

    const result = await agent.prompt("compute");

    expect(result.subtype).toBe("error_missing_output");
    expect(result.is_error).toBe(true);
    expect(result.error).toBeInstanceOf(MissingOutputError);
    expect(result.error).toBeInstanceOf(Error);
    expect(result.structuredResult).toBeUndefined();
    expect(result.result).toBe('{"n": 42}');
    expect(client.callCount).toBe(1);
    expectWellFormed(await agent.getHistory());
  });

  it("other tools may run first; the run still needs the submission", async () => {
    const lookup = defineTool({ name: "lookup", inputSchema: z.object({}), execute: () => "41" });
    const client = createScriptedClient([{ content: [toolUse("t1", "lookup")] }, { content: "It is 42." }]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [lookup],
      outputSchema: z.object({ n: z.number() }),
    });

    const result = await agent.prompt("compute");

    expect(result.subtype).toBe("error_missing_output");
    expect(result.num_turns).toBe(2);
  });
});

describe("an endTurn tool with outputSchema set", () => {
  it("ends the run without a submission: error_missing_output, never a success without structuredResult", async () => {
    const finish = defineTool({
      name: "finish",
      inputSchema: z.object({}),
      execute: () => ({ content: "stopping here", endTurn: true }),
    });
    const client = createScriptedClient([{ content: [toolUse("t1", "finish")] }]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [finish],
      outputSchema: z.object({ n: z.number() }),
    });

    const result = await agent.prompt("go");

    expect(result.subtype).toBe("error_missing_output");
    expect(result.error).toBeInstanceOf(MissingOutputError);
    expect(result.structuredResult).toBeUndefined();
    expect(client.callCount).toBe(1);
    expectWellFormed(await agent.getHistory());
  });
});

describe("submit_output must be alone in its batch", () => {
  it("a batch mixing it with another call is rejected whole: no tool runs, and the loop continues", async () => {
    const executed: string[] = [];
    const lookup = defineTool({
      name: "lookup",
      readOnly: true,
      inputSchema: z.object({}),
      execute: () => {
        executed.push("lookup");
        return "41";
      },
    });
    const client = createScriptedClient([
      { content: [toolUse("t1", "lookup"), submit("s1", { n: 42 })] },
      { content: [submit("s2", { n: 42 })] },
    ]);
    const agent = createAgent({
      model: MODEL,
      client,
      tools: [lookup],
      outputSchema: z.object({ n: z.number() }),
    });

    const result = await agent.prompt("compute");

    expect(executed).toEqual([]);
    const history = await agent.getHistory();
    expectWellFormed(history);
    const [first, second, accepted] = toolResults(history);
    for (const block of [first, second]) {
      expect(block?.is_error).toBe(true);
      expect(resultText(block!)).toContain("submit_output_exclusive_batch");
      expect(resultText(block!)).toMatch(/only tool call/);
    }
    expect([first?.tool_use_id, second?.tool_use_id]).toEqual(["t1", "s1"]);
    expect(accepted?.tool_use_id).toBe("s2");
    expect(result.subtype).toBe("success");
    expect(result.structuredResult).toEqual({ n: 42 });
    expect(result.num_turns).toBe(2);
  });

  it("two submissions in one batch are rejected, even when both are valid", async () => {
    const client = createScriptedClient([
      { content: [submit("s1", { n: 1 }), submit("s2", { n: 2 })] },
      { content: [submit("s3", { n: 3 })] },
    ]);
    const agent = createAgent({ model: MODEL, client, outputSchema: z.object({ n: z.number() }) });

    const result = await agent.prompt("compute");

    const [first, second] = toolResults(await agent.getHistory());
    expect(first?.is_error).toBe(true);
    expect(second?.is_error).toBe(true);
    expect(resultText(first!)).toContain("submit_output_exclusive_batch");
    expect(resultText(first!)).toContain("2 submit_output calls");
    expect(result.structuredResult).toEqual({ n: 3 });
  });
});

describe("the reserved name", () => {
  const impostor = defineTool({ name: "submit_output", inputSchema: z.object({}), execute: () => "mine" });

  it("createAgent throws on a tool named submit_output while outputSchema is set", () => {
    expect(() =>
      createAgent({
        model: MODEL,
        client: createScriptedClient([]),
        tools: [impostor],
        outputSchema: z.object({}),
      }),
    ).toThrow(InvalidOptionError);
  });

  it("addTools throws on it too", () => {
    const agent = createAgent({ model: MODEL, client: createScriptedClient([]), outputSchema: z.object({}) });
    expect(() => agent.addTools(impostor)).toThrow(/reserved/);
  });

  it("is an ordinary name without outputSchema", async () => {
    const client = createScriptedClient([{ content: [toolUse("t1", "submit_output")] }, { content: "done" }]);
    const agent = createAgent({ model: MODEL, client, tools: [impostor] });

    await agent.prompt("go");

    expect(toolResults(await agent.getHistory())[0]?.content).toBe("mine");
  });

  it("an outputSchema without parse is refused", () => {
    expect(() =>
      createAgent({ model: MODEL, client: createScriptedClient([]), outputSchema: {} as never }),
    ).toThrow(InvalidOptionError);
  });
});
