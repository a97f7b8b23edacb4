/**
 * What a server tells besides results: its log messages (`onLog`) and the progress of a tool call
 * (`onProgress`), handed to the server config's callbacks with secrets redacted.
 * @module
 */
import type { McpLogEntry, McpProgress, McpServerConfig } from "./config";

/** Runs a user callback that must not throw; a throw is ignored (it cannot break the connection). */
export function callQuietly(callback: () => void): void {
  try {
    callback();
  } catch {
    // The callback must not throw.
  }
}

/** Hands a server log message to the config's `onLog`, configured and learned secrets redacted. */
export function forwardLog(
  config: McpServerConfig,
  server: string,
  params: { level: string; logger?: string; data?: unknown },
  redact: (text: string) => string,
): void {
  const { onLog } = config;
  if (!onLog) return;
  const redacted = redact(JSON.stringify(params.data ?? null));
  let data: unknown;
  try {
    data = JSON.parse(redacted);
  } catch {
    data = redacted; // a secret cut across JSON syntax: the redacted text itself
  }
  const entry: McpLogEntry = { server, level: params.level, data };
  if (params.logger !== undefined) entry.logger = params.logger;
  callQuietly(() => onLog(entry));
}

/** Hands a tool call's progress report to the config's `onProgress`. */
export function forwardProgress(
  config: McpServerConfig,
  server: string,
  tool: string,
  report: { progress: number; total?: number; message?: string },
  redact: (text: string) => string,
): void {
  const { onProgress } = config;
  if (!onProgress) return;
  const progress: McpProgress = { server, tool, progress: report.progress };
  if (report.total !== undefined) progress.total = report.total;
  if (report.message !== undefined) progress.message = redact(report.message);
  callQuietly(() => onProgress(progress));
}
