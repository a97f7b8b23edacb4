/**
 * The shape of a checkpoint id (`meta.checkpoint_id` of a prompt): letters, digits, `_` and `-`,
 * at most 100 — safe as a file name, which the file checkpoints rely on.
 * @module
 */

/** Whether `id` has the shape of a checkpoint id. */
export function isCheckpointId(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,100}$/.test(id);
}
