/**
 * `piiGuardrail`: finds personal data — email addresses, phone numbers, payment card numbers (a
 * Luhn check), IBANs (the ISO 13616 mod-97 check), and patterns of your own — and blocks the
 * content, or redacts what it found. The values found never appear in its verdict.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { defineGuardrail, type Guardrail, type GuardrailStage, type GuardrailVerdict } from "./guardrail";

/** The kinds of personal data `piiGuardrail` knows. */
export type PiiKind = "email" | "phone" | "card" | "iban";

/** Options of {@link piiGuardrail}. */
export interface PiiGuardrailOptions {
  /** @default "pii" */
  name?: string;
  /** @default ["input", "output"] */
  stage?: GuardrailStage | GuardrailStage[];
  /**
   * `"block"`: personal data trips the guardrail (or rejects, with `verdict: "reject"`);
   * `"redact"`: each finding is replaced by `[redacted <kind>]` and the query goes on.
   * @default "block"
   */
  action?: "block" | "redact";
  /** With `"block"`: what a finding is. @default "tripwire" */
  verdict?: "tripwire" | "reject";
  /** What is looked for. @default ["email", "phone", "card", "iban"] */
  detect?: PiiKind[];
  /** Your own kinds: a name and a pattern (its flags are kept; `g` is added). */
  patterns?: Record<string, RegExp>;
  /** The message of a block (said to the user on a reject). @default "The message holds personal data (…)." */
  message?: string;
  /** A redaction's text for a finding of `kind`. @default `[redacted ${kind}]` */
  replacement?: (kind: string) => string;
  /** `input` only. @default "blocking" */
  mode?: "blocking" | "parallel";
}

/** One finding: its kind and where it is in the text. */
export interface PiiFinding {
  kind: string;
  start: number;
  end: number;
}

const ALL_KINDS: readonly PiiKind[] = ["email", "phone", "card", "iban"];
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** 13–19 digits, single spaces or dashes between them. */
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d])/g;
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;
/** A run of digits with the separators phone numbers are written with. */
const PHONE = /(?<![\w+])(?:\+|00)?\(?\d[\d\s().-]{5,}\d(?![\w])/g;

/**
 * The personal data in `text`, in order, without overlaps: cards and IBANs first (checksums), then
 * emails, phone numbers and your patterns in what is left.
 */
export function findPii(
  text: string,
  kinds: readonly PiiKind[] = ALL_KINDS,
  patterns: Readonly<Record<string, RegExp>> = {},
): PiiFinding[] {
  const found: PiiFinding[] = [];
  const take = (kind: string, pattern: RegExp, valid: (match: string) => boolean) => {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (match[0].length === 0 || overlaps(found, start, end) || !valid(match[0])) continue;
      found.push({ kind, start, end });
    }
  };
  if (kinds.includes("card")) take("card", CARD, isCardNumber);
  if (kinds.includes("iban")) take("iban", IBAN, isIban);
  if (kinds.includes("email")) take("email", EMAIL, () => true);
  if (kinds.includes("phone")) take("phone", PHONE, isPhoneNumber);
  for (const [kind, pattern] of Object.entries(patterns)) take(kind, globalCopy(pattern), () => true);
  return found.sort((a, b) => a.start - b.start);
}

/**
 * A guardrail that finds personal data ({@link findPii}) in prompts and answers (or the stages you
 * name) and blocks it — a `tripwire` by default — or redacts it. Its verdict's `info` lists the
 * kinds found and how many of each, never the values.
 * @throws InvalidOptionError on a malformed option
 */
export function piiGuardrail(options: PiiGuardrailOptions = {}): Guardrail {
  const kinds = options.detect ?? ALL_KINDS;
  if (!Array.isArray(kinds) || kinds.some((kind) => !ALL_KINDS.includes(kind)))
    throw new InvalidOptionError(`piiGuardrail: detect must list of "email", "phone", "card", "iban".`);
  const patterns = options.patterns ?? {};
  for (const [kind, pattern] of Object.entries(patterns))
    if (!(pattern instanceof RegExp))
      throw new InvalidOptionError(`piiGuardrail: patterns.${kind} must be a RegExp.`);
  const action = options.action ?? "block";
  if (action !== "block" && action !== "redact")
    throw new InvalidOptionError('piiGuardrail: action must be "block" or "redact".');
  const blockVerdict = options.verdict ?? "tripwire";
  const replacement = options.replacement ?? ((kind: string) => `[redacted ${kind}]`);
  const find = (text: string) => findPii(text, kinds, patterns);
  return defineGuardrail({
    name: options.name ?? "pii",
    stage: options.stage ?? ["input", "output"],
    mode: options.mode,
    check: ({ text }): GuardrailVerdict => {
      const found = find(text);
      if (found.length === 0) return { verdict: "allow" };
      const info = { found: countByKind(found) };
      if (action === "redact")
        return { verdict: "redact", redact: (value) => redactFound(value, find(value), replacement), info };
      const message =
        options.message ?? `The message holds personal data (${Object.keys(info.found).join(", ")}).`;
      return blockVerdict === "reject"
        ? { verdict: "reject", message }
        : { verdict: "tripwire", message, info };
    },
  });
}

function redactFound(
  text: string,
  found: readonly PiiFinding[],
  replacement: (kind: string) => string,
): string {
  if (found.length === 0) return text;
  let out = "";
  let at = 0;
  for (const finding of found) {
    out += text.slice(at, finding.start) + replacement(finding.kind);
    at = finding.end;
  }
  return out + text.slice(at);
}

function countByKind(found: readonly PiiFinding[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { kind } of found) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

function overlaps(found: readonly PiiFinding[], start: number, end: number): boolean {
  return found.some((finding) => start < finding.end && finding.start < end);
}

function globalCopy(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : `${pattern.flags}g`);
}

/** 13–19 digits that pass the Luhn check. */
export function isCardNumber(candidate: string): boolean {
  const digits = candidate.replace(/[ -]/g, "");
  if (digits.length < 13 || digits.length > 19 || /^(\d)\1+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** An IBAN whose check digits pass ISO 13616's mod 97 (15–34 characters). */
export function isIban(candidate: string): boolean {
  const iban = candidate.replace(/ /g, "");
  if (iban.length < 15 || iban.length > 34) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= "A" && char <= "Z" ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

/** 9–15 digits (8 with a `+` or `00` country prefix), not a date range like 2019-2023. */
function isPhoneNumber(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, "");
  const international = candidate.startsWith("+") || candidate.startsWith("00");
  if (digits.length > 15 || digits.length < (international ? 8 : 9)) return false;
  if (/^\d{4}-\d{4}$/.test(candidate)) return false;
  return !/^\d+$/.test(candidate) || international || digits.length <= 12;
}
