// Stands in for the MCP SDK's ajv-provider.js in on-device bundles. The SDK uses it only to check
// an elicitation reply against the requested schema, which MCP restricts to a flat object of
// primitive fields; this validator covers that subset instead of carrying ajv (~220 KB).
import type { JsonSchemaType, JsonSchemaValidator, JsonSchemaValidatorResult } from "@modelcontextprotocol/sdk/validation/types.js";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  oneOf?: Schema[];
  anyOf?: Schema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};

function typeOk(type: string, value: unknown): boolean {
  switch (type) {
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "array":
      return Array.isArray(value);
    case "integer":
      return Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "null":
      return value === null;
    default:
      return typeof value === type;
  }
}

function check(schema: Schema, value: unknown, at: string, errors: string[]): void {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 0 && !types.some((t) => typeOk(t, value))) {
    errors.push(`${at} must be ${types.join(",")}`);
    return;
  }
  if (schema.const !== undefined && value !== schema.const) errors.push(`${at} must be equal to constant`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${at} must be equal to one of the allowed values`);
  const choices = schema.oneOf ?? schema.anyOf;
  if (
    choices &&
    !choices.some((c) => {
      const e: string[] = [];
      check(c, value, at, e);
      return e.length === 0;
    })
  ) {
    errors.push(`${at} must match a schema in ${schema.oneOf ? "oneOf" : "anyOf"}`);
  }
  if (typeof value === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength)
      errors.push(`${at} must NOT have fewer than ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && value.length > schema.maxLength)
      errors.push(`${at} must NOT have more than ${schema.maxLength} characters`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at} must be >= ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at} must be <= ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors.push(`${at} must NOT have fewer than ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      errors.push(`${at} must NOT have more than ${schema.maxItems} items`);
    if (schema.items) value.forEach((item, i) => check(schema.items!, item, `${at}/${i}`, errors));
  }
  if (typeOk("object", value)) {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      if (!(key in record)) errors.push(`${at} must have required property '${key}'`);
    }
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (key in record) check(sub, record[key], `${at}/${key}`, errors);
    }
  }
}

export class AjvJsonSchemaValidator {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (input: unknown): JsonSchemaValidatorResult<T> => {
      const errors: string[] = [];
      check(schema as Schema, input, "data", errors);
      return errors.length === 0
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: errors.join(", ") };
    };
  }
}
