/**
 * SQL identifiers the stores put in their statements (table names, schemas): checked against a
 * strict pattern, then quoted, so an option can never inject SQL.
 * @module
 */
import { InvalidOptionError } from "../../errors";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Returns `"name"` for a plain identifier (letters, digits, underscores); throws InvalidOptionError otherwise. */
export function quoteIdentifier(name: string, optionName: string): string {
  if (typeof name !== "string" || !IDENTIFIER.test(name)) {
    throw new InvalidOptionError(
      `${optionName} must be letters, digits and underscores, starting with a letter or underscore (at most 63), got ${JSON.stringify(name)}.`,
    );
  }
  return `"${name}"`;
}
