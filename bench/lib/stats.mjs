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
