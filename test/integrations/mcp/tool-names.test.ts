import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  exposedToolNames,
  sanitizeNamePart,
  serverNameSegments,
} from "../../../src/integrations/mcp/tool-names";

const API_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("MCP tool names", () => {
  it("names tools mcp__<server>__<tool>", () => {
    expect(exposedToolNames("files", ["read_file", "list-dir"])).toEqual([
      "mcp__files__read_file",
      "mcp__files__list-dir",
    ]);
  });

  it("replaces characters outside the API charset", () => {
    expect(sanitizeNamePart("a.b/c d:é")).toBe("a_b_c_d__");
    expect(sanitizeNamePart("")).toBe("_");
    expect(exposedToolNames("s", ["fs.read"])).toEqual(["mcp__s__fs_read"]);
  });

  it("keeps server segments free of `__` and of leading or trailing `_`", () => {
    expect(serverNameSegments(["my  server", "__x__", "a__b", "...", ""])).toEqual([
      "my_server",
      "x",
      "a_b",
      "server",
      expect.stringMatching(/^server_[0-9a-f]{8}$/),
    ]);
  });

  it("makes colliding server segments unique with a hash of the original name", () => {
    const [first, second] = serverNameSegments(["git hub", "git.hub"]);
    expect(first).toBe("git_hub");
    expect(second).toMatch(/^git_hub_[0-9a-f]{8}$/);
  });

  it("shortens long names to 64 characters, keeping them unique", () => {
    const [segment] = serverNameSegments(["a-very-long-server-name-that-goes-on-and-on"]);
    expect(segment!.length).toBeLessThanOrEqual(24);
    const long = "x".repeat(100);
    const names = exposedToolNames(segment!, [`${long}1`, `${long}2`]);
    for (const name of names) expect(name).toMatch(API_TOOL_NAME);
    expect(new Set(names).size).toBe(2);
  });

  it("follows the documented rule: server parts up to 24 characters kept, longer ones cut to 15 plus a hash", () => {
    // docs/en/mcp.md "Tool names" quotes these; users may depend on the names.
    const exactly24 = "abcdefghijklmnopqrstuvwx";
    expect(serverNameSegments([exactly24, `${exactly24}y`, "production-analytics-warehouse"])).toEqual([
      exactly24,
      expect.stringMatching(/^abcdefghijklmno_[0-9a-f]{8}$/),
      "production-anal_567f206e",
    ]);
    expect(exposedToolNames("production-anal_567f206e", ["query"])).toEqual([
      "mcp__production-anal_567f206e__query",
    ]);
    const [long] = exposedToolNames("files", ["t".repeat(60)]);
    expect(long).toMatch(/^mcp__files__t{43}_[0-9a-f]{8}$/);
    expect(long).toHaveLength(64);
  });

  it("makes tools that sanitise to the same name unique", () => {
    const names = exposedToolNames("s", ["a.b", "a_b", "a/b"]);
    expect(names[0]).toBe("mcp__s__a_b");
    expect(new Set(names).size).toBe(3);
    for (const name of names) expect(name).toMatch(API_TOOL_NAME);
  });

  it("always gives valid, globally unique names for any server and tool names", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 80 }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.string({ maxLength: 100 }), { maxLength: 6 }),
        (servers, tools) => {
          const segments = serverNameSegments(servers);
          const all = segments.flatMap((segment) => exposedToolNames(segment, [...new Set(tools)]));
          for (const name of all) expect(name).toMatch(API_TOOL_NAME);
          expect(new Set(all).size).toBe(all.length);
        },
      ),
    );
  });
});
