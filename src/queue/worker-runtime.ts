/**
 * What the processing of a job needs from its worker, in one object: the lane, the BullMQ queue (to
 * promote the next job of a conversation), the resolved options, and the registry of running runs
 * that `close()` interrupts.
 * @module
 */
import type { Queue } from "bullmq";
import type { Agent, ModelPricing } from "../index";
import type { ConversationLane } from "./conversation-lane";
import type { FleetRedaction } from "./fleet-redaction";

/** Who a run's agent is for: handed to `createAgent`. */
export interface AgentJobContext {
  conversationId: string;
  jobId: string;
  /** 1 for a job's first run; higher when it resumes after a crash, a stall or a shutdown. */
  run: number;
}

/** Builds the agent for one run of a job. It is closed when the run ends. */
export type CreateJobAgent = (context: AgentJobContext) => Agent<any> | Promise<Agent<any>>;

/** A run that `close()` can ask to stop. */
export interface InterruptibleRun {
  /** Asks the run to stop at its next safe point: its turn is saved and the job goes back to the queue. */
  interrupt(): void;
}

/** The worker's side of processing. */
export interface WorkerRuntime {
  lane: ConversationLane;
  queue: Queue;
  createAgent: CreateJobAgent;
  leaseMs: number;
  parkedRecheckMs: number;
  continuationPrompt: string;
  pricing: Readonly<Record<string, ModelPricing>>;
  /** What the worker redacts before Redis keeps it: results, messages, failures. */
  redaction: FleetRedaction;
  /** Runs in progress on this worker. */
  runs: Set<InterruptibleRun>;
  /** Whether `close()` has been called. */
  closing(): boolean;
  /** Lets `promise` finish in the background; `close()` waits for it before closing connections. */
  background(promise: Promise<unknown>): void;
}
