// How an expected type reads in a zod issue's message ("expected a list, got …"), for the capture
// and report readers; the value an issue points at is describe.ts's valueAt.

/** A zod type name as a message says it. */
export const TYPE_ARTICLE: Readonly<Record<string, string>> = {
  number: "a number",
  string: "a string",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  int: "an integer",
};
