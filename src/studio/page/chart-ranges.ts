/**
 * The axis ranges of the studio's charts, kept apart from uPlot so they can be tested without a
 * browser: the turn axis padded by half a turn (bars centred on the first and last turns are
 * drawn whole, not cut in half at the plot's edges), and a value axis from zero that stays small
 * when every value is zero (a conversation that cost nothing shows $0–0.01, not uPlot's 0–100).
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
