/**
 * `outputFormat`, the provider-native route: the format goes on the request, and the final text is
 * parsed as JSON and validated.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAgent, InvalidOptionError, type OutputFormat, StructuredOutputError } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";
import { MODEL } from "./support";

const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

describe("outputFormat", () => {
  it("is sent on every request and the final text is parsed into structuredResult", async () => {
    const outputFormat: OutputFormat = { type: "json_schema", schema };
    const client = createScriptedClient([{ content: '{"city":"Lisbon"}' }]);
    const agent = createAgent({ model: MODEL, client, outputFormat });

    const result = await agent.prompt("Where?");

    expect(client.requests[0]?.outputFormat).toEqual(outputFormat);
    expect(result.subtype).toBe("success");
    expect(result.structuredResult).toEqual({ city: "Lisbon" });
    expect(result.result).toBe('{"city":"Lisbon"}');
    expect(client.requests[0]?.tools).toBeUndefined();
  });

  it("validates the parsed JSON with the format's parse", async () => {
    const parser = z.object({ city: z.string().min(2) });
    const client = createScriptedClient([{ content: '{"city":"Rome"}' }, { content: '{"city":"X"}' }]);
    const agent = createAgent({
      model: MODEL,
      client,
      outputFormat: { type: "json_schema", schema, parse: (input) => parser.parse(input) },
    });

    expect((await agent.prompt("one")).structuredResult).toEqual({ city: "Rome" });

    const failed = await agent.prompt("two");
    expect(failed.subtype).toBe("error_during_execution");
    expect(failed.is_error).toBe(true);
    expect(failed.error).toBeInstanceOf(StructuredOutputError);
    expect(failed.error?.message).toMatch(/failed validation/);
    expect(failed.structuredResult).toBeUndefined();
  });

  it("a parse that throws a string (not an Error) is reported with that string", async () => {
    const client = createScriptedClient([{ content: '{"city":"X"}' }]);
    const parse = () => {
      throw "city too short";
    };
    const agent = createAgent({ model: MODEL, client, outputFormat: { type: "json_schema", schema, parse } });

    const result = await agent.prompt("Where?");

    expect(result.subtype).toBe("error_during_execution");
    expect(result.error?.message).toBe("outputFormat: the final JSON failed validation: city too short");
  });

  it("text that is not JSON ends the query with an error that keeps the text", async () => {
    const client = createScriptedClient([{ content: "The city is Lisbon." }]);
    const agent = createAgent({ model: MODEL, client, outputFormat: { type: "json_schema", schema } });

    const result = await agent.prompt("Where?");

    expect(result.subtype).toBe("error_during_execution");
    expect(result.error).toBeInstanceOf(StructuredOutputError);
    expect(result.error?.message).toMatch(/not valid JSON/);
    expect((result.error as StructuredOutputError).text).toBe("The city is Lisbon.");
    expect(result.result).toBe("The city is Lisbon.");
  });

  it("accepts JSON wrapped in a Markdown code fence", async () => {
    const client = createScriptedClient([{ content: '```json\n{"city":"Oslo"}\n```' }]);
    const agent = createAgent({ model: MODEL, client, outputFormat: { type: "json_schema", schema } });

    expect((await agent.prompt("Where?")).structuredResult).toEqual({ city: "Oslo" });
  });

  it("cannot be combined with outputSchema", () => {
    expect(() =>
      createAgent({
        model: MODEL,
        client: createScriptedClient([]),
        outputFormat: { type: "json_schema", schema },
        outputSchema: z.object({ city: z.string() }),
      }),
    ).toThrow(InvalidOptionError);
  });
});
