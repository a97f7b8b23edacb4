/**
 * A clone's `npm install` builds only the command; an option that loads a part of the package at run
 * time (`--skills`, `--mcp`) then fails with ERR_MODULE_NOT_FOUND for a file of the package's own
 * dist/, and the message says to run `npm run build`. Other errors get no hint.
 */
import { describe, expect, it } from "vitest";
import { unbuiltEntryHint } from "../../src/cli/unbuilt-entry";

function notFound(path: string): Error {
  return Object.assign(new Error(`Cannot find module '${path}' imported from /x/dist/cli/chunk.js`), {
    code: "ERR_MODULE_NOT_FOUND",
  });
}

describe("unbuiltEntryHint", () => {
  it("names `npm run build` for a file missing from the package's own dist/", () => {
    expect(unbuiltEntryHint(notFound("/clone/dist/skills/files.js"), "/clone/dist")).toMatch(
      /run `npm run build`/,
    );
  });

  it("says nothing for a module elsewhere, another error code, or a non-error", () => {
    expect(unbuiltEntryHint(notFound("/clone/node_modules/x/index.js"), "/clone/dist")).toBeUndefined();
    expect(unbuiltEntryHint(notFound("/clone/dist-old/mcp.js"), "/clone/dist")).toBeUndefined();
    expect(
      unbuiltEntryHint(new Error("Cannot find module '/clone/dist/mcp.js'"), "/clone/dist"),
    ).toBeUndefined();
    expect(unbuiltEntryHint("boom", "/clone/dist")).toBeUndefined();
  });
});
