import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
// esbuild comes with tsup (our build tool).
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMcpClientSdk } from "../../../src/integrations/mcp/load-client-sdk";

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
  const directory = mkdtempSync(join(tmpdir(), "mcp-no-sdk-"));
  const bundle = join(directory, "connect.mjs");

  beforeAll(async () => {
    await build({
      entryPoints: [join(ROOT, "src/integrations/mcp/connect.ts")],
      outfile: bundle,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      logLevel: "error",
    });
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

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
