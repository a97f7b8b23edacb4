/**
 * How people ask for what a tool does without its words: letting someone do a thing (let Tom edit
 * → share), questions about a thing's state or people (who's coming → attendees), and the outcome
 * wanted rather than the action (from now on → a rule; don't page anyone → silence paging).
 * Part of the default vocabulary of client-side tool search (see tool-vocabulary.ts, which puts the
 * parts together in order: a key of a later part stands in place of the same key of an earlier one).
 * @module
 */

/** Words or phrases (keys) and the tool words each stands for. */
type Vocabulary = Readonly<Record<string, readonly string[]>>;

/** How people ask for what a tool does without its words. */
export function everydayAsking(): Readonly<Record<string, readonly string[]>> {
  return {
    ...askingToLet(),
  };
}

/** Letting someone do a thing is giving them access (`let … know` is a message: tool-vocabulary.ts). */
function askingToLet(): Vocabulary {
  return {
    "let edit": ["share", "access"],
    "let view": ["share", "access"],
    "let see": ["share", "access"],
    "let read": ["share", "access"],
    "let comment": ["share", "access"],
  };
}
