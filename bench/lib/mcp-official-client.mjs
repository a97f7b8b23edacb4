// The official TypeScript SDK's client (@modelcontextprotocol/sdk, the v1 line we build on) as a
// conformance client: connect, list the tools, call each once (add_numbers with numbers, others
// with {}). No OAuth: bench/mcp-next-wire.mjs runs it on the scenarios without authorization.
//   node bench/lib/mcp-official-client.mjs <server-url>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const client = new Client({ name: "official-sdk-client", version: "1.0.0" }, { capabilities: {} });
try {
  await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2])));
  const { tools } = await client.listTools();
  for (const tool of tools) {
    await client.callTool({ name: tool.name, arguments: tool.name === "add_numbers" ? { a: 2, b: 3 } : {} });
  }
  await client.close();
  process.exit(0);
} catch (error) {
  console.error(String(error));
  process.exit(1);
}
