// The SDK Client checks a tool's structuredContent against its outputSchema with ajv. By default
// every Client builds an ajv instance, and every tools/list compiles a validator for each tool
// with an outputSchema, whether or not the tool is ever called; loading ajv is ~15 ms of a
// process's start, each compile one or more ms. This provider gives the Client the same
// validation, results and messages, but loads ajv and compiles a schema only when a result first
// needs checking against it, and once per process and schema. The precompiled CLI also swaps the
// SDK's own ajv provider for this one (src/cli/precompiled-cli.ts), so that nothing loads ajv
// before it is needed.
import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

/** Compiled validators kept per process, by schema text (the most kept; the oldest dropped first). */
const MAX_VALIDATORS = 500;

/** One ajv for the process (~8 ms to make, per Client before), and its validators by schema text: each schema compiles once per process, not per session. */
let ajv: AjvJsonSchemaValidator | undefined;
const compiled = new Map<string, JsonSchemaValidator<unknown>>();

function compiledValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (!validate) {
    // A require, not an import: the bundler keeps it, and ajv's evaluation, for this first use.
    const { AjvJsonSchemaValidator } =
      require("@modelcontextprotocol/sdk/validation/ajv") as typeof import("@modelcontextprotocol/sdk/validation/ajv");
    // One ajv answers a schema `$id` with the first schema it compiled under it: such a schema (another text) gets an ajv of its own.
    const provider = "$id" in schema ? new AjvJsonSchemaValidator() : (ajv ??= new AjvJsonSchemaValidator());
    // ajv caches by schema object: compile a copy of our own, so the sessions' objects are not kept.
    validate = provider.getValidator<unknown>(JSON.parse(text) as JsonSchemaType);
    compiled.set(text, validate);
    if (compiled.size > MAX_VALIDATORS) compiled.delete(compiled.keys().next().value!);
  }
  return validate as JsonSchemaValidator<T>;
}

export class LazyJsonSchemaValidator implements jsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validate: JsonSchemaValidator<T> | undefined;
    return (input) => {
      validate ??= compiledValidator<T>(schema);
      return validate(input);
    };
  }
}
