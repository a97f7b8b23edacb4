/**
 * The scan of a model message before redaction, with the message's own shape in mind: the message,
 * its content array and its blocks are each read at property sites of their own, which only ever see
 * messages, or blocks. The generic scan (`shared/redact-value.ts`) reads every object of every value
 * at one site, so its loads see dozens of shapes and go megamorphic — on the loop's path, two
 * messages a turn. What a block holds (a tool's input, a result's content) is left to the generic
 * scan. Same answer as the generic scan, never a laxer one: it only ever looks at more.
 * @module
 */
import { MUST_COPY, type RedactionRules, SCAN_BUDGET, scan } from "../shared/redact-value";

/** The block types kept exactly as they are: their signature or payload would break. */
export function isKeptType(type: unknown): boolean {
  return type === "thinking" || type === "redacted_thinking" || type === "compaction" || type === "base64";
}

/**
 * Whether redacting `message` may change it ({@link MUST_COPY}) or not (what is left of the scan's
 * budget): a plain message object read field by field, its `content` array block by block; any
 * other value (an array of messages, a class instance) by the generic scan.
 */
export function scanMessage(message: unknown, rules: RedactionRules): number {
  if (!isPlainRecord(message)) return scan(message, rules, 0, SCAN_BUDGET);
  if (message === rules.vouched || isKeptType((message as { type?: unknown }).type)) return SCAN_BUDGET - 1;
  let budget = SCAN_BUDGET - 1;
  for (const key in message) {
    const value = (message as Record<string, unknown>)[key];
    if (key === "content" && Array.isArray(value)) budget = scanBlocks(value, rules, budget);
    else budget = scan(value, rules, 1, budget);
    if (budget < 0) return MUST_COPY;
  }
  return budget;
}

/** {@link scanMessage} of a content array (depth 1), read across its text blocks first. */
function scanBlocks(blocks: unknown[], rules: RedactionRules, budget: number): number {
  if (--budget < 0 || rules.acrossItems(blocks, rules.secrets) !== blocks) return MUST_COPY;
  for (let index = 0; index < blocks.length && budget >= 0; index++) {
    const block = blocks[index];
    if (!isPlainRecord(block)) {
      budget = scan(block, rules, 2, budget);
    } else if (--budget >= 0 && block !== rules.vouched && !isKeptType((block as { type?: unknown }).type)) {
      for (const key in block) {
        budget = scan((block as Record<string, unknown>)[key], rules, 3, budget);
        if (budget < 0) break;
      }
    }
  }
  return budget;
}

/**
 * An object made by a literal (its prototype `Object.prototype`): read by its enumerable fields, as
 * the generic scan reads it. Anything else goes to the generic scan, which knows errors and classes.
 */
function isPlainRecord(value: unknown): value is object {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
