/**
 * A small JSON Schema validator for `--output-schema`: the subset of keywords that describes the
 * shape of a JSON answer (types, properties, required, items, enums, bounds, patterns, anyOf /
 * oneOf / allOf / not). A schema using any other validation keyword is refused up front, so a
 * payload is never accepted against a rule that was silently skipped.
 * @module
 */

/** A JSON Schema document or sub-schema. */
export type JsonSchemaNode = boolean | { [keyword: string]: unknown };

/** One reason a value does not match; `path` leads from the root value to the offending part. */
export interface SchemaIssue {
  path: Array<string | number>;
  message: string;
}

/** Keywords that only describe (they never reject a value). */
const ANNOTATION_KEYWORDS = new Set([
  "$schema",
  "$id",
  "$comment",
  "title",
  "description",
  "default",
  "examples",
  "format",
  "readOnly",
  "writeOnly",
  "deprecated",
]);

/** Keywords this validator checks. */
const VALIDATION_KEYWORDS = new Set([
  "type",
  "enum",
  "const",
  "properties",
  "required",
  "additionalProperties",
  "minProperties",
  "maxProperties",
  "items",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minLength",
  "maxLength",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "anyOf",
  "oneOf",
  "allOf",
  "not",
]);

const JSON_TYPES = new Set(["null", "boolean", "object", "array", "number", "integer", "string"]);

/**
 * Problems that make a schema unusable here: unsupported keywords (`$ref`, `if` …), unknown types,
 * malformed keyword values. Each is `location: problem`, the location a JSON pointer. Empty when
 * the schema is usable.
 */
export function findUnsupportedSchemaParts(schema: unknown, location = "#"): string[] {
  if (typeof schema === "boolean") return [];
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    return [`${location}: a schema must be an object or a boolean`];
  const problems: string[] = [];
  const record = schema as Record<string, unknown>;
  for (const [keyword, value] of Object.entries(record)) {
    const at = `${location}/${keyword}`;
    if (ANNOTATION_KEYWORDS.has(keyword)) continue;
    if (!VALIDATION_KEYWORDS.has(keyword)) {
      problems.push(`${at}: the keyword "${keyword}" is not supported`);
      continue;
    }
    problems.push(...keywordValueProblems(keyword, value, at));
  }
  return problems;
}

function keywordValueProblems(keyword: string, value: unknown, at: string): string[] {
  switch (keyword) {
    case "type": {
      const types = Array.isArray(value) ? value : [value];
      const unknown = types.filter((type) => typeof type !== "string" || !JSON_TYPES.has(type));
      return unknown.length > 0 || types.length === 0 ? [`${at}: unknown type ${JSON.stringify(value)}`] : [];
    }
    case "enum":
      return Array.isArray(value) ? [] : [`${at}: must be an array`];
    case "const":
      return [];
    case "properties":
      if (typeof value !== "object" || value === null || Array.isArray(value))
        return [`${at}: must be an object`];
      return Object.entries(value).flatMap(([name, child]) =>
        findUnsupportedSchemaParts(child, `${at}/${name}`),
      );
    case "required":
      return Array.isArray(value) && value.every((name) => typeof name === "string")
        ? []
        : [`${at}: must be an array of property names`];
    case "additionalProperties":
    case "items":
    case "not":
      return findUnsupportedSchemaParts(value, at);
    case "anyOf":
    case "oneOf":
    case "allOf":
      return Array.isArray(value) && value.length > 0
        ? value.flatMap((child, index) => findUnsupportedSchemaParts(child, `${at}/${index}`))
        : [`${at}: must be a non-empty array of schemas`];
    case "pattern":
      return isValidPattern(value) ? [] : [`${at}: must be a valid regular expression`];
    case "uniqueItems":
      return typeof value === "boolean" ? [] : [`${at}: must be a boolean`];
    default:
      // Bounds: minLength, maximum, multipleOf …
      return typeof value === "number" && Number.isFinite(value) && (keyword !== "multipleOf" || value > 0)
        ? []
        : [`${at}: must be a ${keyword === "multipleOf" ? "positive " : ""}number`];
  }
}

function isValidPattern(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    new RegExp(value, "u");
    return true;
  } catch {
    return false;
  }
}

/** Checks `value` against a schema that passed {@link findUnsupportedSchemaParts}; empty when it matches. */
export function validateAgainstSchema(
  schema: JsonSchemaNode,
  value: unknown,
  path: Array<string | number> = [],
): SchemaIssue[] {
  if (schema === true) return [];
  if (schema === false) return [{ path, message: "no value is allowed here" }];
  const issue = (message: string): SchemaIssue[] => [{ path, message }];

  if (schema.type !== undefined) {
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]) as string[];
    if (!types.some((type) => hasType(value, type)))
      return issue(`expected ${types.join(" or ")}, got ${typeNameOf(value)}`);
  }
  const issues: SchemaIssue[] = [];
  if (Array.isArray(schema.enum) && !schema.enum.some((option) => deepEqual(option, value)))
    issues.push(...issue(`must be one of ${schema.enum.map((option) => JSON.stringify(option)).join(", ")}`));
  if ("const" in schema && !deepEqual(schema.const, value))
    issues.push(...issue(`must be ${JSON.stringify(schema.const)}`));
  if (typeof value === "string") issues.push(...stringIssues(schema, value, path));
  if (typeof value === "number") issues.push(...numberIssues(schema, value, path));
  if (Array.isArray(value)) issues.push(...arrayIssues(schema, value, path));
  else if (isPlainObject(value)) issues.push(...objectIssues(schema, value, path));
  issues.push(...combinationIssues(schema, value, path));
  return issues;
}

function stringIssues(
  schema: Record<string, unknown>,
  value: string,
  path: SchemaIssue["path"],
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const length = [...value].length;
  if (typeof schema.minLength === "number" && length < schema.minLength)
    issues.push({ path, message: `must be at least ${schema.minLength} characters long` });
  if (typeof schema.maxLength === "number" && length > schema.maxLength)
    issues.push({ path, message: `must be at most ${schema.maxLength} characters long` });
  if (typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value))
    issues.push({ path, message: `must match the pattern /${schema.pattern}/` });
  return issues;
}

function numberIssues(
  schema: Record<string, unknown>,
  value: number,
  path: SchemaIssue["path"],
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const bound = (keyword: string, fails: (limit: number) => boolean, words: string) => {
    const limit = schema[keyword];
    if (typeof limit === "number" && fails(limit))
      issues.push({ path, message: `must be ${words} ${limit}` });
  };
  bound("minimum", (limit) => value < limit, "at least");
  bound("maximum", (limit) => value > limit, "at most");
  bound("exclusiveMinimum", (limit) => value <= limit, "greater than");
  bound("exclusiveMaximum", (limit) => value >= limit, "less than");
  bound("multipleOf", (limit) => !Number.isInteger(Number((value / limit).toPrecision(12))), "a multiple of");
  return issues;
}

function arrayIssues(
  schema: Record<string, unknown>,
  value: unknown[],
  path: SchemaIssue["path"],
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  if (typeof schema.minItems === "number" && value.length < schema.minItems)
    issues.push({ path, message: `must have at least ${schema.minItems} items` });
  if (typeof schema.maxItems === "number" && value.length > schema.maxItems)
    issues.push({ path, message: `must have at most ${schema.maxItems} items` });
  if (schema.uniqueItems === true) {
    const duplicate = value.findIndex((item, index) =>
      value.slice(0, index).some((earlier) => deepEqual(earlier, item)),
    );
    if (duplicate >= 0) issues.push({ path: [...path, duplicate], message: "duplicates an earlier item" });
  }
  if (schema.items !== undefined)
    value.forEach((item, index) => {
      issues.push(...validateAgainstSchema(schema.items as JsonSchemaNode, item, [...path, index]));
    });
  return issues;
}

function objectIssues(
  schema: Record<string, unknown>,
  value: Record<string, unknown>,
  path: SchemaIssue["path"],
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchemaNode>;
  for (const name of (schema.required ?? []) as string[])
    if (!Object.hasOwn(value, name)) issues.push({ path: [...path, name], message: "is required" });
  const keys = Object.keys(value);
  if (typeof schema.minProperties === "number" && keys.length < schema.minProperties)
    issues.push({ path, message: `must have at least ${schema.minProperties} properties` });
  if (typeof schema.maxProperties === "number" && keys.length > schema.maxProperties)
    issues.push({ path, message: `must have at most ${schema.maxProperties} properties` });
  for (const key of keys) {
    if (Object.hasOwn(properties, key)) {
      issues.push(...validateAgainstSchema(properties[key]!, value[key], [...path, key]));
    } else if (schema.additionalProperties === false) {
      issues.push({ path: [...path, key], message: "is not an allowed property" });
    } else if (typeof schema.additionalProperties === "object" && schema.additionalProperties !== null) {
      issues.push(
        ...validateAgainstSchema(schema.additionalProperties as JsonSchemaNode, value[key], [...path, key]),
      );
    }
  }
  return issues;
}

function combinationIssues(
  schema: Record<string, unknown>,
  value: unknown,
  path: SchemaIssue["path"],
): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const matches = (child: JsonSchemaNode) => validateAgainstSchema(child, value, path).length === 0;
  if (Array.isArray(schema.allOf))
    for (const child of schema.allOf as JsonSchemaNode[])
      issues.push(...validateAgainstSchema(child, value, path));
  if (Array.isArray(schema.anyOf) && !(schema.anyOf as JsonSchemaNode[]).some(matches))
    issues.push({ path, message: "must match at least one of the anyOf schemas" });
  if (Array.isArray(schema.oneOf)) {
    const count = (schema.oneOf as JsonSchemaNode[]).filter(matches).length;
    if (count !== 1)
      issues.push({ path, message: `must match exactly one of the oneOf schemas (matched ${count})` });
  }
  if (schema.not !== undefined && matches(schema.not as JsonSchemaNode))
    issues.push({ path, message: "must not match the schema under not" });
  return issues;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "boolean":
      return typeof value === "boolean";
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "array":
      return Array.isArray(value);
    case "object":
      return isPlainObject(value);
    default:
      return false;
  }
}

function typeNameOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Structural equality of JSON values (key order ignored). */
function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => deepEqual(item, right[index]));
  }
  if (!isPlainObject(left) || !isPlainObject(right)) return false;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && deepEqual(left[key], right[key]));
}
