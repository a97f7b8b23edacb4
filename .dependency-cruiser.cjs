/**
 * The dependency rules of src/ (see ARCHITECTURE.md): every arrow points inward, and no file
 * imports itself back through a cycle. `npm run check` runs this; a forbidden arrow fails it.
 *
 * Layers, inner to outer — a folder imports only from its own layer's listed folders and below:
 *   shared, errors.ts → messages → model, cost, compaction, history → tools, telemetry → hooks
 *   → tool-calls → loop (inside it: state ← model-call ← the steps, approvals, compaction) → agent, workspace-tools, integrations, testing → subagents → cli, index.ts → queue, ui (on the root entry)
 */
const inner = (...folders) => `^src/(${folders.join("|")})/`;
const ERRORS = "^src/errors\\.ts$";

/** `folder` may import only from `allowed` (and errors.ts, and anything outside src/). */
function onlyInward(name, folder, allowed, comment) {
  return {
    name,
    comment,
    severity: "error",
    from: { path: `^src/${folder}/` },
    to: { path: "^src/", pathNot: [inner(folder, ...allowed), ERRORS] },
  };
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle between files makes both impossible to change or test alone.",
      from: {},
      to: { circular: true },
    },
    onlyInward("shared-is-a-leaf", "shared", [], "shared/ holds utilities that know nothing of agents."),
    onlyInward("messages-are-data", "messages", ["shared"], "messages/ is the wire vocabulary only."),
    onlyInward("model-behind-its-port", "model", ["messages", "shared"]),
    onlyInward("cost-is-arithmetic", "cost", ["messages", "shared"]),
    onlyInward("compaction-is-pure", "compaction", ["messages", "shared", "cost"]),
    onlyInward("history-knows-messages", "history", ["messages", "shared"]),
    onlyInward("tools-know-the-port", "tools", ["messages", "model", "shared"]),
    onlyInward("telemetry-knows-the-port", "telemetry", ["messages", "model", "shared"]),
    onlyInward("hooks-know-tools", "hooks", ["messages", "model", "tools", "shared"]),
    onlyInward(
      "guardrails-know-the-port",
      "guardrails",
      ["messages", "model", "tools", "shared"],
      "Guardrail definitions, the ready-made ones and running a stage's checks: the tool pipeline and the loop run them.",
    ),
    onlyInward(
      "tool-calls-know-no-loop",
      "tool-calls",
      ["messages", "model", "tools", "telemetry", "hooks", "guardrails", "shared"],
      "The tool pipeline runs one call (or one batch) against the ToolRuntime it is handed: it knows nothing of the loop, the agent or the stores.",
    ),
    onlyInward(
      "loop-owns-its-inputs",
      "loop",
      [
        "messages",
        "model",
        "cost",
        "compaction",
        "history",
        "tools",
        "telemetry",
        "hooks",
        "guardrails",
        "tool-calls",
        "shared",
      ],
      "The loop never imports the agent shell, the CLI, integrations or the testing kit.",
    ),
    {
      name: "loop-state-is-the-base",
      severity: "error",
      comment:
        "Inside the loop, state/ (configuration, conversation, query state, the notice channel) is what every step runs on: it imports no step.",
      from: { path: "^src/loop/state/" },
      to: { path: "^src/loop/", pathNot: "^src/loop/state/" },
    },
    {
      name: "model-call-runs-on-state",
      severity: "error",
      comment:
        "Step 2 (loop/model-call/) makes one model request on the query's state: it knows no other step, approvals or compaction.",
      from: { path: "^src/loop/model-call/" },
      to: { path: "^src/loop/", pathNot: ["^src/loop/model-call/", "^src/loop/state/"] },
    },
    {
      name: "loop-sees-only-the-model-port",
      severity: "error",
      comment: "Nothing outside model/ (but the agent, which picks the default client) knows the Anthropic adapter.",
      from: { path: "^src/", pathNot: ["^src/model/", "^src/agent/", "^src/cli/", "^src/index\\.ts$"] },
      to: { path: "^src/model/anthropic" },
    },
    onlyInward("integrations-plug-into-the-inside", "integrations", [
      "messages",
      "model",
      "cost",
      "compaction",
      "history",
      "tools",
      "telemetry",
      "hooks",
      "shared",
    ]),
    onlyInward("workspace-tools-are-tools", "workspace-tools", ["messages", "model", "tools", "shared"]),
    onlyInward(
      "skills-are-tools",
      "skills",
      ["messages", "model", "tools", "shared", "workspace-tools"],
      "Skills are a tool and a system-prompt section; their folders are read through the workspace confinement.",
    ),
    onlyInward("testing-kit-fakes-the-port", "testing", ["messages", "model", "history", "cost", "shared"]),
    onlyInward("agent-composes", "agent", [
      "loop",
      "guardrails",
      "messages",
      "model",
      "cost",
      "compaction",
      "history",
      "tools",
      "telemetry",
      "hooks",
      "shared",
      "integrations/mcp",
      "skills",
    ]),
    onlyInward(
      "subagents-build-on-the-agent",
      "subagents",
      ["agent", "messages", "model", "history", "tools", "shared"],
      "A subagent creates a child Agent: it sits outside agent/, and nothing inward imports it.",
    ),
    {
      name: "queue-builds-on-the-public-api",
      severity: "error",
      comment:
        "agent-lattice/queue uses the agent through the root entry (src/index.ts), plus the prompt checks, the redaction, the price table and the option checks.",
      from: { path: "^src/queue/" },
      to: {
        path: "^src/",
        pathNot: [
          "^src/queue/",
          "^src/index\\.ts$",
          "^src/messages/(prompt-input|redact-message)\\.ts$",
          "^src/shared/redact\\.ts$",
          "^src/cost/",
          "^src/shared/option-checks\\.ts$",
          ERRORS,
        ],
      },
    },
    {
      name: "nothing-imports-the-queue",
      severity: "error",
      comment: "The queue is an entry point of its own (optional peers bullmq, ioredis): nothing else loads it.",
      from: { path: "^src/", pathNot: "^src/queue/" },
      to: { path: "^src/queue/" },
    },
    {
      name: "ui-builds-on-the-public-api",
      severity: "error",
      comment:
        "agent-lattice/ui is a user of the root entry (src/index.ts), plus the one redaction (src/shared/redact.ts) and the one way of describing a thrown value (src/shared/describe-thrown.ts, a leaf): it imports nothing else of ours.",
      from: { path: "^src/ui/" },
      to: {
        path: "^src/",
        pathNot: ["^src/ui/", "^src/index\\.ts$", "^src/shared/redact\\.ts$", "^src/shared/describe-thrown\\.ts$"],
      },
    },
    {
      name: "nothing-imports-the-ui",
      severity: "error",
      comment: "The web entry point (agent-lattice/ui) is outermost: nothing else loads it.",
      from: { path: "^src/", pathNot: "^src/ui/" },
      to: { path: "^src/ui/" },
    },
    {
      name: "studio-builds-on-the-public-api",
      severity: "error",
      comment:
        "agent-lattice/studio reads stores through the root entry and the stores' entries (plus the message types and shared redaction), as a user would.",
      from: { path: "^src/studio/" },
      to: {
        path: "^src/",
        pathNot: [
          "^src/studio/",
          "^src/index\\.ts$",
          "^src/integrations/stores/(sqlite|postgres|redis)\\.ts$",
          "^src/messages/types\\.ts$",
          "^src/shared/",
          ERRORS,
        ],
      },
    },
    {
      name: "nothing-imports-the-studio",
      severity: "error",
      comment: "The studio is an entry point of its own: only the CLI loads it.",
      from: { path: "^src/", pathNot: ["^src/studio/", "^src/cli/"] },
      to: { path: "^src/studio/" },
    },
    {
      name: "evals-build-on-the-public-api",
      severity: "error",
      comment:
        "agent-lattice/evals is a user of the root entry (src/index.ts) and the SQLite store entry, as a user's eval would be (plus the shared redaction for its cassettes, and the store's switch to WAL for its results database).",
      from: { path: "^src/evals/" },
      to: {
        path: "^src/",
        pathNot: [
          "^src/evals/",
          "^src/index\\.ts$",
          "^src/integrations/stores/sqlite(-wal)?\\.ts$",
          "^src/shared/redact(-value)?\\.ts$",
          ERRORS,
        ],
      },
    },
    {
      name: "nothing-imports-the-evals",
      severity: "error",
      comment: "The evals entry is outermost: only the CLI loads it.",
      from: { path: "^src/", pathNot: ["^src/evals/", "^src/cli/"] },
      to: { path: "^src/evals/" },
    },
    {
      name: "nothing-imports-the-cli",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/cli/" },
      to: { path: "^src/cli/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)node_modules/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
