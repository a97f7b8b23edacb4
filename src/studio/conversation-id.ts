/**
 * The one check every studio route applies to a conversation id before anything else — before a
 * source opens a store, before `createAgent` is called: an id that could name a place outside the
 * studio's stores (a path: `../outside/victim`, `/abs/path`, `alice/../alice`, `C:\…`), that no
 * store could hold safely (a control character such as NUL) or that is too long for a file name
 * (`ENAMETOOLONG`) is refused. Each source then applies its own rules (a JSONL folder takes no `/`).
 * @module
 */

/** The longest conversation id the studio opens or creates (a file name is at most 255 bytes). */
export const MAX_CONVERSATION_ID_LENGTH = 200;

/** Whether `id` holds a control character (NUL included) or the backslash of Windows paths. */
function hasUnsafeCharacter(id: string): boolean {
  for (let index = 0; index < id.length; index++) {
    const code = id.charCodeAt(index);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/** A `.` or `..` segment anywhere, between slashes or at either end. */
const DOT_SEGMENT = /(^|\/)\.{1,2}(\/|$)/;

/**
 * Whether `id` may name a conversation in the studio: 1–200 characters, no control character or
 * backslash, not absolute (`/…`, `C:…`), no empty, `.` or `..` path segment.
 */
export function isSafeConversationId(id: string): boolean {
  return (
    id.length > 0 &&
    id.length <= MAX_CONVERSATION_ID_LENGTH &&
    !hasUnsafeCharacter(id) &&
    !id.startsWith("/") &&
    !id.endsWith("/") &&
    !id.includes("//") &&
    !/^[A-Za-z]:/.test(id) &&
    !DOT_SEGMENT.test(id)
  );
}
