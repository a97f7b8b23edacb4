/**
 * Eval runs (from `agent-lattice eval`'s results databases): `#/evals` lists them; `#/evals/<source>/<run>`
 * shows one as a table — cases × trials, each trial's status, scores with their reasons, cost,
 * latency and turns, linked to the trial's timeline; `#/evals/<source>/<run>/vs/<source>/<run>`
 * sets two runs side by side: what got better, what got worse.
 * @module
 */
import { api, query } from "./api";
import { dollars, duration, el } from "./dom";

interface RunRow {
  source: number;
  sourceLabel: string;
  runId: string;
  startedAt: string;
  mode: string;
  passed: boolean;
  complete: boolean;
  evals: string[];
  totals: {
    cases: number;
    passedCases: number;
    trialsRun: number;
    trials: number;
    costUsd: number;
    judgeCostUsd: number;
  } | null;
}
interface Score {
  scorer: string;
  score: number;
  pass: boolean;
  reason: string;
  error?: true;
}
interface Trial {
  trial: number;
  status: string;
  scores: Score[];
  costUsd: number;
  judgeCostUsd: number;
  latencyMs: number;
  turns: number;
  error?: string;
  conversationId?: string;
}
interface CaseRow {
  id: string;
  status: string;
  passRate: number;
  passAtK: number;
  passHatK: number;
  flaky: boolean;
  passedTrials: number;
  trialsRun: number;
  trialRecords: Trial[];
}
interface Report {
  runId: string;
  mode: string;
  startedAt: string;
  passed: boolean;
  complete: boolean;
  evals: Array<{ name: string; trials: number; k: number; cases: CaseRow[] }>;
}

/** `#/evals`: every run, newest first, two of which can be compared. */
export async function showEvalRuns(main: HTMLElement): Promise<void> {
  const { runs } = await api<{ runs: RunRow[] }>("/api/evals");
  if (runs.length === 0) {
    main.replaceChildren(
      el("h1", { text: "Eval runs" }),
      el("p", {
        class: "muted",
        text: "No eval run in these stores (agent-lattice eval keeps them in <out>/results.db).",
      }),
    );
    return;
  }
  const compare = el("button", {
    type: "button",
    text: "Compare the two selected",
    "data-testid": "compare",
    disabled: "",
  });
  const chosen: RunRow[] = [];
  const table = el("table", { class: "list", "data-testid": "eval-runs" });
  table.append(
    el(
      "thead",
      {},
      cells("th", ["", "Run", "Started", "Mode", "Result", "Cases passed", "Trials", "Cost", "Judge"]),
    ),
  );
  const body = el("tbody");
  for (const run of runs) {
    const box = el("input", { type: "checkbox", "aria-label": `select ${run.runId}` });
    box.addEventListener("change", () => {
      if (box.checked) chosen.push(run);
      else chosen.splice(chosen.indexOf(run), 1);
      compare.toggleAttribute("disabled", chosen.length !== 2);
    });
    const link = el("a", {
      href: `#/evals/${run.source}/${encodeURIComponent(run.runId)}`,
      text: `${run.evals.join(", ")} · ${run.runId.slice(0, 8)}`,
    });
    const totals = run.totals;
    body.append(
      el(
        "tr",
        { "data-run": run.runId },
        el("td", {}, box),
        el("td", {}, link),
        el("td", { text: new Date(run.startedAt).toLocaleString() }),
        el("td", { text: run.mode }),
        el("td", {
          class: run.passed ? "ok" : "bad",
          text: run.passed ? "passed" : run.complete ? "failed" : "incomplete",
        }),
        el("td", { text: totals ? `${totals.passedCases}/${totals.cases}` : "–" }),
        el("td", { text: totals ? `${totals.trialsRun}/${totals.trials}` : "–" }),
        el("td", { text: dollars(totals?.costUsd) }),
        el("td", { text: dollars(totals?.judgeCostUsd) }),
      ),
    );
  }
  table.append(body);
  compare.addEventListener("click", () => {
    // Older first: "before" and "after" read in time order.
    const [before, after] = [...chosen].sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    location.hash = `#/evals/${before!.source}/${encodeURIComponent(before!.runId)}/vs/${after!.source}/${encodeURIComponent(after!.runId)}`;
  });
  main.replaceChildren(el("h1", { text: "Eval runs" }), compare, table);
}

/** `#/evals/<source>/<run>`: one run, cases × trials. */
export async function showEvalRun(main: HTMLElement, source: number, runId: string): Promise<void> {
  const report = await api<Report>(`/api/eval-run${query({ source, run: runId })}`);
  const parts: Node[] = [
    el("p", {}, el("a", { href: "#/evals", text: "← eval runs" })),
    el("h1", {
      text: `Eval run ${runId.slice(0, 8)} — ${report.passed ? "passed" : report.complete ? "failed" : "incomplete"}`,
    }),
    el("p", {
      class: "muted",
      text: `${report.mode} · started ${new Date(report.startedAt).toLocaleString()}`,
    }),
  ];
  for (const summary of report.evals) {
    const table = el("table", { class: "list eval-run", "data-testid": `eval-${summary.name}` });
    const trialHeads = Array.from({ length: summary.trials }, (_, index) => `Trial ${index + 1}`);
    table.append(
      el(
        "thead",
        {},
        cells("th", ["Case", "Status", "Pass rate", `pass@${summary.k}`, `pass^${summary.k}`, ...trialHeads]),
      ),
    );
    const body = el("tbody");
    for (const row of summary.cases) {
      const trials = Array.from({ length: summary.trials }, (_, index) =>
        row.trialRecords.find((trial) => trial.trial === index + 1),
      );
      body.append(
        el(
          "tr",
          { "data-case": row.id },
          el("td", { text: row.id }),
          el("td", {
            class: row.status === "passed" ? "ok" : "bad",
            text: `${row.status}${row.flaky ? " (flaky)" : ""}`,
          }),
          el("td", { text: `${row.passedTrials}/${row.trialsRun}` }),
          el("td", { text: row.passAtK.toFixed(2) }),
          el("td", { text: row.passHatK.toFixed(2) }),
          ...trials.map((trial) =>
            el("td", { class: "trial" }, trial ? trialCell(trial, source) : "not run"),
          ),
        ),
      );
    }
    table.append(body);
    parts.push(el("h2", { text: summary.name }), table);
  }
  main.replaceChildren(...parts);
}

function trialCell(trial: Trial, source: number): HTMLElement {
  const scores = el("ul", { class: "scores" });
  for (const score of trial.scores)
    scores.append(
      el("li", {
        class: score.pass ? "ok" : "bad",
        title: score.reason,
        text: `${score.pass ? "✔" : "✘"} ${score.scorer} ${score.score.toFixed(2)} — ${score.reason}`,
      }),
    );
  return el(
    "div",
    { "data-trial": String(trial.trial) },
    el("strong", { class: trial.status === "passed" ? "ok" : "bad", text: trial.status }),
    trial.error ? el("p", { class: "error", text: trial.error }) : null,
    scores,
    el("p", {
      class: "muted",
      text: `${dollars(trial.costUsd)} (+ judge ${dollars(trial.judgeCostUsd)}) · ${duration(trial.latencyMs)} · ${trial.turns} turns`,
    }),
    trial.conversationId
      ? el("a", { href: `#/c/${source}/${encodeURIComponent(trial.conversationId)}`, text: "timeline" })
      : null,
  );
}

/** `#/evals/<s>/<a>/vs/<s>/<b>`: two runs side by side, per case. */
export async function showEvalComparison(
  main: HTMLElement,
  before: [number, string],
  after: [number, string],
): Promise<void> {
  const [a, b] = await Promise.all([
    api<Report>(`/api/eval-run${query({ source: before[0], run: before[1] })}`),
    api<Report>(`/api/eval-run${query({ source: after[0], run: after[1] })}`),
  ]);
  const cases = (report: Report) =>
    new Map(
      report.evals.flatMap((summary) =>
        summary.cases.map((row) => [`${summary.name} / ${row.id}`, row] as const),
      ),
    );
  const old = cases(a);
  const now = cases(b);
  const table = el("table", { class: "list", "data-testid": "eval-comparison" });
  table.append(
    el(
      "thead",
      {},
      cells("th", ["Case", `Before (${a.runId.slice(0, 8)})`, `After (${b.runId.slice(0, 8)})`, "Change"]),
    ),
  );
  const body = el("tbody");
  let better = 0;
  let worse = 0;
  for (const key of [...new Set([...old.keys(), ...now.keys()])].sort()) {
    const then = old.get(key);
    const later = now.get(key);
    const change =
      !then || !later
        ? "only in one"
        : later.passRate > then.passRate
          ? "better"
          : later.passRate < then.passRate
            ? "worse"
            : "same";
    if (change === "better") better++;
    if (change === "worse") worse++;
    body.append(
      el(
        "tr",
        { "data-case": key, "data-change": change },
        el("td", { text: key }),
        el("td", { text: then ? `${then.status} ${then.passedTrials}/${then.trialsRun}` : "–" }),
        el("td", { text: later ? `${later.status} ${later.passedTrials}/${later.trialsRun}` : "–" }),
        el("td", { class: change === "worse" ? "bad" : change === "better" ? "ok" : "", text: change }),
      ),
    );
  }
  table.append(body);
  main.replaceChildren(
    el("p", {}, el("a", { href: "#/evals", text: "← eval runs" })),
    el("h1", { text: "Two eval runs side by side" }),
    el("p", {
      "data-testid": "comparison-summary",
      text: `${worse} case(s) got worse, ${better} got better.`,
    }),
    table,
  );
}

function cells(tag: "th" | "td", texts: string[]): HTMLTableRowElement {
  return el("tr", {}, ...texts.map((text) => el(tag, { text })));
}
