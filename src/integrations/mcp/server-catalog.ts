/**
 * Resources and prompts of connected servers ({@link McpCatalog}): every page of a list (with a
 * guard against servers that paginate forever), reads and prompts by server name, and failures as
 * errors that hold no configured secret.
 * @module
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InvalidOptionError } from "../../errors";
import type {
  McpCatalog,
  McpPromptInfo,
  McpPromptResult,
  McpResourceContents,
  McpResourceInfo,
  McpResourceTemplateInfo,
} from "./catalog-types";
import { messageOf } from "./failure-texts";

/** What a resources or prompts request needs of a connection . */
export interface CatalogAccess {
  client: Client;
  redact: (text: string) => string;
  timeoutMs: number;
  /** Aborted when the connection closes. */
  signal: AbortSignal;
}

/** A connection as the catalog sees it (a `ServerConnection`). */
export interface CatalogSource {
  readonly name: string;
  readonly connected: boolean;
  catalogAccess(capability: "resources" | "prompts"): CatalogAccess | undefined;
}

/** A guard against servers that paginate forever. */
const MAX_PAGES = 1_000;

type Capability = "resources" | "prompts";

/** The catalog of `connections` (in config order). */
export function createCatalog(connections: readonly CatalogSource[]): McpCatalog {
  const named = (server: string) => {
    const connection = connections.find((candidate) => candidate.name === server);
    if (!connection) throw new InvalidOptionError(`No MCP server is named ${JSON.stringify(server)}.`);
    return connection;
  };
  /** The servers a list covers: the one named (if it offers the feature), or every one that does. */
  const offering = (capability: Capability, server?: string) => {
    const chosen = server === undefined ? connections : [named(server)];
    return chosen.flatMap((connection) => {
      const access = connection.catalogAccess(capability);
      return access ? [{ name: connection.name, access }] : [];
    });
  };
  const one = (capability: Capability, server: string): CatalogAccess => {
    const connection = named(server);
    const access = connection.catalogAccess(capability);
    if (access) return access;
    const why = connection.connected ? `does not offer ${capability}` : "is not connected";
    throw new Error(`The MCP server ${JSON.stringify(server)} ${why}.`);
  };
  return {
    listResources: async (server) => {
      const lists = offering("resources", server).map(({ name, access }) =>
        everyPage(access, "resources/list", (cursor) =>
          access.client.listResources(cursor ? { cursor } : undefined, options(access)).then((page) => ({
            items: page.resources.map((item) => resourceInfo(name, item)),
            next: page.nextCursor,
          })),
        ),
      );
      return (await Promise.all(lists)).flat();
    },
    listResourceTemplates: async (server) => {
      const lists = offering("resources", server).map(({ name, access }) =>
        everyPage(access, "resources/templates/list", (cursor) =>
          access.client
            .listResourceTemplates(cursor ? { cursor } : undefined, options(access))
            .then((page) => ({
              items: page.resourceTemplates.map((item) => templateInfo(name, item)),
              next: page.nextCursor,
            })),
        ),
      );
      return (await Promise.all(lists)).flat();
    },
    readResource: async (server, uri) => {
      const access = one("resources", server);
      const result = await guarded(access, () => access.client.readResource({ uri }, options(access)));
      return result.contents.map((part) => ({ ...part }) as McpResourceContents);
    },
    listPrompts: async (server) => {
      const lists = offering("prompts", server).map(({ name, access }) =>
        everyPage(access, "prompts/list", (cursor) =>
          access.client.listPrompts(cursor ? { cursor } : undefined, options(access)).then((page) => ({
            items: page.prompts.map((item) => ({ ...item, server: name }) as McpPromptInfo),
            next: page.nextCursor,
          })),
        ),
      );
      return (await Promise.all(lists)).flat();
    },
    getPrompt: async (server, name, args) => {
      const access = one("prompts", server);
      const result = await guarded(access, () =>
        access.client.getPrompt({ name, ...(args ? { arguments: args } : {}) }, options(access)),
      );
      const prompt: McpPromptResult = { messages: result.messages.map((message) => ({ ...message })) };
      if (result.description !== undefined) prompt.description = result.description;
      return prompt;
    },
  };
}

function options(access: CatalogAccess) {
  return { timeout: access.timeoutMs, signal: access.signal };
}

/** Runs a request; a failure becomes an Error whose message holds no configured secret. */
async function guarded<T>(access: CatalogAccess, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw new Error(access.redact(messageOf(error)));
  }
}

/** Every page of a list, in order. */
async function everyPage<T>(
  access: CatalogAccess,
  method: string,
  page: (cursor: string | undefined) => Promise<{ items: T[]; next?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let count = 0; count < MAX_PAGES; count++) {
    const { items: more, next } = await guarded(access, () => page(cursor));
    items.push(...more);
    if (next === undefined) return items;
    if (seen.has(next)) throw new Error(`${method} returned the cursor ${JSON.stringify(next)} twice.`);
    seen.add(next);
    cursor = next;
  }
  throw new Error(`${method} did not end after ${MAX_PAGES} pages.`);
}

function resourceInfo(server: string, item: Record<string, unknown>): McpResourceInfo {
  return pick({ server, uri: String(item.uri), name: String(item.name) }, item, [
    "title",
    "description",
    "mimeType",
    "size",
  ]) as unknown as McpResourceInfo;
}

function templateInfo(server: string, item: Record<string, unknown>): McpResourceTemplateInfo {
  return pick({ server, uriTemplate: String(item.uriTemplate), name: String(item.name) }, item, [
    "title",
    "description",
    "mimeType",
  ]) as unknown as McpResourceTemplateInfo;
}

function pick(
  base: Record<string, unknown>,
  item: Record<string, unknown>,
  keys: string[],
): Record<string, unknown> {
  for (const key of keys) if (item[key] !== undefined) base[key] = item[key];
  return base;
}
