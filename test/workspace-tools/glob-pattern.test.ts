import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  expandBraces,
  GlobSyntaxError,
  MAX_BRACE_EXPANSIONS,
} from "../../src/workspace-tools/brace-expansion";
import { compileGlob } from "../../src/workspace-tools/glob-pattern";

function matching(pattern: string, paths: string[]): string[] {
  const matcher = compileGlob(pattern);
  return paths.filter((candidate) => matcher.matches(candidate));
}

const PATHS = [
  "a.ts",
  "b.js",
  ".hidden.ts",
  "src/index.ts",
  "src/index.test.ts",
  "src/deep/nested/util.ts",
  "src/deep/readme.md",
  "test/a.ts",
  "test/b.tsx",
  "node_modules/zod/index.d.ts",
];

describe("compileGlob matches", () => {
  it("`*` stays within one folder name", () => {
    expect(matching("*.ts", PATHS)).toEqual(["a.ts", ".hidden.ts"]);
    expect(matching("src/*.ts", PATHS)).toEqual(["src/index.ts", "src/index.test.ts"]);
  });

  it("`**` spans any number of folders, zero included", () => {
    expect(matching("**/*.ts", PATHS)).toEqual([
      "a.ts",
      ".hidden.ts",
      "src/index.ts",
      "src/index.test.ts",
      "src/deep/nested/util.ts",
      "test/a.ts",
      "node_modules/zod/index.d.ts",
    ]);
    expect(matching("src/**/*.ts", PATHS)).toEqual([
      "src/index.ts",
      "src/index.test.ts",
      "src/deep/nested/util.ts",
    ]);
    expect(matching("src/**", PATHS)).toEqual([
      "src/index.ts",
      "src/index.test.ts",
      "src/deep/nested/util.ts",
      "src/deep/readme.md",
    ]);
    expect(matching("**/deep/**/*.ts", PATHS)).toEqual(["src/deep/nested/util.ts"]);
    expect(matching("**/**/a.ts", PATHS)).toEqual(["a.ts", "test/a.ts"]);
  });

  it("`?`, classes, negated classes and ranges", () => {
    expect(matching("?.ts", PATHS)).toEqual(["a.ts"]);
    expect(matching("test/[ab].ts*", PATHS)).toEqual(["test/a.ts", "test/b.tsx"]);
    expect(matching("test/[!a].*", PATHS)).toEqual(["test/b.tsx"]);
    expect(matching("test/[^a].*", PATHS)).toEqual(["test/b.tsx"]);
    expect(matching("[a-b].*", PATHS)).toEqual(["a.ts", "b.js"]);
    expect(compileGlob("[]]x").matches("]x")).toBe(true);
    expect(compileGlob("[!]]x").matches("ax")).toBe(true);
    expect(compileGlob("[!]]x").matches("]x")).toBe(false);
  });

  it("brace alternatives, nested and spanning folders", () => {
    expect(matching("*.{ts,js}", PATHS)).toEqual(["a.ts", "b.js", ".hidden.ts"]);
    expect(matching("{src,test}/*.ts", PATHS)).toEqual(["src/index.ts", "src/index.test.ts", "test/a.ts"]);
    expect(matching("test/*.{ts,ts{x,y}}", PATHS)).toEqual(["test/a.ts", "test/b.tsx"]);
    expect(matching("{src/deep/**/*.md,b.js}", PATHS)).toEqual(["b.js", "src/deep/readme.md"]);
  });

  it("escapes and regular-expression characters are literal", () => {
    expect(compileGlob("a\\*b").matches("a*b")).toBe(true);
    expect(compileGlob("a\\*b").matches("axb")).toBe(false);
    expect(compileGlob("file(1)+.txt").matches("file(1)+.txt")).toBe(true);
    expect(compileGlob("a.b").matches("axb")).toBe(false);
    expect(compileGlob("{a}").matches("{a}")).toBe(true);
    expect(compileGlob("[unclosed").matches("[unclosed")).toBe(true);
  });

  it("ignores ./ and doubled slashes", () => {
    expect(matching("./src//index.ts", PATHS)).toEqual(["src/index.ts"]);
  });

  it("is case-sensitive", () => {
    expect(compileGlob("*.TS").matches("a.ts")).toBe(false);
  });

  it("an escaped literal path matches exactly itself (property)", () => {
    const segment = fc
      .string({ minLength: 1, maxLength: 8 })
      .filter((text) => !text.includes("/") && text !== "." && text !== "..");
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        (parts, other) => {
          // A pattern of only whitespace is refused as empty (see "compileGlob refuses"), not matched literally.
          fc.pre(parts.join("/").trim() !== "");
          const literal = parts.map((part) => part.replace(/[\\*?[\]{}!^,]/g, "\\$&")).join("/");
          const matcher = compileGlob(literal);
          expect(matcher.matches(parts.join("/"))).toBe(true);
          expect(compileGlob("**").matches(parts.join("/"))).toBe(true);
          if (other.join("/") !== parts.join("/")) expect(matcher.matches(other.join("/"))).toBe(false);
        },
      ),
    );
  });
});

describe("compileGlob takes linear time", () => {
  it("many stars against a name that does not match: no regex backtracking", () => {
    // As a regular expression (^.*a.*a….*b$) this took about 10 s, longer with each character.
    const matcher = compileGlob(`${"*a".repeat(6)}*b`);
    const started = performance.now();
    expect(matcher.matches("a".repeat(70))).toBe(false);
    expect(matcher.matches(`src/${"a".repeat(70)}`)).toBe(false);
    expect(matcher.matches(`${"a".repeat(70)}b`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("agrees with a regular expression on `*`, `?` and classes (property)", () => {
    const toRegExp = (pattern: string) =>
      new RegExp(`^${pattern.replace(/\*+/g, ".*").replace(/\?/g, ".").replace(/\[!/g, "[^")}$`, "s");
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", "*", "?", "[ab]", "[!a]", "[a-c]"), {
          minLength: 1,
          maxLength: 8,
        }),
        fc.string({ unit: fc.constantFrom("a", "b", "c", "."), maxLength: 10 }),
        (tokens, name) => {
          const pattern = tokens.join("");
          // `**` alone is a globstar: zero or more whole segments, so it matches even the empty path.
          const expected = pattern === "**" || (name !== "" && name !== "." && toRegExp(pattern).test(name));
          expect(compileGlob(pattern).matches(name)).toBe(expected);
        },
      ),
    );
  });
});

describe("compileGlob pruning", () => {
  it("mayMatchInside tells which folders can hold matches", () => {
    const matcher = compileGlob("src/*/nested/*.ts");
    expect(matcher.mayMatchInside("src")).toBe(true);
    expect(matcher.mayMatchInside("src/deep")).toBe(true);
    expect(matcher.mayMatchInside("src/deep/nested")).toBe(true);
    expect(matcher.mayMatchInside("src/deep/nested/more")).toBe(false);
    expect(matcher.mayMatchInside("test")).toBe(false);
    expect(compileGlob("*.ts").mayMatchInside("src")).toBe(false);
    expect(compileGlob("**/*.ts").mayMatchInside("a/b/c/d")).toBe(true);
    expect(compileGlob("{src,test}/*.ts").mayMatchInside("test")).toBe(true);
  });

  it("namesDirectory is true only for folders the pattern spells out", () => {
    expect(compileGlob("node_modules/zod/*.d.ts").namesDirectory("node_modules")).toBe(true);
    expect(compileGlob("node_modules/zod/*.d.ts").namesDirectory("node_modules/zod")).toBe(true);
    expect(compileGlob("**/*.ts").namesDirectory("node_modules")).toBe(false);
    expect(compileGlob("node_*/x").namesDirectory("node_modules")).toBe(false);
    expect(compileGlob("node_modules").namesDirectory("node_modules")).toBe(false);
    expect(compileGlob("packages/*/node_modules/**").namesDirectory("packages/a/node_modules")).toBe(true);
  });
});

describe("compileGlob refuses", () => {
  it.each([
    ["", "The glob pattern is empty."],
    ["  ", "The glob pattern is empty."],
    ["/etc/*", 'Glob pattern "/etc/*" is absolute'],
    ["../*", 'Glob pattern "../*" contains ".."'],
    ["src/{a,..}/x", 'contains ".."'],
    ["[z-a]", 'Glob segment "[z-a]" is invalid'],
  ])("%j", (pattern, message) => {
    expect(() => compileGlob(pattern)).toThrow(GlobSyntaxError);
    expect(() => compileGlob(pattern)).toThrow(message);
  });

  it("patterns that expand to too many alternatives", () => {
    const pattern = "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}";
    expect(() => expandBraces(pattern)).toThrow(`more than ${MAX_BRACE_EXPANSIONS} alternatives`);
    expect(expandBraces("{a,b}{c,d}")).toEqual(["ac", "ad", "bc", "bd"]);
  });
});
