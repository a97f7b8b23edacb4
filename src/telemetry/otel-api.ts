/**
 * `@opentelemetry/api`, an optional peer dependency, loaded at run time (see
 * `shared/run-time-import.ts`) by the first query of an agent with `telemetry` on: the telemetry
 * code holds no static import of it, so a one-file bundle of the root entry holds none either.
 * @module
 */
import type * as OtelApi from "@opentelemetry/api";
import { importAtRunTime } from "../shared/run-time-import";

/** The module `@opentelemetry/api`. */
export type OpenTelemetryApi = typeof OtelApi;

let api: OpenTelemetryApi | undefined;

/** Loads `@opentelemetry/api` once; rejects when it is not installed. */
export async function loadOpenTelemetryApi(): Promise<OpenTelemetryApi> {
  api ??= await importAtRunTime<OpenTelemetryApi>("@opentelemetry/api");
  return api;
}

/** The loaded module; throws before `loadOpenTelemetryApi` has resolved (a bug of ours). */
export function openTelemetryApi(): OpenTelemetryApi {
  if (!api) throw new Error("@opentelemetry/api is used before it was loaded");
  return api;
}
