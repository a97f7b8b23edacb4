// Time stamps of one process for bench/queue-trace.mjs: every Redis command an ioredis client of
// this process sends and the moment its reply arrives (Lua scripts named after the command they
// were defined as), the model requests of `fetch` (undici's diagnostics channels), and the stamps
// the script adds itself. Times are epoch ms with sub-ms precision (`performance.timeOrigin +
// performance.now()`), comparable across the processes of one machine.
import { createHash } from "node:crypto";
import diagnostics from "node:diagnostics_channel";
import { performance } from "node:perf_hooks";
import { Redis } from "ioredis";

/** Now, as epoch ms with sub-ms precision. */
export const now = () => performance.timeOrigin + performance.now();

/** Starts recording in this process; `proc` names it in every stamp. Returns `{ stamp, events }`. */
export function installTracing(proc) {
  const events = [];
  // Each stamp also carries the process's CPU time so far (µs), so a gap shows how much of it was CPU.
  const stamp = (what) => {
    const { user, system } = process.cpuUsage();
    return events.push({ at: now(), proc, what, cpu: user + system });
  };
  const scripts = new Map();
  const defineCommand = Redis.prototype.defineCommand;
  Redis.prototype.defineCommand = function (name, definition) {
    scripts.set(createHash("sha1").update(definition.lua).digest("hex"), name.replace(/^agentLatticeLane/, "lane "));
    return defineCommand.call(this, name, definition);
  };
  const sendCommand = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function (command, stream) {
    const label = labelOf(command, scripts);
    stamp(`${label} sent`);
    command.promise.then(
      () => stamp(`${label} reply`),
      () => stamp(`${label} error`),
    );
    return sendCommand.call(this, command, stream);
  };
  diagnostics.subscribe("undici:client:sendHeaders", () => stamp("model request sent"));
  diagnostics.subscribe("undici:request:headers", () => stamp("model response headers"));
  diagnostics.subscribe("undici:request:trailers", () => stamp("model response done"));
  return { stamp, events };
}

function labelOf(command, scripts) {
  const name = command.name.toLowerCase();
  if (name !== "evalsha" && name !== "eval") return name;
  const sha = name === "eval" ? createHash("sha1").update(String(command.args[0])).digest("hex") : String(command.args[0]);
  const script = scripts.get(sha) ?? `script ${sha.slice(0, 8)}`;
  return name === "eval" ? `${script} (EVAL, whole script)` : script;
}
