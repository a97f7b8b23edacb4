/**
 * The error of a bad eval input: a definition, a case file, a cassette folder. The CLI exits 2 on it.
 * @module
 */
import { AgentLatticeError } from "../index";

/** An eval definition or its cases are not usable; the message says where and what is wrong. */
export class EvalInputError extends AgentLatticeError {}
