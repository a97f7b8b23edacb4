/**
 * What the fleet redacts before Redis keeps it: a job's data (its prompt and per-query options), a
 * failed job's reason and stack, its `job_failed` message, the result and the streamed messages.
 * The secrets are the `secrets` option of the queue or the worker, the connection's own credentials
 * (password, username, URL query values) and, whatever is listed, credential-shaped strings
 * (`sk-ant-…`, `Bearer …`) — the same rules as the agent's own redaction, applied in the process
 * that writes, before BullMQ or the lane stores anything.
 * @module
 */
import { InvalidOptionError } from "../index";
import { redactMessage } from "../messages/redact-message";
import { MIN_SECRET_LENGTH, urlSecretsOf } from "../shared/redact";

/** The redaction a queue or a worker applies to what it writes. */
export interface FleetRedaction {
  /** The strings replaced by `[redacted]` (credential patterns are replaced too). */
  readonly secrets: readonly string[];
  /** `value` with every secret replaced; the same value when it holds none. */
  value<V>(value: V): V;
  /** A thrown value as an Error of the same class whose message, stack and fields hold no secret. */
  error(thrown: unknown): Error;
  /**
   * This redaction and `more` secrets (a job's Agent's own: its API key, its `secrets`): the worker
   * redacts what a run writes or throws with the secrets of the Agent it built for it too.
   */
  with(more: readonly string[] | undefined): FleetRedaction;
}

/** The redaction of a queue or a worker built from its `secrets` option and its connection. */
export function fleetRedaction(secrets: unknown, connection: unknown, factory: string): FleetRedaction {
  if (secrets !== undefined && (!Array.isArray(secrets) || secrets.some((item) => typeof item !== "string")))
    throw new InvalidOptionError(`${factory}: \`secrets\` must be an array of strings.`);
  return redactionOf([...((secrets as string[] | undefined) ?? []), ...connectionSecrets(connection)]);
}

function redactionOf(secrets: readonly string[]): FleetRedaction {
  const all = [...new Set(secrets)];
  // Longest first: a secret that holds another is replaced whole.
  all.sort((left, right) => right.length - left.length);
  const redaction: FleetRedaction = {
    secrets: all,
    value: (value) => redactMessage(value, all),
    error(thrown) {
      const error = thrown instanceof Error ? thrown : new Error(String(thrown));
      return redactMessage(error, all);
    },
    with(more) {
      const added = (more ?? []).filter(
        (secret) => typeof secret === "string" && secret !== "" && !all.includes(secret),
      );
      return added.length === 0 ? redaction : redactionOf([...all, ...added]);
    },
  };
  return redaction;
}

/**
 * The credentials of a Redis connection (`QueueConnection`): an ioredis client's options, or the
 * options given.
 */
export function connectionSecrets(connection: unknown): string[] {
  if (typeof connection !== "object" || connection === null) return [];
  const options = (
    typeof (connection as { duplicate?: unknown }).duplicate === "function"
      ? (connection as { options?: unknown }).options
      : connection
  ) as { password?: unknown; username?: unknown; url?: unknown } | undefined;
  if (typeof options !== "object" || options === null) return [];
  const found: string[] = [];
  if (typeof options.password === "string" && options.password !== "") found.push(options.password);
  if (typeof options.url === "string") found.push(...urlSecretsOf(options.url));
  return found.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
}
