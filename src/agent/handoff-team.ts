/**
 * The agents of a conversation with handoffs (`AgentOptions.handoffs`): the root agent and every
 * specialist it can reach, each with its configuration, client and tools — its own system prompt,
 * model, settings and `transfer_to_<name>` tools — over one history. The loop runs on
 * {@link HandoffTeam}, whose `config` and `services` are those of the agent answering now.
 * @module
 */
import { InvalidOptionError } from "../errors";
import { activeAgentIn } from "../history/handoff-record";
import { TRANSFER_TOOL_PREFIX } from "../loop/handoff-history";
import type { Conversation } from "../loop/state/conversation";
import type { LoopConfig } from "../loop/state/loop-config";
import type { LoopContext, LoopServices } from "../loop/state/loop-context";
import type { ModelClient } from "../model/client";
import { MODEL_SETTING_KEYS } from "../model/model-setting-keys";
import { defineTool } from "../tools/define-tool";
import type { SchemaLike } from "../tools/schema";
import type { Tool } from "../tools/tool";
import { DEFAULT_TRANSFER_INPUT, type Handoff, type HandoffDefinition } from "./handoff";
import { handoffHistoryView } from "./handoff-view";
import type { AgentOptions } from "./options";
import { PromptAdditions } from "./prompt-additions";
import { resolveLoopConfig } from "./resolve-options";
import { resolveToolSearch, toolSearchSynonyms } from "./tool-search-option";

/** The model settings a specialist keeps from the root agent unless it sets them. */
const SHARED_SETTINGS: ReadonlySet<string> = new Set(["promptCaching", "metadata", "serviceTier"]);

/** One agent of the team. */
interface Member<T> {
  readonly config: LoopConfig<T>;
  readonly services: LoopServices;
  /** Its skills, read before the first query (a specialist with `skills`). */
  readonly additions: PromptAdditions | undefined;
}

/** A specialist found while walking the handoffs, and the agent that lists it first. */
interface Reached {
  readonly handoff: Handoff;
  readonly parent: string;
}

/** The root agent and its specialists; the loop context of a conversation with handoffs. */
export class HandoffTeam<T> implements LoopContext<T> {
  constructor(
    readonly conversation: Conversation,
    private readonly members: ReadonlyMap<string, Member<T>>,
  ) {}

  /** The configuration of the agent answering now. */
  get config(): LoopConfig<T> {
    return this.members.get(this.conversation.activeAgent)!.config;
  }

  /** The client of the agent answering now. */
  get services(): LoopServices {
    return this.members.get(this.conversation.activeAgent)!.services;
  }

  /**
   * The agent history names (its latest handoff) answers from now on.
   * @throws InvalidOptionError when history names an agent this team does not have
   */
  syncWithHistory(): void {
    const root = this.conversation.rootSeat.name;
    const name = activeAgentIn(this.conversation.history.messages, root);
    if (!this.members.has(name))
      throw new InvalidOptionError(
        `The conversation's history hands it to agent "${name}", which this agent does not have (its agents: ${[...this.members.keys()].join(", ")}). Create the agent with the handoffs of the one that wrote the conversation.`,
      );
    this.conversation.activate(name);
  }

  /** Reads the specialists' skills (once; a failure rejects every time, as the root's). */
  async ensureLoaded(): Promise<void> {
    for (const member of this.members.values()) await member.additions?.ensureLoaded();
  }
}

/**
 * The team of `options.handoffs`, the root agent's configuration and client given; its specialists
 * added to `conversation` and the root's transfer tools to the root's tools. Undefined without
 * handoffs.
 * @throws InvalidOptionError when two different handoffs share a name (or take the root's)
 */
export function buildHandoffTeam<T>(
  options: AgentOptions<T>,
  root: { config: LoopConfig<T>; client: ModelClient },
  conversation: Conversation,
): HandoffTeam<T> | undefined {
  const listed = options.handoffs ?? [];
  if (listed.length === 0) return undefined;
  const rootName = root.config.agentName;
  const reached = reachableHandoffs(rootName, listed);
  const members = new Map<string, Member<T>>();
  const rootTransfers = transferTools(listed, undefined);
  for (const tool of rootTransfers.tools) conversation.rootTools.add(tool);
  members.set(rootName, {
    config: { ...root.config, handoffs: { transfers: rootTransfers.targets, view: undefined } },
    services: { client: root.client },
    additions: undefined,
  });
  for (const { handoff, parent } of reached.values()) {
    members.set(handoff.name, specialist(options, root, handoff.definition, parent, conversation));
  }
  return new HandoffTeam(conversation, members);
}

/** Every specialist reachable from `listed`, by name, each with the agent that lists it first. */
function reachableHandoffs(rootName: string, listed: readonly Handoff[]): Map<string, Reached> {
  const reached = new Map<string, Reached>();
  const queue: Reached[] = listed.map((handoff) => ({ handoff, parent: rootName }));
  for (let index = 0; index < queue.length; index++) {
    const { handoff, parent } = queue[index]!;
    if (handoff.name === rootName)
      throw new InvalidOptionError(`createAgent: a handoff is named "${rootName}", the agent's own name.`);
    const known = reached.get(handoff.name);
    if (known) {
      if (known.handoff !== handoff)
        throw new InvalidOptionError(`createAgent: two different handoffs are named "${handoff.name}".`);
      continue;
    }
    reached.set(handoff.name, { handoff, parent });
    for (const child of handoff.definition.handoffs ?? [])
      queue.push({ handoff: child, parent: handoff.name });
  }
  return reached;
}

/** One specialist: its configuration (the root's options with its own), client, tools and skills. */
function specialist<T>(
  options: AgentOptions<T>,
  root: { config: LoopConfig<T>; client: ModelClient },
  definition: Readonly<HandoffDefinition>,
  parent: string,
  conversation: Conversation,
): Member<T> {
  const listed = definition.handoffs ?? [];
  const handBack =
    definition.handBack !== false && !listed.some((handoff) => handoff.name === parent) ? parent : undefined;
  const transfers = transferTools(listed, handBack);
  const client = definition.client ?? root.client;
  const own: AgentOptions<T> = { ...options };
  const fields = own as unknown as Record<string, unknown>;
  for (const key of MODEL_SETTING_KEYS) {
    const value = (definition as Record<string, unknown>)[key];
    if (value !== undefined) fields[key] = value;
    else if (!SHARED_SETTINGS.has(key)) delete fields[key];
  }
  Object.assign(own, {
    name: definition.name,
    model: definition.model ?? options.model,
    systemPrompt: definition.systemPrompt,
    tools: [...(definition.tools ?? []), ...transfers.tools],
    client,
    maxTokens: definition.maxTokens ?? options.maxTokens,
    fallbackModel: definition.fallbackModel ?? (definition.model ? undefined : options.fallbackModel),
    handoffs: undefined,
    mcpServers: undefined,
    skills: undefined,
  });
  const resolved = resolveLoopConfig(own);
  const config: LoopConfig<T> = {
    ...resolved,
    // One structured output for the whole conversation: the root's tool.
    modelSettings: { ...resolved.modelSettings, submitTool: root.config.modelSettings.submitTool },
    secrets: root.config.secrets,
    handoffs: { transfers: transfers.targets, view: handoffHistoryView(definition.name, definition.history) },
  };
  const seat = conversation.addAgent(definition.name, own.model);
  for (const tool of own.tools ?? []) seat.tools.add(tool);
  seat.tools.setToolSearch(
    resolveToolSearch(options.toolSearch, client),
    toolSearchSynonyms(options.toolSearch),
  );
  const skills = definition.skills ?? [];
  if (skills.length > 0) PromptAdditions.check(skills, undefined);
  const additions =
    skills.length > 0 || options.instructions
      ? new PromptAdditions(seat, skills, options.instructions)
      : undefined;
  return { config, services: { client }, additions };
}

/** The transfer tools of an agent: one per handoff it lists, and one back to `handBack` when set. */
function transferTools(
  listed: readonly Handoff[],
  handBack: string | undefined,
): { tools: Tool[]; targets: Map<string, string> } {
  const tools: Tool[] = [];
  const targets = new Map<string, string>();
  for (const handoff of listed) {
    const { name, description, inputSchema } = handoff.definition;
    tools.push(transferTool(name, `Hand the conversation to ${name}: ${description}`, inputSchema));
    targets.set(TRANSFER_TOOL_PREFIX + name, name);
  }
  if (handBack !== undefined) {
    const description = `Hand the conversation back to ${handBack}, when the request is not yours to handle.`;
    tools.push(transferTool(handBack, description, undefined));
    targets.set(TRANSFER_TOOL_PREFIX + handBack, handBack);
  }
  return { tools, targets };
}

/** `transfer_to_<target>`: its result says so; the loop passes control once it is recorded. */
function transferTool(
  target: string,
  description: string,
  inputSchema: SchemaLike<unknown> | undefined,
): Tool {
  return defineTool({
    name: TRANSFER_TOOL_PREFIX + target,
    description,
    inputSchema: (inputSchema ?? DEFAULT_TRANSFER_INPUT) as SchemaLike<unknown>,
    execute: () => `Transferred to ${target}: ${target} answers from now on.`,
  });
}

/** The credentials of every specialist's own client, for the root agent to redact too. */
export function handoffClientSecrets(listed: readonly Handoff[] | undefined): string[] {
  const secrets: string[] = [];
  const seen = new Set<Handoff>();
  const queue = [...(listed ?? [])];
  for (let index = 0; index < queue.length; index++) {
    const handoff = queue[index]!;
    if (seen.has(handoff)) continue;
    seen.add(handoff);
    const clientSecrets = handoff.definition.client?.secrets;
    if (Array.isArray(clientSecrets)) secrets.push(...clientSecrets);
    queue.push(...(handoff.definition.handoffs ?? []));
  }
  return secrets;
}
