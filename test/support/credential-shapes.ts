/**
 * One made-up credential of each shape the surfaces redact whatever the secrets are (see
 * `CREDENTIAL_SHAPES` in src/shared/redact.ts), built at run time so no scanner takes them for
 * real ones, with the part that must never be shown.
 */

/** A fake credential and a piece of it that must not survive redaction. */
export interface CredentialSample {
  shape: string;
  key: string;
  /** A distinctive piece of the key (its random part). */
  piece: string;
}

const random = (seed: string, length: number) =>
  seed.repeat(Math.ceil(length / seed.length)).slice(0, length);

/** One sample per credential shape. */
export const CREDENTIAL_SAMPLES: readonly CredentialSample[] = [
  { shape: "Anthropic", key: `sk-${"ant"}-api03-${random("Qx7Lm2Pz", 40)}`, piece: "Qx7Lm2PzQx7Lm2Pz" },
  { shape: "OpenAI project", key: `sk-${"proj"}-${random("Vb4Nc8Rt_k", 48)}`, piece: "Vb4Nc8Rt_kVb4Nc8" },
  { shape: "OpenAI-compatible gateway", key: `sk-${random("9f3ac1d7e2", 32)}`, piece: "9f3ac1d7e29f3ac1" },
  { shape: "AWS access key id", key: `AK${"IA"}${random("Z7QW3RT5YU", 16)}`, piece: "Z7QW3RT5YUZ7QW3R" },
  {
    shape: "AWS temporary access key id",
    key: `AS${"IA"}${random("M2KD8PLX4C", 16)}`,
    piece: "M2KD8PLX4CM2KD8P",
  },
];

/** Text that looks a little like a credential and is none: kept as it is. */
export const NOT_CREDENTIALS: readonly string[] = [
  "the task-list-for-the-whole-team-this-week",
  "an sk-learn-compatible-pipeline-for-everyone",
  "offices in Asia and AKIA alone",
  "AKIA12345 is too short",
];
