/**
 * Reading a request's JSON body under a size limit, without trusting `content-length`.
 * @module
 */
import { ChatRequestError } from "./chat-errors";

/**
 * The parsed JSON body of `request`.
 * @throws ChatRequestError 413 `body_too_large` past `maxBytes`, 400 `invalid_json` when it is not JSON
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const bytes: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge(maxBytes);
      }
      bytes.push(value);
    }
  }
  const text = new TextDecoder().decode(concat(bytes, size));
  try {
    return JSON.parse(text);
  } catch {
    throw new ChatRequestError(400, "invalid_json", "The request body is not valid JSON");
  }
}

function tooLarge(maxBytes: number): ChatRequestError {
  return new ChatRequestError(413, "body_too_large", `The request body is larger than ${maxBytes} bytes`);
}

function concat(parts: readonly Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    all.set(part, offset);
    offset += part.byteLength;
  }
  return all;
}
