// Turns the raw results of a benchmark run into tables (plain text and Markdown) and verdicts
// against the targets of issue 9.
import { formatNumber, formatRatio, markdownTable, median, textTable } from "./stats.mjs";

/** The targets, as stated in issue 9. */
export const TARGETS = {
  perTurnMicros: 20,
  peerSpeedup: 100,
  growth: 1.2,
  streamingVersusSdk: 1.0,
  concurrentVersusRaw: 1.1,
  idleKilobytes: 20,
};

const IN_PROCESS_ORDER = [
  "floor",
  "lattice",
  "vercel",
  "openai-agents",
  "floor-cold",
  "lattice-cold",
  "floor-settling",
  "lattice-settling",
];
const STREAMING_ORDER = ["raw-fetch", "raw-sdk", "lattice", "vercel"];
const CONCURRENT_ORDER = ["raw-fetch", "raw-sdk", "lattice", "lattice-shared-client", "vercel"];
const IDLE_ORDER = ["shared-client", "own-client"];

/** Median of `pick(run)` over a contender's runs. */
function over(runs, pick) {
  return median(runs.map(pick));
}

function summariseInProcess(entry) {
  if (!entry?.runs?.length) return undefined;
  const { runs } = entry;
  return {
    runs: runs.length,
    cpu: over(runs, (run) => run.all.cpu),
    wall: over(runs, (run) => run.all.wall),
    typical: over(runs, (run) => run.all.typical),
    firstCpu: over(runs, (run) => run.first.cpu),
    lastCpu: over(runs, (run) => run.last.cpu),
    firstWall: over(runs, (run) => run.first.wall),
    lastWall: over(runs, (run) => run.last.wall),
    firstTypical: over(runs, (run) => run.first.typical),
    lastTypical: over(runs, (run) => run.last.typical),
  };
}

function summariseStreaming(entry) {
  if (!entry?.runs?.length) return undefined;
  const { runs } = entry;
  return {
    runs: runs.length,
    wall: over(runs, (run) => run.all.wall),
    cpu: over(runs, (run) => run.all.cpu),
    typical: over(runs, (run) => run.all.typical),
  };
}

function summariseConcurrent(entry) {
  if (!entry?.runs?.length) return undefined;
  const { runs } = entry;
  return {
    runs: runs.length,
    wallSeconds: over(runs, (run) => run.wallMs / 1000),
    cpuSeconds: over(runs, (run) => run.cpuMs / 1000),
    peakRssMegabytes: over(runs, (run) => run.peakRssBytes / 2 ** 20),
  };
}

function summariseIdle(entry) {
  if (!entry?.runs?.length) return undefined;
  const { runs } = entry;
  return {
    runs: runs.length,
    heapKilobytes: over(runs, (run) => run.heapBytesPerAgent / 1024),
    rssKilobytes: over(runs, (run) => run.rssBytesPerAgent / 1024),
  };
}

const LABELS = {
  floor: "floor (hand-written loop)",
  lattice: "agent-lattice",
  vercel: "Vercel AI SDK",
  "openai-agents": "OpenAI Agents SDK",
  "raw-fetch": "floor: raw fetch + SSE parsing",
  "raw-sdk": "raw @anthropic-ai/sdk loop",
  "lattice-shared-client": "agent-lattice, one shared client",
  "floor-cold": "floor, cold (first conversation of a process)",
  "lattice-cold": "agent-lattice, cold (first conversation of a process)",
  "floor-settling": "floor, settling (fifth conversation of a process)",
  "lattice-settling": "agent-lattice, settling (fifth conversation of a process)",
  "shared-client": "agent-lattice, shared client and tools",
  "own-client": "agent-lattice, own built-in client each",
};

function label(id, entry) {
  return entry?.error ? `${LABELS[id] ?? id} (FAILED)` : (LABELS[id] ?? id);
}

/**
 * Which per-turn figure the in-process verdicts use: the mean CPU time on a quiet machine; the
 * typical (median) turn when other work kept the machine busy, because then rare multi-millisecond
 * stalls (descheduling, GC helper threads waiting for a core) dominate the means.
 */
function judgedMetric(results) {
  return results.loaded
    ? { key: "typical", name: "typical turn (machine loaded)" }
    : { key: "cpu", name: "CPU" };
}

const ratio = (value, base) => (Number.isFinite(value) && Number.isFinite(base) && base > 0 ? value / base : Number.NaN);
const micros = (value) => formatNumber(value, 1);

/** Builds every table and verdict of a run. Each table: { title, header, rows, notes }. */
export function buildReport(results) {
  const tables = [];
  const verdicts = [];
  const failures = [];
  const collectFailure = (scenario, id, entry) => {
    if (entry?.error) failures.push(`${scenario} ${LABELS[id] ?? id}: ${entry.error}`);
  };

  for (const [scenario, title] of [
    ["a", `(a) ${results.settings.toolTurns} tool turns, in-process scripted model, tiny tool results — µs per turn`],
    ["b", `(b) ${results.settings.toolTurns} tool turns with 2 KB tool results (history grows to ~2 MB) — first 100 vs last 100 turns`],
  ]) {
    const entries = results.inProcess?.[scenario];
    if (!entries) continue;
    const summaries = Object.fromEntries(IN_PROCESS_ORDER.map((id) => [id, summariseInProcess(entries[id])]));
    const rows = [];
    for (const id of IN_PROCESS_ORDER) {
      collectFailure(`(${scenario})`, id, entries[id]);
      const summary = summaries[id];
      if (!summary && !entries[id]) continue;
      const floor = id.endsWith("-cold")
        ? summaries["floor-cold"]
        : id.endsWith("-settling")
          ? summaries["floor-settling"]
          : summaries.floor;
      if (scenario === "a") {
        rows.push([
          label(id, entries[id]),
          summary?.runs ?? 0,
          micros(summary?.cpu),
          micros(summary?.wall),
          micros(summary?.typical),
          formatRatio(ratio(summary?.cpu, floor?.cpu)),
          formatRatio(ratio(summary?.wall, floor?.wall)),
        ]);
      } else {
        rows.push([
          label(id, entries[id]),
          summary?.runs ?? 0,
          micros(summary?.firstCpu),
          micros(summary?.lastCpu),
          formatRatio(ratio(summary?.lastCpu, summary?.firstCpu)),
          formatRatio(ratio(summary?.lastWall, summary?.firstWall)),
          formatRatio(ratio(summary?.lastTypical, summary?.firstTypical)),
          formatRatio(ratio(summary?.lastCpu, floor?.lastCpu)),
        ]);
      }
    }
    tables.push({
      title,
      header:
        scenario === "a"
          ? ["contender", "runs", "µs/turn CPU", "µs/turn wall", "typical turn µs", "× floor CPU", "× floor wall"]
          : ["contender", "runs", "first-100 µs CPU", "last-100 µs CPU", "last/first CPU", "last/first wall", "last/first typical", "last-100 × floor"],
      rows,
    });
    const floor = summaries.floor;
    const lattice = summaries.lattice;
    const judged = judgedMetric(results);
    if (scenario === "a" && lattice) {
      verdicts.push({
        target: `(a) agent-lattice ≤ ${TARGETS.perTurnMicros} µs per turn`,
        measured: `${micros(lattice[judged.key])} µs ${judged.name} (CPU ${micros(lattice.cpu)}, wall ${micros(lattice.wall)}, typical ${micros(lattice.typical)}; floor ${micros(floor?.[judged.key])})`,
        met: lattice[judged.key] <= TARGETS.perTurnMicros,
      });
      for (const peer of ["vercel", "openai-agents"]) {
        const summary = summaries[peer];
        if (!summary) continue;
        const speedup = ratio(summary[judged.key], lattice[judged.key]);
        verdicts.push({
          target: `(a) agent-lattice ≥ ${TARGETS.peerSpeedup}× faster than ${LABELS[peer]}`,
          measured: `${formatRatio(speedup)} ${judged.name} (${micros(summary[judged.key])} vs ${micros(lattice[judged.key])} µs per turn; CPU ${formatRatio(ratio(summary.cpu, lattice.cpu))})`,
          met: speedup >= TARGETS.peerSpeedup,
        });
      }
    }
    if (scenario === "b" && lattice) {
      const first = judged.key === "typical" ? lattice.firstTypical : lattice.firstCpu;
      const last = judged.key === "typical" ? lattice.lastTypical : lattice.lastCpu;
      const growth = ratio(last, first);
      verdicts.push({
        target: `(b) agent-lattice last-100 / first-100 ≤ ${TARGETS.growth}`,
        measured: `${formatRatio(growth)} ${judged.name} (${micros(first)} → ${micros(last)} µs); CPU ${formatRatio(ratio(lattice.lastCpu, lattice.firstCpu))}, wall ${formatRatio(ratio(lattice.lastWall, lattice.firstWall))}, typical ${formatRatio(ratio(lattice.lastTypical, lattice.firstTypical))}`,
        met: growth <= TARGETS.growth,
      });
    }
  }

  if (results.streaming) {
    const entries = results.streaming;
    const summaries = Object.fromEntries(STREAMING_ORDER.map((id) => [id, summariseStreaming(entries[id])]));
    const rows = [];
    for (const id of STREAMING_ORDER) {
      collectFailure("(c)", id, entries[id]);
      if (!entries[id]) continue;
      const summary = summaries[id];
      rows.push([
        label(id, entries[id]),
        summary?.runs ?? 0,
        micros(summary?.wall),
        micros(summary?.cpu),
        micros(summary?.typical),
        formatRatio(ratio(summary?.wall, summaries["raw-fetch"]?.wall)),
        formatRatio(ratio(summary?.wall, summaries["raw-sdk"]?.wall)),
        formatRatio(ratio(summary?.cpu, summaries["raw-sdk"]?.cpu)),
      ]);
    }
    tables.push({
      title: `(c) streaming over loopback HTTP from the mock server, ${results.settings.streamingTurns} tool turns — µs per turn`,
      header: ["contender", "runs", "µs/turn wall", "client CPU µs/turn", "typical turn µs", "× floor wall", "× raw SDK wall", "× raw SDK CPU"],
      rows,
    });
    const lattice = summaries.lattice;
    const sdk = summaries["raw-sdk"];
    if (lattice && sdk) {
      const versus = ratio(lattice.wall, sdk.wall);
      verdicts.push({
        target: `(c) agent-lattice ≤ ${TARGETS.streamingVersusSdk.toFixed(1)}× the raw @anthropic-ai/sdk loop`,
        measured: `${formatRatio(versus)} wall (${micros(lattice.wall)} vs ${micros(sdk.wall)} µs), ${formatRatio(ratio(lattice.cpu, sdk.cpu))} client CPU, ${formatRatio(ratio(lattice.typical, sdk.typical))} typical turn; raw fetch ${micros(summaries["raw-fetch"]?.wall)} µs`,
        met: versus <= TARGETS.streamingVersusSdk,
      });
    }
  }

  if (results.concurrent) {
    const entries = results.concurrent;
    const summaries = Object.fromEntries(CONCURRENT_ORDER.map((id) => [id, summariseConcurrent(entries[id])]));
    const sdk = summaries["raw-sdk"];
    const rows = [];
    for (const id of CONCURRENT_ORDER) {
      collectFailure("(d)", id, entries[id]);
      if (!entries[id]) continue;
      const summary = summaries[id];
      rows.push([
        label(id, entries[id]),
        summary?.runs ?? 0,
        formatNumber(summary?.wallSeconds, 2),
        formatNumber(summary?.cpuSeconds, 2),
        formatNumber(summary?.peakRssMegabytes, 0),
        formatRatio(ratio(summary?.wallSeconds, summaries["raw-fetch"]?.wallSeconds)),
        formatRatio(ratio(summary?.wallSeconds, sdk?.wallSeconds)),
        formatRatio(ratio(summary?.peakRssMegabytes, sdk?.peakRssMegabytes)),
      ]);
    }
    tables.push({
      title: `(d) ${results.settings.conversations} concurrent conversations × ${results.settings.concurrentTurns} tool turns over loopback — each run in a fresh process`,
      header: ["contender", "runs", "wall s", "client CPU s", "peak RSS MB", "× floor wall", "× raw SDK wall", "× raw SDK RSS"],
      rows,
    });
    for (const id of ["lattice"]) {
      const lattice = summaries[id];
      if (!lattice || !sdk) continue;
      const wall = ratio(lattice.wallSeconds, sdk.wallSeconds);
      const rss = ratio(lattice.peakRssMegabytes, sdk.peakRssMegabytes);
      verdicts.push({
        target: `(d) ${LABELS[id]} ≤ ${TARGETS.concurrentVersusRaw}× the raw loop (wall and peak RSS)`,
        measured: `${formatRatio(wall)} wall (${formatNumber(lattice.wallSeconds, 2)} vs ${formatNumber(sdk.wallSeconds, 2)} s), ${formatRatio(rss)} peak RSS (${formatNumber(lattice.peakRssMegabytes, 0)} vs ${formatNumber(sdk.peakRssMegabytes, 0)} MB)`,
        met: wall <= TARGETS.concurrentVersusRaw && rss <= TARGETS.concurrentVersusRaw,
      });
    }
  }

  if (results.idle) {
    const entries = results.idle;
    const rows = [];
    for (const id of IDLE_ORDER) {
      collectFailure("(e)", id, entries[id]);
      if (!entries[id]) continue;
      const summary = summariseIdle(entries[id]);
      rows.push([label(id, entries[id]), summary?.runs ?? 0, formatNumber(summary?.heapKilobytes, 1), formatNumber(summary?.rssKilobytes, 1)]);
      if (summary) {
        verdicts.push({
          target: `(e) idle Agent ≤ ${TARGETS.idleKilobytes} KB (${LABELS[id]})`,
          measured: `${formatNumber(summary.heapKilobytes, 1)} KB heap per Agent`,
          met: summary.heapKilobytes <= TARGETS.idleKilobytes,
        });
      }
    }
    tables.push({
      title: `(e) idle memory per Agent, ${formatNumber(results.settings.idleAgents, 0)} Agents in one process (heapUsed after GC)`,
      header: ["variant", "runs", "heap KB / Agent", "RSS KB / Agent"],
      rows,
    });
  }
  return { tables, verdicts, failures };
}

function verdictWord(met) {
  return met === true ? "met" : met === false ? "MISSED" : "n/a";
}

/** The report as plain text for the terminal. */
export function reportText(results, report) {
  const parts = [];
  for (const table of report.tables) parts.push(`${table.title}\n${textTable(table.header, table.rows)}`);
  parts.push(
    `Targets (issue 9)\n${report.verdicts.map((verdict) => `  ${verdictWord(verdict.met).padEnd(6)} ${verdict.target}: ${verdict.measured}`).join("\n")}`,
  );
  if (report.failures.length) parts.push(`Failures\n${report.failures.map((failure) => `  ${failure}`).join("\n")}`);
  parts.push(machineLines(results).join("\n"));
  return parts.join("\n\n");
}

function machineLines(results) {
  const { machine } = results;
  return [
    `Date ${results.date}; ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB; Node ${machine.node} (${machine.platform}); commit ${machine.gitCommit ?? "?"}`,
    `Load averages (1/5/15 min): at start ${results.load.start.join(" / ")}, at end ${results.load.end.join(" / ")}; CPU used by other work while the benchmark was idle: ${Math.round(results.load.busyAtStart * 100)}% at start, ${Math.round(results.load.busyAtEnd * 100)}% at end${results.loaded ? " (busy machine: (a)/(b) verdicts on the typical turn)" : ""}`,
    `Packages: ${Object.entries(machine.packages).map(([name, version]) => `${name} ${version}`).join(", ")}`,
    `Run time: ${Math.round(results.elapsedSeconds)} s (after the build)`,
  ];
}

/** The report as Markdown, for bench/README.md. */
export function reportMarkdown(results, report) {
  const parts = [machineLines(results).map((line) => `- ${line}`).join("\n")];
  if (results.machine.free) parts.push(`\`\`\`\n$ free -h\n${results.machine.free}\n\`\`\``);
  for (const table of report.tables) parts.push(`**${table.title}**\n\n${markdownTable(table.header, table.rows)}`);
  parts.push(
    `**Targets**\n\n${markdownTable(
      ["target", "measured", "verdict"],
      report.verdicts.map((verdict) => [verdict.target, verdict.measured, verdictWord(verdict.met)]),
    )}`,
  );
  if (report.failures.length) parts.push(`**Failures**\n\n${report.failures.map((failure) => `- ${failure}`).join("\n")}`);
  if (results.warnings?.length) {
    parts.push(`**Warnings the contenders printed**\n\n${results.warnings.map((warning) => `- ${warning}`).join("\n")}`);
  }
  return parts.join("\n\n");
}
