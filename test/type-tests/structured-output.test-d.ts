/**
 * Type test, checked by `tsc --noEmit` (the project's tsconfig includes `test/`): the output
 * schema's type flows to `structuredResult`.
 */
import { expectTypeOf } from "vitest";
import { z } from "zod";
import { createAgent, type SDKMessage, type SDKResultMessage } from "../../src/index";
import { createScriptedClient } from "../../src/testing/index";

const client = createScriptedClient([]);

export async function zodSchemaGivesTheResultType(): Promise<void> {
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client,
    outputSchema: z.object({ n: z.number() }),
  });
  const result = await agent.prompt("count");
  expectTypeOf(result.structuredResult).toEqualTypeOf<{ n: number } | undefined>();
  expectTypeOf(result).toEqualTypeOf<SDKResultMessage<{ n: number }>>();
  for await (const message of agent.query("count")) {
    expectTypeOf(message).toEqualTypeOf<SDKMessage<{ n: number }>>();
    if (message.type === "result")
      expectTypeOf(message.structuredResult).toEqualTypeOf<{ n: number } | undefined>();
  }
}

export async function transformsGiveTheOutputType(): Promise<void> {
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client,
    outputSchema: z.object({ when: z.string().transform((text) => new Date(text)) }),
  });
  const result = await agent.prompt("when");
  expectTypeOf(result.structuredResult).toEqualTypeOf<{ when: Date } | undefined>();
}

export async function bareParseGivesItsReturnType(): Promise<void> {
  const agent = createAgent({
    model: "claude-sonnet-4-6",
    client,
    outputSchema: { parse: (input: unknown) => String(input) },
  });
  const result = await agent.prompt("text");
  expectTypeOf(result.structuredResult).toEqualTypeOf<string | undefined>();
}

export async function noSchemaGivesUnknown(): Promise<void> {
  const agent = createAgent({ model: "claude-sonnet-4-6", client });
  const result = await agent.prompt("text");
  expectTypeOf(result.structuredResult).toEqualTypeOf<unknown>();
}
