// The least any request plan could be billed for a recorded conversation under the prompt-cache
// rules the mock server implements (src/testing/mock-prompt-cache.ts, after the Claude docs
// "Prompt caching"), and a plan that reaches it.
//
// The rules: the prefix is rendered tools → system → messages, block by block; a marker caches the
// prefix through its block; a request may read an entry only at the exact prefix of one of its
// markers or up to 20 blocks before it; what lies between the longest read and the last marker is
// written; a prefix shorter than the model's minimum cacheable length is never stored; an entry
// lives 5 minutes from its last write or read; at most 4 markers per request.
//
// Billing: input + 1.25 × cache writes + 0.1 × cache reads (five-minute writes).
//
// The bound. Tokens are cut into prefix blocks (a block is identified by the whole prefix through
// it, as the cache identifies entries). An occurrence of a block in a request is billed 1.0 as
// input, 1.25 written or 0.1 read. It can be read only when the request shares a prefix through
// (at least) that block with an earlier request, that shared prefix is at least the minimum
// cacheable length, and an entry holding the block is still alive — so per request the read is at
// most its longest such prefix. A read needs an entry holding the block, and some occurrence must
// have paid 1.25 to write it since the last time none was alive. The bound reads everything that
// can be read and writes each block once per such run, at the latest occurrence before its first
// read; no plan pays less (reading is 0.9 cheaper than input and costs at most one 0.25 write per
// run). It ignores the 4-marker limit and the lookback: `planMarkers` builds a plan that marks
// exactly the read and write points the bound needs, and the caller replays it through a fresh
// MockPromptCache to show the bound is reached under every rule.
import { createHash } from "node:crypto";

export const TTL_MS = 5 * 60_000;
export const WRITE_FACTOR = 1.25;
export const READ_FACTOR = 0.1;

/** Billed input-token equivalents of one usage. */
export function billed(usage) {
  return (
    usage.input_tokens +
    WRITE_FACTOR * (usage.cache_creation_input_tokens ?? 0) +
    READ_FACTOR * (usage.cache_read_input_tokens ?? 0)
  );
}

/** JSON with keys sorted and `cache_control` left out, at any depth: what the mock's cache compares. */
export function canonicalJson(value) {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value)
      .filter((key) => key !== "cache_control" && value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The prefix blocks of a request body: `key` (the prefix through the block), `tokens` (cumulative
 * estimate, one token per four characters of canonical JSON, rounded up, as the mock counts),
 * `where` (how to find the block to mark it).
 */
export function prefixBlocks(body) {
  const blocks = [];
  let chars = 0;
  let key = "";
  const add = (section, block, where, salt = "") => {
    const canonical = canonicalJson(block);
    chars += canonical.length;
    key = createHash("sha256").update(`${key}\u0000${salt}${section}\u0000${canonical}`).digest("base64");
    const markable = block.type === "text" ? typeof block.text === "string" && block.text !== "" : !/thinking/.test(block.type);
    blocks.push({ key, tokens: Math.ceil(chars / 4), where, markable });
  };
  (body.tools ?? []).forEach((tool, index) => add("tools", tool, { part: "tools", index }));
  if (typeof body.system === "string" && body.system) add("system", { type: "text", text: body.system }, { part: "system", index: 0 });
  else if (Array.isArray(body.system)) body.system.forEach((block, index) => add("system", block, { part: "system", index }));
  const salt = canonicalJson({ thinking: body.thinking, tool_choice: body.tool_choice });
  body.messages.forEach((message, messageIndex) => {
    const parts = Array.isArray(message.content) ? message.content : [{ type: "text", text: message.content }];
    parts.forEach((part, index) =>
      add("messages", part, { part: "messages", message: messageIndex, index }, `${salt}${index === 0 ? `\u0000${message.role}:` : ""}`),
    );
  });
  return blocks;
}

/**
 * The least billed total for `requests` ({ body, time, apiKey }), and the read and write points of
 * the plan that reaches it, per request: `read` (block index or -1), `writeTo` (block index or -1),
 * `keepAlive` (block indexes later requests read at, which this request must mark).
 */
export function leastPlan(requests, minimumFor) {
  const shapes = requests.map((request) => ({ ...request, blocks: prefixBlocks(request.body) }));
  /** key → { request, position } of its latest occurrence; key → time an entry holding it was last alive-refreshed. */
  const latest = new Map();
  const alive = new Map();
  const plans = shapes.map(() => ({ read: -1, writeTo: -1, keepAlive: new Set() }));
  const touch = (shape, upTo) => {
    for (let position = 0; position <= upTo; position++) {
      const key = scoped(shape, position);
      alive.set(key, Math.max(alive.get(key) ?? -Infinity, shape.time));
    }
  };
  shapes.forEach((shape, index) => {
    const minimum = minimumFor(shape.body.model);
    const plan = plans[index];
    for (let position = shape.blocks.length - 1; position >= 0; position--) {
      const block = shape.blocks[position];
      if (block.tokens < minimum) break;
      const partner = latest.get(scoped(shape, position));
      if (partner === undefined || shape.time - shapes[partner.request].time >= TTL_MS) continue;
      plan.read = position;
      plans[partner.request].keepAlive.add(position);
      // The read needs a live entry holding its prefix: where none is, the partner writes one.
      const since = alive.get(scoped(shape, position));
      const writer = plans[partner.request];
      if ((since === undefined || shape.time - since >= TTL_MS) && position > writer.writeTo) {
        writer.writeTo = position;
        touch(shapes[partner.request], position);
      }
      break;
    }
    touch(shape, plan.read);
    shape.blocks.forEach((block, position) => latest.set(scoped(shape, position), { request: index, position }));
  });
  let total = 0;
  shapes.forEach((shape, index) => {
    const plan = plans[index];
    const all = shape.blocks.at(-1)?.tokens ?? 0;
    const read = plan.read >= 0 ? shape.blocks[plan.read].tokens : 0;
    const written = plan.writeTo > plan.read ? shape.blocks[plan.writeTo].tokens - read : 0;
    total += READ_FACTOR * read + WRITE_FACTOR * written + (all - read - written);
  });
  return { total, plans, shapes };
}

function scoped(shape, position) {
  return `${shape.apiKey}\u0000${shape.body.model}\u0000${shape.blocks[position].key}`;
}

/** `body` with one marker only, on its last markable block: the naive placement, for comparison. */
export function tailMarkerOnly(body, blocks) {
  const marked = stripMarkers(body);
  const last = blocks.findLastIndex((block) => block.markable);
  if (last >= 0) mark(marked, blocks[last].where);
  return marked;
}

/** `body` without any cache marker, then with markers at the plan's points (copied, never mutated). */
export function planMarkers(body, blocks, plan) {
  const marked = stripMarkers(body);
  const points = new Set([...plan.keepAlive]);
  if (plan.read >= 0) points.add(plan.read);
  if (plan.writeTo > plan.read) points.add(plan.writeTo);
  for (const position of points) mark(marked, blocks[position].where);
  return { body: marked, markers: points.size };
}

function stripMarkers(body) {
  const clean = (block) => {
    if (typeof block !== "object" || block === null) return block;
    const { cache_control: _marker, ...rest } = block;
    if (rest.type === "tool_result" && Array.isArray(rest.content)) rest.content = rest.content.map(clean);
    return rest;
  };
  const { cache_control: _automatic, ...rest } = body;
  return {
    ...rest,
    ...(rest.tools ? { tools: rest.tools.map(clean) } : {}),
    ...(Array.isArray(rest.system) ? { system: rest.system.map(clean) } : {}),
    messages: rest.messages.map((message) => ({
      ...message,
      content: Array.isArray(message.content) ? message.content.map(clean) : message.content,
    })),
  };
}

function mark(body, where) {
  const marker = { type: "ephemeral" };
  if (where.part === "tools") body.tools[where.index] = { ...body.tools[where.index], cache_control: marker };
  else if (where.part === "system") {
    if (typeof body.system === "string") body.system = [{ type: "text", text: body.system }];
    body.system[where.index] = { ...body.system[where.index], cache_control: marker };
  } else {
    const message = body.messages[where.message];
    const content = Array.isArray(message.content) ? [...message.content] : [{ type: "text", text: message.content }];
    content[where.index] = { ...content[where.index], cache_control: marker };
    body.messages[where.message] = { ...message, content };
  }
}
