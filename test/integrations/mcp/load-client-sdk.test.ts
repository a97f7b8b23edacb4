import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { loadMcpClientSdk } from "../../../src/integrations/mcp/load-client-sdk";
import { bundleForNode } from "../../support/bundle";
import { sharedTemporaryFolder } from "../../support/temporary-folders";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

describe("loadMcpClientSdk", () => {
  it("loads the client SDK once", async () => {
    const sdk = await loadMcpClientSdk();
    expect(typeof sdk.Client).toBe("function");
    expect(typeof sdk.StdioClientTransport).toBe("function");
    expect(await loadMcpClientSdk()).toBe(sdk);
  });
});

describe("connectMcpServers where @modelcontextprotocol/sdk is not installed", () => {
  // The connector is bundled into a directory outside the repository, where the SDK cannot resolve.
  const directory = sharedTemporaryFolder("mcp-no-sdk-");
  const bundle = join(directory, "connect.mjs");

  beforeAll(async () => {
    await bundleForNode(join(ROOT, "src/integrations/mcp/connect.ts"), bundle);
  });

  it("imports fine, connects nothing without servers, and names the package to install otherwise", async () => {
    const script = `
      const { connectMcpServers } = await import(${JSON.stringify(bundle)});
      const empty = await connectMcpServers({});
      const outcome = await connectMcpServers({ s: { type: "stdio", command: "node" } }).then(
        () => ({ resolved: true }),
        (error) => ({ name: error.name, message: error.message }),
      );
      console.log(JSON.stringify({ emptyTools: empty.tools().length, outcome }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
      cwd: directory,
    });
    expect(JSON.parse(stdout)).toEqual({
      emptyTools: 0,
      outcome: {
        name: "InvalidOptionError",
        message:
          "mcpServers needs the optional peer dependency @modelcontextprotocol/sdk: npm install @modelcontextprotocol/sdk",
      },
    });
  });
});
