/**
 * Whether a value survives JSON: what history holds is stored as JSON and sent as JSON, so a value
 * JSON cannot state (a BigInt, a cycle, a throwing `toJSON`) would make every later write and
 * request of the conversation fail.
 * @module
 */
import { describeThrown } from "./describe-thrown";

/** Why `value` cannot be written as JSON, or `undefined` when it can. */
export function jsonProblem(value: unknown): string | undefined {
  try {
    JSON.stringify(value);
    return undefined;
  } catch (error) {
    return describeThrown(error);
  }
}
