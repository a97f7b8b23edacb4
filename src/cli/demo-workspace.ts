/**
 * The demo's project: a small folder of real files in a fresh temporary directory, for the demo's
 * agent to explore and summarise.
 * @module
 */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** The files of the demo project, by path relative to its root. */
export const DEMO_PROJECT_FILES: Readonly<Record<string, string>> = {
  "README.md": `# Lighthouse

A tiny logger for a backyard weather station: it samples temperature, humidity and pressure
every minute and writes a daily report.

Run \`node src/station.js\` on the station's Raspberry Pi.
`,
  "src/station.ts": `import { writeDailyReport } from "./report";

export interface Reading {
  takenAt: Date;
  temperatureC: number;
  humidityPercent: number;
  pressureHpa: number;
}

// TODO: calibrate the humidity sensor against a reference hygrometer
export function sample(): Reading {
  return { takenAt: new Date(), temperatureC: 18.4, humidityPercent: 61, pressureHpa: 1013 };
}

export function runForOneDay(readings: Reading[]): void {
  writeDailyReport(readings);
}
`,
  "src/report.ts": `import type { Reading } from "./station";

export function writeDailyReport(readings: Reading[]): string {
  // TODO: round temperatures to one decimal in the daily report
  const temperatures = readings.map((reading) => reading.temperatureC);
  return \`min \${Math.min(...temperatures)} °C, max \${Math.max(...temperatures)} °C\`;
}
`,
  "data/readings.csv": `taken_at,temperature_c,humidity_percent,pressure_hpa
2026-11-29T06:00:00Z,9.8,88,1011
2026-11-29T12:00:00Z,17.2,63,1013
2026-11-29T18:00:00Z,13.5,72,1014
`,
};

/** Creates a new temporary folder holding the demo project and returns its path. */
export async function createDemoWorkspace(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "agent-lattice-demo-"));
  for (const [file, content] of Object.entries(DEMO_PROJECT_FILES)) {
    const target = path.join(root, file);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, content, "utf8");
  }
  return root;
}
