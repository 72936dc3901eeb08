// Trail parameters: `--arg NAME=VALUE` / `--args-file` values checked against `config.args`
// (declared, type, default, required), as upstream binds them per trail, and the lookup
// `{{args.NAME}}` and memory share.

import type { Lookup } from "../trail/interpolate.ts";
import type { Trail, TrailArg } from "../trail/trail-types.ts";
import type { Memory } from "../session/memory.ts";

const ARGS_PREFIX = "args.";

interface ResolvedArgs {
  /** Name → value of each declared arg: given (converted to the declared type), else the default. */
  values: Record<string, unknown>;
  /** Given args the trail does not declare (one message), then one message per missing required arg or value of the wrong type. */
  problems: string[];
}

/** The undeclared given args of a trail: upstream rejects them, naming what the trail declares. */
function undeclaredProblem(trail: Trail, given: Readonly<Record<string, string>>): string | undefined {
  const unknown = Object.keys(given)
    .filter((name) => !Object.hasOwn(trail.args, name))
    .sort();
  if (unknown.length === 0) return undefined;
  const declared = Object.keys(trail.args).sort();
  const names = unknown.map((name) => `"${name}"`).join(", ");
  return (
    `${unknown.length === 1 ? "arg" : "args"} ${names} not declared in this trail's config.args ` +
    `(${declared.length === 0 ? "it declares none" : `it declares ${declared.join(", ")}`}); declare ${unknown.length === 1 ? "it" : "them"} there, or leave ${unknown.length === 1 ? "it" : "them"} out of --arg and --args-file`
  );
}

function convert(name: string, arg: TrailArg, text: string): { value: unknown } | { problem: string } {
  const type = arg.type ?? "string";
  const wrong = (expected: string) => ({ problem: `--arg ${name}=${text}: config.args.${name} is ${expected}, got "${text}"` });
  switch (type) {
    case "integer":
      return /^[-+]?\d+$/.test(text.trim()) ? { value: Number(text) } : wrong("an integer");
    case "boolean": {
      const lower = text.trim().toLowerCase();
      return lower === "true" || lower === "false" ? { value: lower === "true" } : wrong("a boolean (true or false)");
    }
    case "array":
    case "object": {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return wrong(`${type === "array" ? "an array" : "an object"} (write it as JSON)`);
      }
      const ok = type === "array" ? Array.isArray(parsed) : typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
      return ok ? { value: parsed } : wrong(`${type === "array" ? "an array" : "an object"} (write it as JSON)`);
    }
    default:
      return { value: text };
  }
}

/** Checks `given` (`--args-file` then `--arg`, merged) against the trail's declared args. */
export function resolveTrailArgs(trail: Trail, given: Readonly<Record<string, string>>): ResolvedArgs {
  const values: Record<string, unknown> = {};
  const undeclared = undeclaredProblem(trail, given);
  const problems: string[] = undeclared === undefined ? [] : [undeclared];
  for (const [name, arg] of Object.entries(trail.args)) {
    const text = Object.hasOwn(given, name) ? given[name] : undefined;
    if (text !== undefined) {
      const converted = convert(name, arg, text);
      if ("problem" in converted) problems.push(converted.problem);
      else values[name] = converted.value;
    } else if ("default" in arg) {
      values[name] = arg.default;
    } else if (arg.required) {
      problems.push(
        `missing required arg "${name}" (declared in config.args${arg.description ? `: ${arg.description}` : ""}); pass --arg ${name}=VALUE`,
      );
    }
  }
  return { values, problems };
}

/** Interpolation lookup: `args.NAME` from the trail's args, everything else from memory (secrets included). */
export function trailLookup(memory: Memory, args: Readonly<Record<string, unknown>>): { lookup: Lookup; knownKeys: () => string[] } {
  return {
    lookup: (key) => {
      if (key.startsWith(ARGS_PREFIX)) {
        const name = key.slice(ARGS_PREFIX.length);
        if (Object.hasOwn(args, name)) return { found: true, value: args[name] };
      }
      return memory.lookup(key);
    },
    knownKeys: () => [...memory.keys(), ...Object.keys(args).map((name) => `${ARGS_PREFIX}${name}`)],
  };
}
