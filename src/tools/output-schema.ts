/**
 * The validator of an agent's structured result.
 * @module
 */
import type { JsonSchema } from "../model/client";

/** A validator for the structured result: zod works directly; a bare `parse` works. */
export type OutputSchema<T> = {
  parse(input: unknown): T;
  /** The JSON Schema `submit_output` declares; derived from zod / Standard JSON Schema when absent. */
  jsonSchema?: JsonSchema;
};
