import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { bundleChild } from "../integrations/stores/child-runner";

const run = promisify(execFile);
const redisUrl = process.env.AGENT_LATTICE_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

describe("examples/fleet.ts", () => {
  it("runs two workers and a producer offline, each customer's jobs in order", async () => {
    const script = await bundleChild("examples/fleet.ts");
    const { stdout } = await run(process.execPath, [script], {
      env: { ...process.env, REDIS_URL: redisUrl },
      timeout: 60_000,
    });
    const lines = stdout.split("\n").filter((line) => line !== "");
    const results = lines.filter((line) => !line.startsWith("  "));
    expect(results).toEqual([
      "ada: success · 2 turns · Good news: Order 1001 left the warehouse this morning.",
      "ada: success · 2 turns · Good news: Order 1002 left the warehouse this morning.",
      "grace: success · 2 turns · Good news: Order 1001 left the warehouse this morning.",
      "grace: success · 2 turns · Good news: Order 1002 left the warehouse this morning.",
      "linus: success · 2 turns · Good news: Order 1001 left the warehouse this morning.",
      "linus: success · 2 turns · Good news: Order 1002 left the warehouse this morning.",
    ]);
    expect(lines).toContain('  ada: → order_status({"orderId":"1001"})');
    expect(lines.filter((line) => line.includes("runs a job of"))).toHaveLength(6);
  }, 90_000);
});
