/**
 * Prompt-caching breakpoints: where a request body gets its `cache_control` markers so that each
 * turn of an agent loop reads from the cache everything the previous turn sent, and conversations
 * of one agent configuration share the cached tools and system prompt.
 *
 * The rules followed (Claude docs, "Prompt caching"):
 * - the cached prefix is rendered in the order tools → system → messages, and a `cache_control`
 *   marker on a block caches the whole prefix up to and including that block;
 * - a request may carry at most {@link MAX_CACHE_BREAKPOINTS} markers (a fifth is a 400), the
 *   top-level `cache_control` of automatic caching taking one of them;
 * - at each marker the API looks for an earlier cache entry only a limited way back — about
 *   {@link CACHE_LOOKBACK_BLOCKS} blocks — so a turn that adds more blocks than that (30 parallel
 *   tool results) must also mark a block within reach of the previous turn's entry;
 * - `thinking` and `redacted_thinking` blocks, and empty text blocks, cannot carry a marker;
 * - markers with the one-hour TTL must come before markers with the five-minute TTL;
 * - a prefix shorter than the model's minimum cacheable length is simply not cached (no error),
 *   so a marker on it costs nothing.
 * @module
 */
import type { CacheTtl, PromptCachingConfig } from "./model-settings";

/** The most `cache_control` markers one request may carry. */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * How many block positions before a marker the API searches for an earlier cache entry. The
 * marker placement keeps the previous turn's entry strictly within this distance.
 */
export const CACHE_LOOKBACK_BLOCKS = 20;

/** A `cache_control` marker as sent: the five-minute TTL is the API's default and not spelled out. */
export type CacheControl = { type: "ephemeral"; ttl?: CacheTtl };

/** The parts of a Messages API body that carry markers. */
export interface CacheableBody {
  tools?: unknown[];
  system?: string | unknown[];
  messages: Array<{ role: string; content: unknown }>;
  cache_control?: unknown;
}

/** A block position in the prefix: a tool, a system block, or a message's block. */
type Slot =
  | { part: "tools"; index: number }
  | { part: "system"; index: number }
  | { part: "messages"; message: number; index: number };

/** A slot with its position in prefix order (tools, then system, then messages, block by block). */
interface Position {
  slot: Slot;
  flat: number;
}

/** A marker the caller placed, with its prefix position and TTL. */
interface CallerMarker {
  flat: number;
  ttl: CacheTtl;
}

/**
 * Returns `body` with the SDK's cache markers added, never more than {@link MAX_CACHE_BREAKPOINTS}
 * counting the caller's own (which are kept; ours give way, least useful first). In order of use:
 * 1. the last block of the newest message — what this request shares with the next;
 * 2. the block the previous request marked last (the end of the message before the newest
 *    assistant turn), when no other marker is within {@link CACHE_LOOKBACK_BLOCKS} of it: a turn
 *    with many blocks still finds the previous turn's cache entry;
 * 3. the last system block and 4. the last tool — the stable prefix, shared between conversations.
 *
 * Only the containers of marked blocks are copied (the tools array and the marked tool, the system
 * array, the marked message and its content array): history objects are never mutated. A string
 * system prompt or string message content becomes one text block to carry its marker. With a
 * one-hour TTL, a marker that would follow one of the caller's five-minute markers uses five
 * minutes (and a five-minute marker before a caller's one-hour marker uses one hour), since the
 * API refuses a one-hour marker after a five-minute one.
 */
export function placeCacheMarkers<Body extends CacheableBody>(
  body: Body,
  caching: PromptCachingConfig,
): Body {
  const positions = prefixPositions(body);
  const callerMarkers = findCallerMarkers(body, positions);
  const automatic = body.cache_control !== undefined && body.cache_control !== null;
  let budget = MAX_CACHE_BREAKPOINTS - callerMarkers.length - (automatic ? 1 : 0);
  if (budget <= 0) return body;
  const taken = new Set(callerMarkers.map((marker) => marker.flat));
  const chosen: Position[] = [];
  for (const candidate of candidates(body, positions, callerMarkers, automatic)) {
    if (budget === 0) break;
    if (!candidate || taken.has(candidate.flat)) continue;
    taken.add(candidate.flat);
    chosen.push(candidate);
    budget--;
  }
  if (chosen.length === 0) return body;
  const marked: Body = { ...body };
  for (const position of chosen) {
    applyMarker(marked, position.slot, markerFor(caching.ttl, position.flat, callerMarkers));
  }
  return marked;
}

/** Our marker positions, most useful first; `undefined` where there is nothing to mark. */
function candidates(
  body: CacheableBody,
  positions: Position[],
  callerMarkers: CallerMarker[],
  automatic: boolean,
): Array<Position | undefined> {
  const messages = positions.filter((position) => position.slot.part === "messages");
  const markable = messages.filter((position) => isMarkable(blockAt(body, position.slot)));
  // Automatic caching already marks the last cacheable block.
  const tail = automatic ? undefined : markable.at(-1);
  const bridge = bridgePosition(body, markable, [
    ...callerMarkers.map((marker) => marker.flat),
    ...(tail ? [tail.flat] : []),
  ]);
  const lastOf = (part: "tools" | "system") =>
    positions
      .filter((position) => position.slot.part === part && isMarkable(blockAt(body, position.slot)))
      .at(-1);
  return [tail, bridge, lastOf("system"), lastOf("tools")];
}

/**
 * Where the previous request put its last marker — the last markable block before the newest
 * assistant message — when no marker of this request is close enough after it for the API's
 * lookback to find the cache entry written there.
 */
function bridgePosition(body: CacheableBody, markable: Position[], markers: number[]): Position | undefined {
  let lastAssistant = -1;
  body.messages.forEach((message, index) => {
    if (message.role === "assistant") lastAssistant = index;
  });
  if (lastAssistant <= 0) return undefined;
  const previous = markable.filter(
    (position) => position.slot.part === "messages" && position.slot.message < lastAssistant,
  );
  const target = previous.at(-1);
  if (!target) return undefined;
  const reached = markers.some((flat) => flat >= target.flat && flat - target.flat < CACHE_LOOKBACK_BLOCKS);
  return reached ? undefined : target;
}

/** Every block of the prefix, in the order the API renders it. */
function prefixPositions(body: CacheableBody): Position[] {
  const slots: Slot[] = [];
  for (const index of (body.tools ?? []).keys()) slots.push({ part: "tools", index });
  if (typeof body.system === "string") {
    if (body.system.length > 0) slots.push({ part: "system", index: 0 });
  } else {
    for (const index of (body.system ?? []).keys()) slots.push({ part: "system", index });
  }
  body.messages.forEach((message, messageIndex) => {
    const count = Array.isArray(message.content) ? message.content.length : 1;
    for (let index = 0; index < count; index++)
      slots.push({ part: "messages", message: messageIndex, index });
  });
  return slots.map((slot, flat) => ({ slot, flat }));
}

/** The markers the caller placed on its own tools, system blocks and message blocks. */
function findCallerMarkers(body: CacheableBody, positions: Position[]): CallerMarker[] {
  const markers: CallerMarker[] = [];
  for (const position of positions) {
    const marker = markerOf(blockAt(body, position.slot));
    if (marker) markers.push({ flat: position.flat, ttl: marker.ttl === "1h" ? "1h" : "5m" });
  }
  return markers;
}

/** A block's own marker, or one inside a tool result's content (the API counts those too). */
function markerOf(block: unknown): { ttl?: unknown } | undefined {
  if (!isRecord(block)) return undefined;
  const marker = block.cache_control;
  if (isRecord(marker)) return marker;
  if (block.type !== "tool_result" || !Array.isArray(block.content)) return undefined;
  for (const part of block.content) {
    const nested = isRecord(part) ? part.cache_control : undefined;
    if (isRecord(nested)) return nested;
  }
  return undefined;
}

/** The block at a slot (a string system prompt or message content is read as its text). */
function blockAt(body: CacheableBody, slot: Slot): unknown {
  switch (slot.part) {
    case "tools":
      return body.tools?.[slot.index];
    case "system":
      return typeof body.system === "string"
        ? { type: "text", text: body.system }
        : body.system?.[slot.index];
    case "messages": {
      const { content } = body.messages[slot.message]!;
      return Array.isArray(content) ? content[slot.index] : { type: "text", text: content };
    }
  }
}

/** Whether a block may carry a marker: not thinking, not redacted thinking, not empty text. */
function isMarkable(block: unknown): boolean {
  if (!isRecord(block)) return false;
  if (block.type === "thinking" || block.type === "redacted_thinking") return false;
  if (block.type === "text") return typeof block.text === "string" && block.text.length > 0;
  return true;
}

/** Our marker for a position, its TTL adjusted so one-hour markers never follow five-minute ones. */
function markerFor(ttl: CacheTtl, flat: number, callerMarkers: CallerMarker[]): CacheControl {
  let effective = ttl;
  if (ttl === "1h" && callerMarkers.some((marker) => marker.ttl === "5m" && marker.flat < flat))
    effective = "5m";
  if (ttl === "5m" && callerMarkers.some((marker) => marker.ttl === "1h" && marker.flat > flat))
    effective = "1h";
  return effective === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

/** Sets the marker on a slot of `body`, copying each container on the way (never the caller's objects). */
function applyMarker(body: CacheableBody, slot: Slot, marker: CacheControl): void {
  switch (slot.part) {
    case "tools": {
      const tools = [...(body.tools ?? [])];
      tools[slot.index] = { ...(tools[slot.index] as object), cache_control: marker };
      body.tools = tools;
      return;
    }
    case "system": {
      if (typeof body.system === "string") {
        body.system = [{ type: "text", text: body.system, cache_control: marker }];
        return;
      }
      const system = [...(body.system ?? [])];
      system[slot.index] = { ...(system[slot.index] as object), cache_control: marker };
      body.system = system;
      return;
    }
    case "messages": {
      const messages = [...body.messages];
      const message = messages[slot.message]!;
      const content = Array.isArray(message.content)
        ? [...message.content]
        : [{ type: "text", text: message.content }];
      content[slot.index] = { ...(content[slot.index] as object), cache_control: marker };
      messages[slot.message] = { ...message, content };
      body.messages = messages;
      return;
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
