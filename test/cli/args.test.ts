import { describe, expect, it } from "vitest";
import { DEFAULT_CLI_MODEL, parseCommandLine } from "../../src/cli/args";
import { UsageError } from "../../src/cli/usage-error";

const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => {
  const command = parseCommandLine(argv, env);
  if (command.kind !== "run") throw new Error(`expected a run, got ${command.kind}`);
  return command.options;
};

const usageErrorOf = (argv: string[], env: NodeJS.ProcessEnv = {}): string => {
  try {
    parseCommandLine(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a usage error");
};

describe("parseCommandLine", () => {
  it("defaults: no prompt (interactive), the default model, no tools, text output", () => {
    expect(run([])).toEqual({
      prompt: undefined,
      model: DEFAULT_CLI_MODEL,
      baseURL: undefined,
      apiKey: undefined,
      systemPrompt: undefined,
      maxTurns: undefined,
      budgetUsd: undefined,
      tools: [],
      sessionPath: undefined,
      outputSchemaPath: undefined,
      json: false,
      partial: false,
      demo: false,
      mock: false,
      unconfinedBash: false,
      offline: false,
      modelSettings: {},
      thinkingDisplay: true,
    });
  });

  it("joins positional words into the prompt and reads every option", () => {
    expect(
      run([
        "--model=claude-haiku-4-5",
        "--base-url",
        "http://127.0.0.1:8080",
        "--system",
        "Be brief.",
        "--max-turns",
        "7",
        "--budget",
        "$0.25",
        "--tools",
        "bash, READ,read",
        "--session",
        "s.jsonl",
        "--output-schema",
        "o.json",
        "--json",
        "--partial",
        "--sandbox-user",
        "builder",
        "what",
        "is",
        "this?",
      ]),
    ).toEqual({
      prompt: "what is this?",
      model: "claude-haiku-4-5",
      baseURL: "http://127.0.0.1:8080",
      apiKey: undefined,
      systemPrompt: "Be brief.",
      maxTurns: 7,
      budgetUsd: 0.25,
      tools: ["bash", "read"],
      sessionPath: "s.jsonl",
      outputSchemaPath: "o.json",
      sandboxUser: "builder",
      json: true,
      partial: true,
      demo: false,
      mock: false,
      unconfinedBash: false,
      offline: false,
      modelSettings: {},
      thinkingDisplay: true,
    });
  });

  it("takes the key, base URL and model from the environment; flags win; empty values count as unset", () => {
    const env = {
      ANTHROPIC_API_KEY: "key",
      ANTHROPIC_BASE_URL: "https://example.test",
      ANTHROPIC_MODEL: "m",
    };
    expect(run([], env)).toMatchObject({ apiKey: "key", baseURL: "https://example.test", model: "m" });
    expect(run(["--model", "n", "--base-url", "http://x.test"], env)).toMatchObject({
      model: "n",
      baseURL: "http://x.test",
    });
    expect(run([], { ANTHROPIC_API_KEY: "", ANTHROPIC_MODEL: " " })).toMatchObject({
      apiKey: undefined,
      model: DEFAULT_CLI_MODEL,
    });
  });

  it("help and version win over everything else", () => {
    expect(parseCommandLine(["--json", "-h"], {})).toEqual({ kind: "help" });
    expect(parseCommandLine(["--version"], {})).toEqual({ kind: "version" });
    expect(parseCommandLine(["-v"], {})).toEqual({ kind: "version" });
  });

  it.each([
    [["--frobnicate"], /Unknown option '--frobnicate'/],
    [["--model"], /--model/],
    [["--max-turns", "0"], /--max-turns must be a positive integer, got "0"/],
    [["--max-turns", "2.5"], /--max-turns must be a positive integer/],
    [["--max-turns", "many"], /--max-turns must be a positive integer/],
    [["--budget=-1"], /--budget must be a positive number of US dollars/],
    [["--budget", "-1"], /^Option '--budget' argument is ambiguous$/],
    [["--budget", "lots"], /--budget must be a positive number/],
    [["--tools", "read,fly"], /unknown tool group "fly" \(choose from read, write, bash\)/],
    [["--tools", ","], /--tools needs at least one of read, write, bash/],
    [["--base-url", "ftp://x"], /--base-url must be an http\(s\) URL/],
    [["--base-url", "not a url"], /--base-url must be an http\(s\) URL/],
    [["--model", " "], /--model needs a non-empty value/],
    [["--partial"], /--partial only makes sense with --json/],
    [["--demo", "do", "it"], /--demo takes no prompt/],
    [["--demo", "--tools", "read"], /--demo chooses its own tools/],
    [["--demo", "--base-url", "http://x.test"], /--demo runs against its own local mock server/],
    [["--demo", "--output-schema", "o.json"], /--demo does not support --output-schema/],
    [["--sandbox-user", "x"], /--sandbox-user goes with --tools bash/],
    [["--unconfined-bash"], /--unconfined-bash goes with --tools bash/],
    [["--mcp-browser"], /--mcp-browser goes with --mcp/],
    [["--mcp-tokens", "tokens.json"], /--mcp-tokens goes with --mcp/],
    [["--mcp", " "], /--mcp needs a non-empty value/],
    [["--demo", "--mcp", "servers.json"], /--demo chooses its own tools; drop --mcp/],
    [["--tools", "bash", "--unconfined-bash", "--sandbox-user", "x"], /contradict each other/],
  ])("%j is a usage error", (argv, message) => {
    expect(usageErrorOf(argv)).toMatch(message);
  });

  it("the demo may still use the base URL from the environment's defaults without conflict", () => {
    expect(run(["--demo"], { ANTHROPIC_BASE_URL: "http://x.test" })).toMatchObject({ demo: true });
  });
});
