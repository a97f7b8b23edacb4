/**
 * Record and replay at the client layer. Each trial has one {@link TrialConnection}: every model
 * client of the trial (the agent's, a judge's) goes through it. `live` passes requests on;
 * `record` passes them on and keeps each successful exchange (request, stream events, response,
 * redacted) for the cassette; `replay` never calls a client: it answers from the cassette, and a
 * request that does not match its recording fails with {@link ReplayMismatchError}.
 * @module
 */
import {
  type AssistantModelMessage,
  createAnthropicClient,
  type ModelClient,
  type ModelRequest,
} from "../index";
import { redactValue } from "../shared/redact-value";
import type { Cassette, CassetteChannel, CassetteInteraction } from "./cassette";
import {
  comparableRequest,
  describeDifference,
  firstDifference,
  replaceWorkspace,
  restoreWorkspace,
} from "./request-match";

/** How a run reaches the model. */
export type EvalMode = "live" | "record" | "replay";

/**
 * A replayed request differs from its recording (or has none). Not transient: the query fails at
 * once, and so does the trial; nothing falls through to a live call.
 */
export class ReplayMismatchError extends Error {
  /** The JSON path of the first difference (`$.messages[2].content[0].text`), when there is one. */
  readonly path?: string;
  constructor(message: string, path?: string) {
    super(message);
    this.name = "ReplayMismatchError";
    if (path !== undefined) this.path = path;
  }
}

/** The model connection of one trial. */
export class TrialConnection {
  /** What was recorded (mode `record`). */
  readonly recorded: CassetteInteraction[] = [];
  /** The first replay failure, which fails the trial whatever the agent made of it. */
  failure: ReplayMismatchError | undefined;
  private readonly used = new Set<number>();
  private readonly requestCounts = { agent: 0, judge: 0 };

  constructor(
    readonly mode: EvalMode,
    private readonly workspace: string | undefined,
    private readonly secrets: string[],
    private readonly cassette?: Cassette,
  ) {}

  /**
   * A client for `channel`: `client` (or, when absent, the built-in client over `apiKey`/`baseURL`
   * and the environment) as the mode asks. In replay nothing is created and no key is needed.
   */
  connect(
    channel: CassetteChannel,
    client: ModelClient | undefined,
    credentials: { apiKey?: string; baseURL?: string } = {},
  ): ModelClient {
    if (this.mode === "replay") return { createMessage: (request) => this.replay(channel, request) };
    const base =
      client ?? createAnthropicClient({ apiKey: credentials.apiKey, baseURL: credentials.baseURL });
    for (const secret of base.secrets ?? []) this.secrets.push(secret);
    if (this.mode === "live") return base;
    const recording: ModelClient = { createMessage: (request) => this.record(channel, base, request) };
    return withEndpoint(recording, base);
  }

  private async record(
    channel: CassetteChannel,
    base: ModelClient,
    request: ModelRequest,
  ): Promise<AssistantModelMessage> {
    const events: unknown[] = [];
    const onEvent = request.onEvent;
    const response = await base.createMessage({
      ...request,
      onEvent: (event) => {
        events.push(structuredClone(event));
        onEvent?.(event);
      },
    });
    const interaction: CassetteInteraction = {
      channel,
      request: comparableRequest(request, this.workspace),
      events: replaceWorkspace(events, this.workspace) as unknown[],
      response: replaceWorkspace(JSON.parse(JSON.stringify(response)), this.workspace),
    };
    this.recorded.push(redactValue(interaction, this.secrets));
    return response;
  }

  private async replay(channel: CassetteChannel, request: ModelRequest): Promise<AssistantModelMessage> {
    if (request.signal.aborted) throw request.signal.reason ?? new Error("aborted");
    const number = ++this.requestCounts[channel];
    const actual = redactValue(comparableRequest(request, this.workspace), this.secrets);
    const candidates = (this.cassette?.interactions ?? [])
      .map((interaction, index) => ({ interaction, index }))
      .filter(({ interaction, index }) => interaction.channel === channel && !this.used.has(index));
    // Concurrent requests (parallel subagents) may arrive in any order: an equal recording is taken first.
    const match = candidates.find(({ interaction }) => !firstDifference(interaction.request, actual));
    if (!match) throw this.fail(this.mismatch(channel, number, candidates[0]?.interaction, actual));
    this.used.add(match.index);
    const { events, response } = match.interaction;
    for (const event of restoreWorkspace(events, this.workspace)) request.onEvent?.(event as never);
    return restoreWorkspace(structuredClone(response), this.workspace) as AssistantModelMessage;
  }

  private mismatch(
    channel: CassetteChannel,
    number: number,
    next: CassetteInteraction | undefined,
    actual: Record<string, unknown>,
  ): ReplayMismatchError {
    const who = channel === "agent" ? "the agent's" : "the judge's";
    if (!next)
      return new ReplayMismatchError(
        `replay: ${who} request #${number} has no recording (the cassette holds fewer ${channel} requests); re-record with --record`,
      );
    const difference = firstDifference(next.request, actual)!;
    return new ReplayMismatchError(
      `replay: ${who} request #${number} differs from its recording at ${difference.path}: ${describeDifference(difference.expected, difference.actual)}`,
      difference.path,
    );
  }

  private fail(error: ReplayMismatchError): ReplayMismatchError {
    this.failure ??= error;
    return error;
  }

  /** After the trial: in replay, recorded requests the agent never made fail the trial too. */
  checkAllUsed(): void {
    if (this.mode !== "replay" || this.failure || !this.cassette) return;
    const left = this.cassette.interactions.filter((_, index) => !this.used.has(index));
    if (left.length > 0)
      this.fail(
        new ReplayMismatchError(
          `replay: ${left.length} recorded request(s) were never made (the run ended earlier than when it was recorded)`,
        ),
      );
  }
}

function withEndpoint(client: ModelClient, base: ModelClient): ModelClient {
  const wrapped: { -readonly [K in keyof ModelClient]: ModelClient[K] } = client;
  if (base.endpoint) wrapped.endpoint = base.endpoint;
  if (base.secrets) Object.defineProperty(wrapped, "secrets", { value: base.secrets, enumerable: false });
  if (base.countTokens) wrapped.countTokens = (request) => base.countTokens!(request);
  return wrapped;
}
