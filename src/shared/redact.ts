/**
 * Keeping credentials out of errors, messages, stored history and pages: the one redaction every
 * surface uses (the agent, the CLI, MCP, the fleet, the web entry `agent-lattice/ui` and the studio).
 * It replaces the secrets it is given ({@link MIN_SECRET_LENGTH} characters or more) and, whatever
 * the secrets are, credential-shaped strings ({@link CREDENTIAL_SHAPES}); and it checks deeply
 * whether an object (an error's cause, say) still holds one.
 * @module
 */

/** What replaces a secret. */
export const REDACTED = "[redacted]";

/**
 * The shortest secret replaced: a shorter value (`1`, `true`, `/usr`, a 4-letter word) is too common
 * to replace without mangling ordinary text. Every surface filters its secrets by this one length.
 */
export const MIN_SECRET_LENGTH = 8;

/**
 * Credential shapes removed from every text, whatever `secrets` says: Anthropic keys (`sk-ant-…`),
 * OpenAI project keys (`sk-proj-…`) and the `sk-…` keys of OpenAI-compatible gateways (20
 * characters or more after `sk-`, a digit among them: a kebab-case word is no key), AWS access key
 * ids (`AKIA…`, and `ASIA…` of temporary credentials) and Bearer credentials (the word `Bearer` is
 * kept).
 */
export const CREDENTIAL_SHAPES: readonly RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]+/g,
  /\bsk-(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /(Bearer\s+)[A-Za-z0-9._~+/-]{8,}=*/gi,
];

/**
 * What a credential shape may look like while it is still being written (streamed text): the
 * shapes' beginnings reaching the end of a text. Text before the match may be shown; the match must
 * wait for the next piece. The newer shapes start at a word boundary, in their own case (`sk`,
 * `AKI`): a word that merely ends in `a` or `s` is not held.
 */
export const GROWING_CREDENTIAL_SHAPES: readonly RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]*$/,
  /\bsk(?:-[A-Za-z0-9_-]*)?$/,
  /\b(?:A|AK|AKI|AS|ASI|(?:AKIA|ASIA)[0-9A-Z]{0,16})$/,
  /Bearer\s+[A-Za-z0-9._~+/-]*=*$/i,
];

/**
 * The words held back, in any case and anywhere, while a text ends with a part of one (`s`,
 * `sk-a`, `Bear`): the Anthropic key (which needs no word boundary) and the Bearer word.
 */
export const CREDENTIAL_STARTS: readonly string[] = ["sk-ant-", "bearer "];

/**
 * Some word every credential shape needs, in any case (one search instead of four; no `g` flag:
 * `test` keeps no state). It may match where no shape does (`Asia`, `sk-learn`): the shapes decide;
 * a word that merely holds `sk-` (`task-`) does not match, so its text skips the shapes.
 */
const CREDENTIAL_WORDS = /sk-ant-|\bsk-|bearer|\b(?:akia|asia)/i;

/** The shortest text a credential shape matches: `sk-ant-` and one more character. */
const SHORTEST_CREDENTIAL = 8;

/**
 * Whether `word` (lower case) is written at `index` of `text` in any case. Its first character is
 * not compared (the caller has). An ASCII letter OR 0x20 is that letter in lower case; another
 * code may become a letter's code only where the word has none (`\r` and `-`), a harmless hit.
 */
function wordAt(text: string, index: number, word: string): boolean {
  if (index + word.length > text.length) return false;
  for (let offset = 1; offset < word.length; offset++) {
    if ((text.charCodeAt(index + offset) | 0x20) !== word.charCodeAt(offset)) return false;
  }
  return true;
}

/**
 * Whether `text` holds `sk-`, `bearer`, `akia` or `asia` in any case: what each word of
 * {@link CREDENTIAL_WORDS} holds, found without the regex. Every string of every message is
 * checked and almost none holds one: a loop over the characters of a short string (an id, a time
 * stamp, a block type) costs a fraction of a call into the regex engine. A hit goes to the regex.
 */
function mayHoldCredentialWord(text: string): boolean {
  const end = text.length - 2;
  for (let index = 0; index < end; index++) {
    const code = text.charCodeAt(index) | 0x20;
    if (code === 115 /* s */) {
      if (wordAt(text, index, "sk-")) return true;
    } else if (code === 98 /* b */) {
      if (wordAt(text, index, "bearer")) return true;
    } else if (code === 97 /* a */) {
      if (wordAt(text, index, "akia") || wordAt(text, index, "asia")) return true;
    }
  }
  return false;
}

/**
 * The secrets worth replacing among `values`: strings of {@link MIN_SECRET_LENGTH} characters or
 * more (other values and duplicates dropped), longest first, so a secret that holds another is
 * replaced whole.
 */
export function secretsWorthRedacting(values: Iterable<unknown>): string[] {
  const kept = new Set<string>();
  for (const value of values) {
    if (typeof value === "string" && value.length >= MIN_SECRET_LENGTH) kept.add(value);
  }
  return [...kept].sort((left, right) => right.length - left.length);
}

/**
 * Whether `text` may hold a secret or a credential-shaped string: one of `secrets`
 * ({@link MIN_SECRET_LENGTH} characters or more) or a word every credential shape needs. Never
 * `false` when {@link redact} would change `text`. A short text found clean is remembered for these
 * secrets (see {@link CleanTexts}): the next time it is a set lookup, not a scan.
 */
export function mayHoldSecret(text: string, secrets: readonly string[]): boolean {
  if (text.length < SHORTEST_CREDENTIAL && secrets.length === 0) return false;
  if (text.length > CleanTexts.LONGEST) return scanForSecret(text, secrets);
  if (cleanTexts.has(text, secrets)) return false;
  if (scanForSecret(text, secrets)) return true;
  cleanTexts.add(text, secrets);
  return false;
}

/** {@link mayHoldSecret}, the scan itself: each secret searched for, then the credential words. */
function scanForSecret(text: string, secrets: readonly string[]): boolean {
  for (let index = 0; index < secrets.length; index++) {
    const secret = secrets[index]!;
    if (secret.length >= MIN_SECRET_LENGTH && text.includes(secret)) return true;
  }
  return text.length >= SHORTEST_CREDENTIAL && mayHoldCredentialWord(text) && CREDENTIAL_WORDS.test(text);
}

/**
 * Short texts lately found clean of one list of secrets. Messages repeat the same short strings
 * turn after turn — block types, roles, stop reasons, the model's and the tools' names, each
 * tool_use id in its call and again in its result — and a lookup costs a fraction of a scan. The
 * texts are remembered for one list of secrets at a time (compared by content: another list starts
 * afresh), and forgotten all at once when {@link CleanTexts.MOST} are held: what it keeps alive is
 * bounded, and a text is only ever skipped when these very secrets found it clean.
 */
class CleanTexts {
  /** Longer texts (prose, results) seldom come again: they are scanned every time. */
  static readonly LONGEST = 64;
  /** How many texts it holds before it forgets them all. */
  static readonly MOST = 512;
  private texts = new Set<string>();
  /** A copy of the secrets the texts were found clean of. */
  private secrets: readonly string[] = [];

  has(text: string, secrets: readonly string[]): boolean {
    return this.sameSecrets(secrets) && this.texts.has(text);
  }

  add(text: string, secrets: readonly string[]): void {
    if (!this.sameSecrets(secrets) || this.texts.size >= CleanTexts.MOST) {
      this.texts = new Set();
      this.secrets = [...secrets];
    }
    this.texts.add(text);
  }

  private sameSecrets(secrets: readonly string[]): boolean {
    const known = this.secrets;
    if (secrets.length !== known.length) return false;
    for (let index = 0; index < known.length; index++) if (secrets[index] !== known[index]) return false;
    return true;
  }
}

const cleanTexts = new CleanTexts();

/** Replaces every secret ({@link MIN_SECRET_LENGTH} characters or more) and credential-shaped string in `text`. */
export function redact(text: string, secrets: readonly string[]): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret.length >= MIN_SECRET_LENGTH && clean.includes(secret))
      clean = clean.split(secret).join(REDACTED);
  }
  // Every shape needs one of these words: most texts (every message is redacted) skip the regexes.
  if (!CREDENTIAL_WORDS.test(clean)) return clean;
  for (const pattern of CREDENTIAL_SHAPES) {
    clean = clean.replace(pattern, (match, prefix?: unknown) =>
      typeof prefix === "string" && prefix.length < match.length ? `${prefix}${REDACTED}` : REDACTED,
    );
  }
  return clean;
}

/**
 * For text that arrives in pieces (a streamed answer): where the tail that may still grow into a
 * secret or a credential begins — a beginning of one of `secrets`, a word a credential shape starts
 * with, or a shape reaching the end — or the text's length when there is none. Text before it can
 * be redacted and shown now; the tail waits for the next piece (or the end of the text), or a
 * secret could be shown in two halves that neither match.
 */
export function unsafeTailStart(text: string, secrets: readonly string[]): number {
  let start = text.length;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    start = Math.min(start, partialSuffixStart(text, secret, false));
    // A whole occurrence reaching over the cut is held with it, so it is redacted in one piece.
    for (
      let index = text.indexOf(secret);
      index !== -1 && index < start;
      index = text.indexOf(secret, index + 1)
    ) {
      if (index + secret.length > start) start = index;
    }
  }
  for (const credentialStart of CREDENTIAL_STARTS) {
    start = Math.min(start, partialSuffixStart(text, credentialStart, true));
  }
  for (const pattern of GROWING_CREDENTIAL_SHAPES) {
    const match = pattern.exec(text);
    if (match) start = Math.min(start, match.index);
  }
  return start;
}

/** Start of the longest suffix of `text` that is a proper prefix of `word`; `text.length` if none. */
function partialSuffixStart(text: string, word: string, ignoreCase: boolean): number {
  const haystack = ignoreCase ? text.toLowerCase() : text;
  for (let length = Math.min(word.length - 1, text.length); length > 0; length--) {
    if (haystack.endsWith(word.slice(0, length))) return text.length - length;
  }
  return text.length;
}

/**
 * Where {@link redact} would replace something in `text`: the `[start, end)` spans of every secret
 * ({@link MIN_SECRET_LENGTH} characters or more) and credential-shaped string (a Bearer credential
 * without its `Bearer ` word), sorted by start, overlapping spans merged.
 */
export function secretRanges(text: string, secrets: readonly string[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + 1))
      spans.push([at, at + secret.length]);
  }
  if (CREDENTIAL_WORDS.test(text)) {
    for (const pattern of CREDENTIAL_SHAPES) {
      for (const match of text.matchAll(pattern)) {
        const skip = typeof match[1] === "string" ? match[1].length : 0;
        spans.push([match.index + skip, match.index + match[0].length]);
      }
    }
  }
  spans.sort((left, right) => left[0] - right[0]);
  const merged: Array<[number, number]> = [];
  for (const span of spans) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([span[0], span[1]]);
  }
  return merged;
}

/**
 * Whether `value` holds a secret or a credential-shaped string anywhere a debugger or `util.inspect`
 * would show it: own properties (enumerable or not, `message`, `stack` and `cause` included), array
 * items, Map / Headers entries. Too deep or too large counts as holding one: we cannot vouch for it.
 */
export function containsSecret(value: unknown, secrets: readonly string[]): boolean {
  const seen = new Set<object>();
  let budget = 5_000;
  const visit = (current: unknown, depth: number): boolean => {
    if (--budget < 0) return true;
    if (typeof current === "string") return redact(current, secrets) !== current;
    if (typeof current !== "object" || current === null) return false;
    if (seen.has(current)) return false;
    if (depth > 12) return true;
    seen.add(current);
    for (const child of childrenOf(current)) {
      if (visit(child, depth + 1)) return true;
    }
    return false;
  };
  return visit(value, 0);
}

/** What an inspector shows of `value`: collection entries, own property names and values, enumerable symbols. */
function childrenOf(value: object): unknown[] {
  const children: unknown[] = [];
  if (isEntryCollection(value)) {
    try {
      for (const entry of value.entries()) children.push(entry);
    } catch {
      return [REDACTED_MARKER];
    }
  }
  const keys: Array<string | symbol> = [
    ...Object.getOwnPropertyNames(value),
    ...Object.getOwnPropertySymbols(value).filter((symbol) =>
      Object.prototype.propertyIsEnumerable.call(value, symbol),
    ),
  ];
  for (const key of keys) {
    try {
      children.push(
        typeof key === "string" ? key : undefined,
        (value as Record<string | symbol, unknown>)[key],
      );
    } catch {
      // a throwing getter shows nothing
    }
  }
  return children;
}

/** Marks a value that could not be inspected, so that it counts as holding a secret. */
const REDACTED_MARKER = "sk-ant-uninspectable";

function isEntryCollection(value: object): value is { entries(): Iterable<unknown> } {
  if (value instanceof Map || value instanceof Set || value instanceof URLSearchParams) return true;
  if (typeof Headers !== "undefined" && value instanceof Headers) return true;
  return (
    value.constructor?.name === "Headers" && typeof (value as { entries?: unknown }).entries === "function"
  );
}

/**
 * The parts of a URL that may be credentials: `user:password@` (fetch refuses such URLs and quotes
 * them whole in its error) and query values (`?token=…`), as written and decoded.
 */
export function urlSecretsOf(url: string | undefined): string[] {
  if (!url) return [];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const values: string[] = [];
  const both = (raw: string, decoded: string) => values.push(raw, decoded);
  if (parsed.username) both(parsed.username, safeDecode(parsed.username));
  if (parsed.password) both(parsed.password, safeDecode(parsed.password));
  if (parsed.username && parsed.password) values.push(`${parsed.username}:${parsed.password}`);
  for (const [, value] of parsed.searchParams) both(encodeURIComponent(value), value);
  return values;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
