import { describe, expect, it } from "vitest";
import { mcpResultFromToolOutput, toolOutputFromMcpResult } from "../../../src/integrations/mcp/content";

describe("toolOutputFromMcpResult", () => {
  it("gives the model a resource link as a line naming it and an embedded resource as its content", () => {
    expect(
      toolOutputFromMcpResult({
        content: [
          {
            type: "resource_link",
            uri: "file:///a.txt",
            name: "a.txt",
            mimeType: "text/plain",
            description: "notes",
          },
          { type: "resource", resource: { uri: "file:///b.md", mimeType: "text/markdown", text: "# B" } },
          { type: "resource", resource: { uri: "file:///c.png", mimeType: "image/png", blob: "iVBO" } },
        ],
      }),
    ).toEqual({
      content: [
        {
          type: "text",
          text: "Resource link: file:///a.txt; name: a.txt; type: text/plain; description: notes",
        },
        { type: "text", text: "Resource file:///b.md:\n# B" },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } },
      ],
    });
  });

  it("redacts learned secrets from every text, successful or not", () => {
    const redactLearned = (text: string) => text.replace("at-secret-token", "[redacted]");
    expect(
      toolOutputFromMcpResult(
        { content: [{ type: "text", text: "token at-secret-token" }] },
        undefined,
        redactLearned,
      ),
    ).toEqual({ content: [{ type: "text", text: "token [redacted]" }] });
  });

  it("keeps text and images, and turns other blocks into JSON text", () => {
    expect(
      toolOutputFromMcpResult({
        content: [
          { type: "text", text: "one" },
          { type: "image", data: "AAAA", mimeType: "image/gif" },
          { type: "audio", data: "QUJD", mimeType: "audio/wav" },
        ],
      }),
    ).toEqual({
      content: [
        { type: "text", text: "one" },
        { type: "image", source: { type: "base64", media_type: "image/gif", data: "AAAA" } },
        { type: "text", text: '{"type":"audio","data":"QUJD","mimeType":"audio/wav"}' },
      ],
    });
  });

  it("leaves long binary payloads (audio, blobs) out of the JSON text", () => {
    const data = "A".repeat(10_000);
    const output = toolOutputFromMcpResult({
      content: [
        { type: "audio", data, mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///b.bin", blob: data } },
        { type: "audio", data: "QUJD", mimeType: "audio/wav" },
      ],
    });
    expect(output).toEqual({
      content: [
        {
          type: "text",
          text: '{"type":"audio","data":"(10000 base64 characters omitted)","mimeType":"audio/wav"}',
        },
        {
          type: "text",
          text: '{"type":"resource","resource":{"uri":"file:///b.bin","blob":"(10000 base64 characters omitted)"}}',
        },
        { type: "text", text: '{"type":"audio","data":"QUJD","mimeType":"audio/wav"}' },
      ],
    });
  });

  it("keeps only the image types the Messages API accepts as images; others become JSON text", () => {
    const svg = "PHN2Zy8+";
    expect(
      toolOutputFromMcpResult({
        content: [
          { type: "image", data: svg, mimeType: "image/svg+xml" },
          { type: "image", data: "Qk0=", mimeType: "image/bmp" },
          { type: "image", data: "AAAA", mimeType: "IMAGE/PNG" },
          { type: "image", data: "AAAA", mimeType: "image/jpeg" },
          { type: "image", data: "AAAA", mimeType: "image/webp" },
        ],
      }),
    ).toEqual({
      content: [
        { type: "text", text: `{"type":"image","data":"${svg}","mimeType":"image/svg+xml"}` },
        { type: "text", text: '{"type":"image","data":"Qk0=","mimeType":"image/bmp"}' },
        { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
        { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "AAAA" } },
        { type: "image", source: { type: "base64", media_type: "image/webp", data: "AAAA" } },
      ],
    });
  });

  it("keeps isError", () => {
    expect(toolOutputFromMcpResult({ content: [{ type: "text", text: "bad" }], isError: true })).toEqual({
      content: [{ type: "text", text: "bad" }],
      isError: true,
    });
  });

  it("falls back to structuredContent, then to a pre-2024-11 toolResult", () => {
    expect(toolOutputFromMcpResult({ content: [], structuredContent: { total: 3 } })).toEqual({
      content: [{ type: "text", text: '{"total":3}' }],
    });
    expect(toolOutputFromMcpResult({ toolResult: ["a", 1] })).toEqual({
      content: [{ type: "text", text: '["a",1]' }],
    });
  });

  it("never produces empty text blocks, which the Messages API rejects", () => {
    expect(toolOutputFromMcpResult({ content: [{ type: "text", text: "" }] })).toEqual({ content: "" });
    expect(toolOutputFromMcpResult({ content: [] })).toEqual({ content: "" });
    expect(toolOutputFromMcpResult({ content: [], isError: true })).toEqual({
      content: "The MCP tool reported an error without any content.",
      isError: true,
    });
  });
});

describe("mcpResultFromToolOutput", () => {
  it("turns a string into one text block", () => {
    expect(mcpResultFromToolOutput("done")).toEqual({ content: [{ type: "text", text: "done" }] });
  });

  it("converts blocks, keeps isError and drops endTurn", () => {
    expect(
      mcpResultFromToolOutput({
        content: [
          { type: "text", text: "see" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
          { type: "image", source: { type: "url", url: "https://example.com/a%20b.png?x=1" } },
          { type: "image", source: { type: "url", url: "https://example.com/" } },
        ],
        isError: true,
        endTurn: true,
      }),
    ).toEqual({
      content: [
        { type: "text", text: "see" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource_link", uri: "https://example.com/a%20b.png?x=1", name: "a b.png" },
        { type: "resource_link", uri: "https://example.com/", name: "image" },
      ],
      isError: true,
    });
    expect(mcpResultFromToolOutput({ content: "plain" })).toEqual({
      content: [{ type: "text", text: "plain" }],
    });
  });

  it("serves other values as the agent loop records them: JSON text, and an error for malformed content", () => {
    expect(mcpResultFromToolOutput({ total: 3 } as never)).toEqual({
      content: [{ type: "text", text: '{"total":3}' }],
    });
    expect(mcpResultFromToolOutput(42 as never)).toEqual({ content: [{ type: "text", text: "42" }] });
    expect(mcpResultFromToolOutput({ content: 42 } as never)).toEqual({
      content: [
        {
          type: "text",
          text: "The tool returned content that is neither a string nor an array of text and image blocks (it was number), so its result was not recorded.",
        },
      ],
      isError: true,
    });
  });

  it("tolerates a JavaScript tool that returned nothing", () => {
    expect(mcpResultFromToolOutput(undefined as never)).toEqual({ content: [{ type: "text", text: "" }] });
  });
});

describe("toolOutputFromMcpResult: error text and secrets", () => {
  const redactToken = (text: string) => text.split("tok-12345678").join("[redacted]");

  it("redacts the text of an error result", () => {
    expect(
      toolOutputFromMcpResult(
        { content: [{ type: "text", text: "401 Bad credentials for token tok-12345678" }], isError: true },
        redactToken,
      ),
    ).toEqual({
      content: [{ type: "text", text: "401 Bad credentials for token [redacted]" }],
      isError: true,
    });
  });

  it("leaves a successful result as the server returned it", () => {
    expect(
      toolOutputFromMcpResult(
        { content: [{ type: "text", text: "tok-12345678 is configured" }] },
        redactToken,
      ),
    ).toEqual({ content: [{ type: "text", text: "tok-12345678 is configured" }] });
  });
});
