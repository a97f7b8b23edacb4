/**
 * The conversation's charts, drawn by uPlot (~50 kB minified, canvas, MIT): context size per turn
 * (uncached input, cache reads, cache writes), cost so far per turn, and each turn's time split
 * between the model and its tools.
 * @module
 */
import uPlot from "uplot";
import { fromZeroRange, TURN_STEPS, turnRange, valueAxisWidth, valueLabels } from "./chart-ranges";
import { el } from "./dom";
import type { ChartSeries } from "./turns";

const WIDTH = 360;
const HEIGHT = 180;

/** The three charts of `series`, each in a figure with a caption. */
export function chartsOf(series: ChartSeries): HTMLElement {
  const box = el("section", { class: "charts", "data-testid": "charts" });
  if (series.turn.length === 0) return box;
  const x = series.turn;
  box.append(
    chart(
      "Context per turn (tokens)",
      [x, series.input, series.cacheRead, series.cacheWrite],
      [
        { label: "input", stroke: "#3b6fd4" },
        { label: "cache read", stroke: "#2e9e5b" },
        { label: "cache write", stroke: "#d48a1f" },
      ],
    ),
    chart("Cost so far (USD)", [x, series.cumulativeCost], [{ label: "cost", stroke: "#9b3bd4" }], {
      y: { range: (_plot, _min, max) => fromZeroRange(max, 0.01) },
    }),
    chart(
      "Time per turn (ms)",
      [x, series.modelMs, series.toolMs],
      [
        {
          label: "model",
          stroke: "#3b6fd4",
          fill: "rgba(59,111,212,0.35)",
          paths: uPlot.paths.bars?.({ size: [0.4], align: -1 }),
        },
        {
          label: "tools",
          stroke: "#d48a1f",
          fill: "rgba(212,138,31,0.35)",
          paths: uPlot.paths.bars?.({ size: [0.4], align: 1 }),
        },
      ],
      {
        x: { time: false, range: (_plot, min, max) => turnRange(min, max) },
        y: { range: (_plot, _min, max) => fromZeroRange(max, 1) },
      },
    ),
  );
  return box;
}

function chart(
  title: string,
  data: number[][],
  series: uPlot.Series[],
  scales: uPlot.Scales = {},
): HTMLElement {
  const figure = el("figure", { class: "chart" }, el("figcaption", { text: title }));
  const target = el("div");
  figure.append(target);
  new uPlot(
    {
      width: WIDTH,
      height: HEIGHT,
      scales: { x: { time: false }, ...scales },
      axes: [
        { label: "turn", incrs: [...TURN_STEPS] },
        { values: (_plot, ticks) => valueLabels(ticks), size: (_plot, labels) => valueAxisWidth(labels) },
      ],
      series: [{ label: "turn" }, ...series],
    },
    data as uPlot.AlignedData,
    target,
  );
  return figure;
}
