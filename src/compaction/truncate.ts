/**
 * Fitting long texts into the budget of a summarising request: shortening a text in the middle,
 * keeping its beginning and its end, and sharing a budget between several texts.
 * @module
 */

/**
 * The largest number of characters a summarising request puts before its instruction, by default:
 * about 75,000 to 100,000 tokens, which leaves room for the instruction and the summary in the
 * context windows of current models.
 */
export const DEFAULT_SUMMARY_INPUT_MAX_CHARS = 300_000;

/**
 * Returns `text` unchanged when it has at most `maxChars` characters; otherwise its first and last
 * `maxChars / 2` characters (one fewer where that would split a surrogate pair) around a marker
 * saying how many characters were left out. The ends are kept because that is where headers,
 * conclusions and error messages usually sit.
 *
 * @throws RangeError when `maxChars` is not a non-negative integer or `Infinity`.
 */
export function truncateMiddle(text: string, maxChars: number): string {
  if (maxChars !== Number.POSITIVE_INFINITY && (!Number.isInteger(maxChars) || maxChars < 0)) {
    throw new RangeError(`maxChars must be a non-negative integer or Infinity, got ${maxChars}`);
  }
  if (text.length <= maxChars) return text;
  const headEnd = avoidSplittingPair(text, Math.ceil(maxChars / 2), -1);
  const tailStart = avoidSplittingPair(text, text.length - (maxChars - Math.ceil(maxChars / 2)), 1);
  const omitted = tailStart - headEnd;
  return `${text.slice(0, headEnd)}${omissionMarker(omitted)}${text.slice(tailStart)}`;
}

/**
 * Like {@link truncateMiddle}, but the result, marker included, has at most `maxChars` characters
 * (when even the marker does not fit, only the beginning of `text` is kept).
 */
export function fitWithin(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const markerLength = omissionMarker(text.length).length;
  if (maxChars >= markerLength) return truncateMiddle(text, maxChars - markerLength);
  return text.slice(0, avoidSplittingPair(text, maxChars, -1));
}

/** The marker {@link truncateMiddle} puts where it left out `omitted` characters. */
export function omissionMarker(omitted: number): string {
  return `\n[… ${omitted} characters omitted …]\n`;
}

/**
 * Moves `index` by `step` when it falls between the two halves of a surrogate pair, so a cut there
 * leaves no lone surrogate (which some providers reject as invalid Unicode).
 */
function avoidSplittingPair(text: string, index: number, step: -1 | 1): number {
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  const isHighSurrogate = before >= 0xd800 && before <= 0xdbff;
  const isLowSurrogate = after >= 0xdc00 && after <= 0xdfff;
  return isHighSurrogate && isLowSurrogate ? index + step : index;
}

/**
 * The length cap that makes texts of the given `lengths` fit `maxChars` in total when every text
 * longer than the cap is shortened to it: the short texts stay whole and the longest ones shrink
 * first. `Infinity` when they fit already.
 */
export function capForBudget(lengths: readonly number[], maxChars: number): number {
  let remaining = maxChars;
  const ascending = [...lengths].sort((left, right) => left - right);
  for (const [index, length] of ascending.entries()) {
    const fairShare = remaining / (ascending.length - index);
    if (length > fairShare) return Math.floor(fairShare);
    remaining -= length;
  }
  return Number.POSITIVE_INFINITY;
}
