/**
 * The stream events of the Messages API, as a model client reports them.
 * @module
 */

/**
 * A raw server-sent event of the Messages API stream (`message_start`, `content_block_start`,
 * `content_block_delta`, `content_block_stop`, `message_delta`, `message_stop`, `ping`, `error`).
 */
export type ModelStreamEvent = { type: string; [key: string]: unknown };
