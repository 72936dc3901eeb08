// A tool composed in YAML (upstream's `<id>.tool.yaml` with a `tools:` list): calling it calls
// each listed tool in order, with `{{params.<name>}}` replaced by the caller's arguments. A token
// that is a whole string keeps the argument's JSON type; one inside a longer string is written
// into it as text. An optional parameter left out (or null) with no `default` drops the key or
// list item its whole-string token stands for, and is empty text inside a longer string.
//
// Pure: it runs in QuickJS like any per-file tool, calling the listed tools through ctx.tools.

import type { TrailblazeClient } from "./client.ts";

export interface ComposedParameter {
  name: string;
  required: boolean;
  /** Used when the caller leaves the parameter out (present even when it is null). */
  default?: unknown;
  hasDefault: boolean;
}

export interface ComposedDefinition {
  /** The tool's name (`id:`). */
  id: string;
  parameters: ComposedParameter[];
  /** One `{ toolName: args }` object per call, in order. */
  tools: Array<Record<string, unknown>>;
}

const OMIT = Symbol("omit");
const WHOLE_TOKEN = /^\{\{\s*([^{}]+?)\s*\}\}$/;
const TOKEN = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** What each declared parameter stands for in this call; throws for a missing required one. */
function resolveParameters(definition: ComposedDefinition, args: Record<string, unknown>): Map<string, unknown> {
  const values = new Map<string, unknown>();
  for (const parameter of definition.parameters) {
    const given = args[parameter.name];
    if (given !== undefined && given !== null) values.set(parameter.name, given);
    else if (parameter.required) throw new Error(`${definition.id}: missing required parameter ${parameter.name}`);
    else values.set(parameter.name, parameter.hasDefault ? parameter.default : OMIT);
  }
  return values;
}

function lookup(definition: ComposedDefinition, token: string, values: Map<string, unknown>): unknown {
  if (!token.startsWith("params.")) {
    throw new Error(`${definition.id}: {{${token}}} is not a parameter; a composed tool's calls can use {{params.<name>}} only`);
  }
  const name = token.slice("params.".length);
  if (!values.has(name)) throw new Error(`${definition.id}: {{${token}}} names no declared parameter; declare ${name} under parameters:`);
  return values.get(name);
}

function substitute(definition: ComposedDefinition, value: unknown, values: Map<string, unknown>): unknown {
  if (typeof value === "string") {
    const whole = WHOLE_TOKEN.exec(value);
    if (whole) return lookup(definition, whole[1]!, values);
    return value.replace(TOKEN, (_match, token: string) => {
      const found = lookup(definition, token, values);
      return found === OMIT ? "" : typeof found === "string" ? found : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => substitute(definition, item, values)).filter((item) => item !== OMIT);
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const substituted = substitute(definition, item, values);
      if (substituted !== OMIT) out[key] = substituted;
    }
    return out;
  }
  return value;
}

/** The calls `definition` makes for `args`: `[toolName, args]` pairs, parameters substituted. */
export function expandComposedTool(
  definition: ComposedDefinition,
  args: Record<string, unknown>,
): Array<[string, Record<string, unknown>]> {
  const values = resolveParameters(definition, args);
  return definition.tools.map((entry) => {
    const [name, callArgs] = Object.entries(entry)[0]!;
    const expanded = substitute(definition, callArgs ?? {}, values);
    return [name, expanded === OMIT || typeof expanded !== "object" || expanded === null ? {} : (expanded as Record<string, unknown>)];
  });
}

/** The handler serving `definition`: each call in order through the session; the first failure fails the tool, naming the call. */
export function composedTool(definition: ComposedDefinition) {
  return async (args: Record<string, unknown>, _ctx: unknown, client: TrailblazeClient): Promise<string> => {
    const tools = client.tools as Record<string, (args: Record<string, unknown>) => Promise<unknown>>;
    const calls = expandComposedTool(definition, args);
    for (const [index, [name, callArgs]] of calls.entries()) {
      try {
        await tools[name]!(callArgs);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(`${definition.id}: call ${index + 1} of ${calls.length} (${name}) failed: ${message}`, { cause: error });
      }
    }
    return `ran ${calls.map(([name]) => name).join(", ") || "nothing"}`;
  };
}
