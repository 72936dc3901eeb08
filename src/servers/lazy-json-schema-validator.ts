// The SDK Client checks a tool's structuredContent against its outputSchema with ajv. By default
// every Client builds an ajv instance, and every tools/list compiles a validator for each tool
// with an outputSchema, whether or not the tool is ever called; loading ajv is ~15 ms of a
// process's start, each compile one or more ms. This provider gives the Client the same
// validation, results and messages, but loads ajv and compiles a schema only when a result first
// needs checking against it. The precompiled CLI also swaps the SDK's own ajv provider for this
// one (src/cli/precompiled-cli.ts), so that nothing loads ajv before it is needed.
import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

export class LazyJsonSchemaValidator implements jsonSchemaValidator {
  #ajv: AjvJsonSchemaValidator | undefined;

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    let validate: JsonSchemaValidator<T> | undefined;
    return (input) => {
      validate ??= this.#provider().getValidator<T>(schema);
      return validate(input);
    };
  }

  #provider(): AjvJsonSchemaValidator {
    // A require, not an import: the bundler keeps it, and ajv's evaluation, for this first use.
    this.#ajv ??= new (require("@modelcontextprotocol/sdk/validation/ajv") as typeof import("@modelcontextprotocol/sdk/validation/ajv")).AjvJsonSchemaValidator();
    return this.#ajv;
  }
}
