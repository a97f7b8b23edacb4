/**
 * `@anthropic-ai/sdk` is an optional peer dependency: a consumer passing `new Anthropic(…)`,
 * `new AnthropicVertex(…)` or `new AnthropicBedrock(…)` to `createAnthropicClient({ anthropic })`
 * must type-check against the oldest and the newest SDK release of the peer range. Each is
 * installed from the registry into a cache folder under the system's temporary folder (reused by
 * later runs); without a registry the test is skipped, saying so. Needs `dist/` (build first).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const root = resolve(__dirname, "../..");
const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const PEER_RANGE: string = packageJson.peerDependencies["@anthropic-ai/sdk"];
const CACHE = join(tmpdir(), "agent-lattice-sdk-peers");
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";
const TSC = join(root, "node_modules", ".bin", "tsc");

/** What a consumer writes: every SDK client injected, the stream narrowed, textDeltas used. */
const CONSUMER = `import Anthropic from "@anthropic-ai/sdk";
import AnthropicBedrock from "@anthropic-ai/bedrock-sdk";
import AnthropicVertex from "@anthropic-ai/vertex-sdk";
import { createAgent, createAnthropicClient, type ModelClient, textDeltas } from "agent-lattice";

const clients: ModelClient[] = [
  createAnthropicClient({ anthropic: new Anthropic({ apiKey: "k", defaultHeaders: { "x-team": "a" }, maxRetries: 4 }) }),
  createAnthropicClient({ anthropic: new AnthropicVertex({ region: "us-east5", projectId: "p" }), stream: false }),
  createAnthropicClient({
    anthropic: new AnthropicBedrock({ awsRegion: "us-east-1", awsAccessKey: "a", awsSecretKey: "s" }),
  }),
];

export async function run(): Promise<string> {
  const agent = createAgent({ model: "claude-sonnet-4-6", client: clients[0]!, includePartialMessages: true });
  let text = "";
  for await (const piece of textDeltas(agent.query("Hi"))) text += piece;
  for await (const m of agent.query("Hi")) {
    if (m.type === "stream_event" && m.event.type === "content_block_delta" && m.event.delta.type === "text_delta") {
      text += m.event.delta.text;
    }
  }
  return text;
}
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    noEmit: true,
    skipLibCheck: false,
    types: ["node"],
    lib: ["ES2023", "DOM"],
  },
  files: ["consumer.ts"],
};

/** The releases of the peer range, oldest first; `undefined` when the registry cannot be reached. */
function releasesInRange(): string[] | undefined {
  const view = spawnSync(NPM, ["view", `@anthropic-ai/sdk@${PEER_RANGE}`, "version", "--json"], {
    encoding: "utf8",
    timeout: 60_000,
  });
  if (view.status !== 0) return undefined;
  const parsed: unknown = JSON.parse(view.stdout);
  return Array.isArray(parsed) ? (parsed as string[]) : [parsed as string];
}

/** A folder with this SDK release (and the Vertex and Bedrock SDKs on it) installed, and agent-lattice linked. */
function consumerFolder(version: string): string {
  const folder = join(CACHE, version);
  const installed = join(folder, "node_modules", "@anthropic-ai", "sdk", "package.json");
  const ready =
    existsSync(installed) &&
    JSON.parse(readFileSync(installed, "utf8")).version === version &&
    existsSync(join(folder, "node_modules", "@anthropic-ai", "bedrock-sdk"));
  if (!ready) {
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "package.json"), JSON.stringify({ name: "consumer", private: true }));
    execFileSync(
      NPM,
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        `@anthropic-ai/sdk@${version}`,
        "@anthropic-ai/vertex-sdk@^1",
        "@anthropic-ai/bedrock-sdk@^1",
        "@types/node@^20",
      ],
      { cwd: folder, stdio: "ignore", timeout: 240_000 },
    );
  }
  // npm removes what it did not install: link the package after every install.
  rmSync(join(folder, "node_modules", "agent-lattice"), { force: true, recursive: true });
  symlinkSync(root, join(folder, "node_modules", "agent-lattice"), "dir");
  writeFileSync(join(folder, "consumer.ts"), CONSUMER);
  writeFileSync(join(folder, "tsconfig.json"), JSON.stringify(TSCONFIG));
  return folder;
}

let releases: string[] | undefined;

beforeAll(() => {
  releases = releasesInRange();
}, 90_000);

describe(`a consumer on @anthropic-ai/sdk (peer range ${PEER_RANGE})`, () => {
  for (const which of ["oldest", "newest"] as const) {
    it(`type-checks against the ${which} release, with the Vertex and Bedrock clients`, (context) => {
      if (!releases) {
        context.skip("the npm registry cannot be reached: the SDK releases cannot be installed");
        return;
      }
      const version = which === "oldest" ? releases[0]! : releases.at(-1)!;
      const folder = consumerFolder(version);
      const check = spawnSync(TSC, ["-p", "tsconfig.json"], { cwd: folder, encoding: "utf8" });
      expect(`${check.stdout}${check.stderr}`, `tsc against @anthropic-ai/sdk@${version}`).toBe("");
      expect(check.status).toBe(0);
    }, 400_000);
  }
});
