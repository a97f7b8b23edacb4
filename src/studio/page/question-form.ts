/**
 * The form of an MCP server's form question (elicitation), built from its requested schema: a text
 * field, a number, a checkbox, a list to choose from or several choices — each with its title,
 * description, default and required mark — and the content read back from it. Everything the
 * server wrote (titles, descriptions, choices) enters the page as text or attribute values.
 * @module
 */
import { choicesOf, formFields } from "../form-schema";
import { el } from "./dom";

/**
 * A question an MCP server asked, waiting for an answer, as the API lists it (the SDK's
 * `PendingInput`; the page imports no SDK code).
 */
export interface PendingQuestion {
  id: string;
  server: string;
  message: string;
  mode: "form" | "url";
  requestedSchema?: unknown;
  url?: string;
  /** The subagent whose call asked, when a subagent's own MCP call did. */
  agent?: string;
  parent_tool_use_id?: string;
}

/** A question's form and how to read its answer. */
export interface QuestionForm {
  element: HTMLFormElement;
  /** The content the form holds, or what is wrong with it (a required field left empty, a bad number). */
  read(): { content: Record<string, unknown> } | { problem: string };
  /** Disables every field (once answered). */
  disable(): void;
}

type Field = Record<string, unknown>;
type Reader = () => { value?: unknown; problem?: string };

/** The form of `input`'s requested schema. */
export function questionForm(input: PendingQuestion): QuestionForm {
  const { fields, required } = formFields(input.requestedSchema);
  const form = el("form", { class: "question-form" });
  form.addEventListener("submit", (event) => event.preventDefault());
  const readers: Array<[string, Reader]> = [];
  for (const [name, field] of Object.entries(fields)) {
    const isRequired = required.includes(name);
    const [control, reader] = controlOf(name, field as Field, isRequired);
    const title = typeof field.title === "string" && field.title ? (field.title as string) : name;
    const label = el(
      "label",
      { class: "field", "data-field": name },
      el(
        "span",
        { class: "field-title" },
        title,
        isRequired ? el("span", { class: "required", title: "required", text: " *" }) : null,
      ),
      control,
    );
    const description = (field as Field).description;
    if (typeof description === "string" && description)
      label.append(el("small", { class: "muted field-description", text: description }));
    form.append(label);
    readers.push([name, reader]);
  }
  return {
    element: form,
    read() {
      const content: Record<string, unknown> = {};
      for (const [name, reader] of readers) {
        const { value, problem } = reader();
        if (problem) return { problem: `${name}: ${problem}` };
        if (value !== undefined) content[name] = value;
      }
      return { content };
    },
    disable() {
      for (const control of form.querySelectorAll("input, select"))
        (control as HTMLInputElement).disabled = true;
    },
  };
}

/** The control of one field and its reader: the value (`undefined`: left out, the server's default applies). */
function controlOf(name: string, field: Field, required: boolean): [HTMLElement, Reader] {
  const choices = choicesOf(field);
  if (field.type === "array") return choiceListOf(name, field);
  if (choices) return selectOf(name, field, choices, required);
  if (field.type === "boolean") {
    const box = el("input", { type: "checkbox", name });
    box.checked = field.default === true;
    return [box, () => ({ value: box.checked })];
  }
  if (field.type === "number" || field.type === "integer") {
    const input = el("input", { type: "number", name, step: field.type === "integer" ? "1" : "any" });
    if (typeof field.minimum === "number") input.min = String(field.minimum);
    if (typeof field.maximum === "number") input.max = String(field.maximum);
    if (typeof field.default === "number") input.value = String(field.default);
    input.required = required;
    return [
      input,
      () => {
        if (input.value === "") return required ? { problem: "required" } : {};
        const value = Number(input.value);
        return Number.isFinite(value) ? { value } : { problem: "not a number" };
      },
    ];
  }
  const input = el("input", { type: inputType(field.format), name });
  if (typeof field.maxLength === "number") input.maxLength = field.maxLength;
  if (typeof field.default === "string") input.value = field.default;
  input.required = required;
  return [
    input,
    () => (input.value === "" ? (required ? { problem: "required" } : {}) : { value: input.value }),
  ];
}

/** A list to choose one value from; an optional field starts with an empty choice. */
function selectOf(name: string, field: Field, choices: string[], required: boolean): [HTMLElement, Reader] {
  const select = el("select", { name });
  if (!required) select.append(el("option", { value: "", text: "—" }));
  const titles = titlesOf(field, choices);
  choices.forEach((choice, index) => {
    select.append(el("option", { value: choice, text: titles[index] ?? choice }));
  });
  select.value = typeof field.default === "string" && choices.includes(field.default) ? field.default : "";
  if (required && select.value === "") select.selectedIndex = -1;
  return [
    select,
    () => (select.value === "" ? (required ? { problem: "required" } : {}) : { value: select.value }),
  ];
}

/** Several choices (an array of choices): one checkbox each. */
function choiceListOf(name: string, field: Field): [HTMLElement, Reader] {
  const items = (typeof field.items === "object" && field.items !== null ? field.items : {}) as Field;
  const choices = choicesOf(items) ?? [];
  const titles = titlesOf(items, choices);
  const defaults = Array.isArray(field.default) ? field.default : [];
  const boxes = choices.map((choice) => {
    const box = el("input", { type: "checkbox", name, value: choice });
    box.checked = defaults.includes(choice);
    return box;
  });
  const group = el(
    "span",
    { class: "choices" },
    ...boxes.map((box, index) => el("label", {}, box, titles[index] ?? choices[index]!)),
  );
  return [group, () => ({ value: boxes.filter((box) => box.checked).map((box) => box.value) })];
}

/** The titles of the choices: a titled `oneOf` / `anyOf`'s, or the older `enumNames`. */
function titlesOf(field: Field, choices: string[]): Array<string | undefined> {
  const titled = Array.isArray(field.oneOf)
    ? field.oneOf
    : Array.isArray(field.anyOf)
      ? field.anyOf
      : undefined;
  if (titled) {
    const byValue = new Map<unknown, unknown>(
      titled.map((option) => [(option as Field)?.const, (option as Field)?.title]),
    );
    return choices.map((choice) => {
      const title = byValue.get(choice);
      return typeof title === "string" ? title : undefined;
    });
  }
  const names = Array.isArray(field.enumNames) ? field.enumNames : [];
  return choices.map((_, index) => (typeof names[index] === "string" ? names[index] : undefined));
}

/** The input type of a string format (`date-time` stays text: the spec's form has a zone). */
function inputType(format: unknown): string {
  if (format === "email") return "email";
  if (format === "uri") return "url";
  if (format === "date") return "date";
  return "text";
}
