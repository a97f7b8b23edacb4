/**
 * A served tool that throws a value `String()` cannot convert (an object without a prototype) still
 * answers with the documented `isError` result, not a protocol error.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { runServedTool } from "../../../src/integrations/mcp/served-tools";
import { defineTool } from "../../../src/tools/define-tool";

describe("runServedTool with a thrown value that is not an Error", () => {
  it("answers an isError result naming the tool", async () => {
    const tool = defineTool({
      name: "odd",
      inputSchema: z.object({}),
      execute: () => {
        throw Object.create(null);
      },
    });
    const result = await runServedTool(tool, {}, { signal: new AbortController().signal, requestId: "1" });
    expect(result).toEqual({
      content: [{ type: "text", text: 'Tool "odd" failed: [object Object] (its description threw)' }],
      isError: true,
    });
  });
});
