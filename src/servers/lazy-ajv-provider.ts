// What the precompiled CLI gives the SDK's Client and Server in place of their ajv provider
// (src/cli/precompiled-cli.ts): the same validation, with ajv loaded on first use.
export { LazyJsonSchemaValidator as AjvJsonSchemaValidator } from "./lazy-json-schema-validator.ts";
