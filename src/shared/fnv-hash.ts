/**
 * A 32-bit FNV-1a style hash of a string's UTF-16 code units, for ids and digests that must be the
 * same in every process and need no crypto module (edge runtimes). Not a security measure.
 * @module
 */

/** FNV-1a's offset basis and prime: the standard 32-bit parameters. */
export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** The hash of `text` from `seed` with `multiplier`, as an unsigned 32-bit integer. */
export function fnv1a32(text: string, seed = FNV_OFFSET, multiplier = FNV_PRIME): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++)
    hash = Math.imul(hash ^ text.charCodeAt(index), multiplier) >>> 0;
  return hash;
}

/** `value` as 8 hex digits. */
export function hex32(value: number): string {
  return value.toString(16).padStart(8, "0");
}
