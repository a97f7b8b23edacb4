/**
 * The page's calls to the studio API. The token comes from the page's URL and goes in a header.
 * @module
 */

const token = new URLSearchParams(location.search).get("token") ?? "";

/** A failed API call. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** GETs or POSTs `path` and returns its JSON. */
export async function api<T>(path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers:
      body === undefined
        ? { "x-studio-token": token }
        : { "x-studio-token": token, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new ApiError(response.status, json.error ?? `HTTP ${response.status}`);
  return json as T;
}

/** `?name=value&…` with the defined values. */
export function query(values: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && value !== "") params.set(name, String(value));
  return `?${params}`;
}
