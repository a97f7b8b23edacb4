/**
 * Building the page's elements. Stored data only ever enters the page as text (`textContent`),
 * never as HTML: a prompt or a tool output holding `<script>` shows those characters.
 * @module
 */

/** Attributes of {@link el}: a class, text, a title, or any attribute (never an event handler). */
export type Attributes = { class?: string; text?: string; title?: string } & Record<
  string,
  string | undefined
>;

/** Creates `<tag>` with `attributes` (text as textContent) and `children`. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Array<Node | string | null | undefined>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (name === "text") element.textContent = value;
    else if (name === "class") element.className = value;
    else if (!name.toLowerCase().startsWith("on")) element.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    element.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return element;
}

/** Milliseconds as the page shows them: `850 ms`, `2.4 s`, `3 min 5 s`. */
export function duration(ms: number | undefined): string {
  if (ms === undefined) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Dollars: `$0.0123`. */
export function dollars(usd: number | undefined): string {
  if (usd === undefined) return "–";
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

/** A count with thousands separators. */
export function count(value: number | undefined): string {
  return value === undefined ? "–" : value.toLocaleString("en-US");
}

/** Any value as readable text (JSON for objects). */
export function asText(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
