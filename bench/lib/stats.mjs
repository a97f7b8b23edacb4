// Small statistics and formatting helpers for the benchmark tables.

/** The median of `values` (the lower middle for an even count); NaN for none. */
export function median(values) {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return Number.NaN;
  const sorted = [...finite].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** CPU microseconds (user + system) between two `process.cpuUsage()` readings. */
export function cpuMicros(from, to) {
  return to.user - from.user + (to.system - from.system);
}

/** Formats a number for a table cell: thousands separators, `digits` decimals below 100. */
export function formatNumber(value, digits = 1) {
  if (value === undefined || value === null || !Number.isFinite(value)) return "–";
  const decimals = Math.abs(value) >= 100 ? 0 : digits;
  return value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

/** Formats a ratio as `12.3×`. */
export function formatRatio(value) {
  if (!Number.isFinite(value)) return "–";
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)}×`;
}

/** Renders rows (arrays of cells) as an aligned plain-text table with a header line. */
export function textTable(header, rows) {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => String(row[column]).length)));
  const line = (cells) =>
    cells.map((cell, column) => (column === 0 ? String(cell).padEnd(widths[column]) : String(cell).padStart(widths[column]))).join("  ");
  return [line(header), widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n");
}

/** Renders rows as a Markdown table (first column left-aligned, the rest right-aligned). */
export function markdownTable(header, rows) {
  const line = (cells) => `| ${cells.join(" | ")} |`;
  const rule = `|${header.map((_, column) => (column === 0 ? " --- " : " ---: ")).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/**
 * Per-turn figures between request `from` and request `to` of one conversation's stamps (see
 * createStamps): `wall` and `cpu` are means in µs per turn; `typical` is the median of the single
 * turns' wall times, which a busy machine's descheduling spikes barely move.
 */
export function turnWindow(stamps, from, to) {
  const turns = to - from;
  const single = new Float64Array(turns);
  for (let turn = 0; turn < turns; turn++) single[turn] = stamps.wall[from + turn + 1] - stamps.wall[from + turn];
  single.sort();
  const cpuFrom = stamps.cpu.get(from);
  const cpuTo = stamps.cpu.get(to);
  return {
    wall: ((stamps.wall[to] - stamps.wall[from]) * 1000) / turns,
    cpu: cpuFrom && cpuTo ? cpuMicros(cpuFrom, cpuTo) / turns : Number.NaN,
    typical: single[Math.floor((turns - 1) / 2)] * 1000,
  };
}
