/**
 * The fields of an MCP server's form question (elicitation), read from its requested schema — a
 * flat JSON Schema object of primitive fields (the spec's `PrimitiveSchemaDefinition`: string,
 * number, integer, boolean, a choice, a list of choices). Pure, no imports: the studio's answer
 * check (`input-content.ts`) and the page's form (`page/question-form.ts`) read it the same way.
 * @module
 */

/** A field of a form question, as the requested schema describes it (the spec's primitive schemas). */
export interface FieldSchema {
  type?: unknown;
  title?: unknown;
  description?: unknown;
  enumNames?: unknown;
  enum?: unknown;
  oneOf?: unknown;
  anyOf?: unknown;
  items?: unknown;
  minLength?: unknown;
  maxLength?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  minItems?: unknown;
  maxItems?: unknown;
  format?: unknown;
  default?: unknown;
}

/** The fields of a form question's requested schema, by name, and which are required. */
export function formFields(requestedSchema: unknown): {
  fields: Record<string, FieldSchema>;
  required: string[];
} {
  const schema = isObject(requestedSchema) ? requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const fields: Record<string, FieldSchema> = {};
  for (const [name, field] of Object.entries(properties)) fields[name] = isObject(field) ? field : {};
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === "string")
    : [];
  return { fields, required };
}

/**
 * The values a field may take when it is a choice: `enum`, or the `const`s of a titled `oneOf` /
 * `anyOf`; `undefined` for a field that is not a choice.
 */
export function choicesOf(field: FieldSchema): string[] | undefined {
  if (Array.isArray(field.enum)) return field.enum.filter((item): item is string => typeof item === "string");
  const titled = Array.isArray(field.oneOf)
    ? field.oneOf
    : Array.isArray(field.anyOf)
      ? field.anyOf
      : undefined;
  if (!titled) return undefined;
  return titled
    .map((option) => (isObject(option) ? option.const : undefined))
    .filter((item): item is string => typeof item === "string");
}

/** Whether `value` is a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
