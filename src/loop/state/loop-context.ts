/**
 * What the loop runs on for one conversation: its configuration (read only), its state (changed
 * through its methods) and the services it calls. The agent builds one per Agent; each query adds
 * its own {@link QueryState}.
 * @module
 */
import type { ModelClient } from "../../model/client";
import type { Conversation } from "./conversation";
import type { LoopConfig } from "./loop-config";

/** The services the loop calls (history and spans belong to the {@link Conversation}). */
export interface LoopServices {
  /** The model client every request goes to. */
  readonly client: ModelClient;
}

/** The loop's inputs for one conversation. */
export interface LoopContext<T> {
  /** Settings, read only. */
  readonly config: LoopConfig<T>;
  /** State that outlives a query. */
  readonly conversation: Conversation;
  /** What the loop calls. */
  readonly services: LoopServices;
}
