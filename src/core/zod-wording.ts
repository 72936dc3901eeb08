// Shared words for zod issues in this project's messages: the value an issue points at, and how an
// expected type reads ("expected a list, got …"). Used by the capture and report readers.

/** The value at `path` (a zod issue's) in `root`, or undefined where the path leads nowhere. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/** A zod type name as a message says it. */
export const TYPE_ARTICLE: Readonly<Record<string, string>> = {
  number: "a number",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  int: "an integer",
};
