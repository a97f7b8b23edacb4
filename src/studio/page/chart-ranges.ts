/**
 * The axis ranges of the studio's charts, kept apart from uPlot so they can be tested without a
 * browser: the turn axis padded by half a turn (bars centred on the first and last turns are
 * drawn whole, not cut in half at the plot's edges), and a value axis from zero that stays small
 * when every value is zero (a conversation that cost nothing shows $0–0.01, not uPlot's 0–100),
 * ticks on the turn axis at whole turns only (two turns are labelled 1 and 2, not 1.2, 1.4 …), and
 * value labels with as many decimals as their ticks need (a tick at $0.0005 reads 0.0005, not 0.001).
 * @module
 */

/** The turn axis of a bar chart: from half a turn before the first to half a turn after the last. */
export function turnRange(min: number | null, max: number | null): [number, number] {
  const low = min ?? 1;
  const high = max ?? low;
  return [low - 0.5, high + 0.5];
}

/** A value axis from zero to a little above the largest value; `[0, empty]` when all are zero. */
export function fromZeroRange(max: number | null, empty: number): [number, number] {
  return [0, max !== null && max > 0 ? max * 1.1 : empty];
}

/** The steps the turn axis may tick by: whole turns only, from every turn to every 100,000th. */
export const TURN_STEPS: readonly number[] = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000,
];

/** The most decimals a value label shows. */
const MAX_DECIMALS = 8;

/**
 * Labels for the ticks of a value axis: every label with the same number of decimals, the fewest
 * that write each tick exactly (up to eight), with thousands separators.
 */
export function valueLabels(ticks: readonly number[]): string[] {
  let decimals = 0;
  while (decimals < MAX_DECIMALS && !ticks.every((tick) => writesExactly(tick, decimals))) decimals++;
  const format = new Intl.NumberFormat("en-US", {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  return ticks.map((tick) => format.format(tick));
}

function writesExactly(value: number, decimals: number): boolean {
  const scale = 10 ** decimals;
  return Math.abs(Math.round(value * scale) - value * scale) < 1e-6;
}

/** The least width of a value axis, in CSS pixels (uPlot's default). */
const MIN_AXIS_WIDTH = 50;

/** A value axis wide enough for its longest label (about 7 px a character at the axis font, plus the tick). */
export function valueAxisWidth(labels: readonly string[] | null): number {
  const longest = (labels ?? []).reduce((most, label) => Math.max(most, label.length), 0);
  return Math.max(MIN_AXIS_WIDTH, 18 + 7 * longest);
}
