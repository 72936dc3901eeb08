// `ctx.tools.<name>(args)`: how a tool calls another tool of its session, typed by
// `TrailblazeToolMap`. The map is empty here; `trailblaze types` writes a trailblaze-client.d.ts
// that adds one entry per tool a session registers, so calls with wrong arguments fail `tsc`.
// Until then every name is allowed and results are `unknown`.

/** One tool of the map: its arguments and what `ctx.tools.<name>` resolves with. */
export interface TrailblazeToolEntry {
  args: unknown;
  result: unknown;
}

/**
 * Every tool a tool may call, by name. Augmented by the generated trailblaze-client.d.ts:
 *
 * ```ts
 * declare module "@trailblaze/scripting" {
 *   interface TrailblazeToolMap {
 *     inputText: { args: { text: string }; result: string };
 *   }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: declaration merging needs an interface.
export interface TrailblazeToolMap {}

type ArgsOf<E> = E extends { args: infer A } ? A : never;
type ResultOf<E> = E extends { result: infer R } ? R : never;

/** The method for one mapped tool: `args` may be left out when every argument is optional. */
type ToolMethod<E> = {} extends ArgsOf<E> ? (args?: ArgsOf<E>) => Promise<ResultOf<E>> : (args: ArgsOf<E>) => Promise<ResultOf<E>>;

/** `web_evaluate` also takes a script string, or a function (sent as a script) and its arguments. */
type WebEvaluateMethod<E> = ToolMethod<E> &
  ((script: string | ((...args: never[]) => unknown), ...args: unknown[]) => Promise<ResultOf<E>>);

/** A method per mapped tool; any name while the map is empty (no generated client yet). */
export type TrailblazeToolMethods = [keyof TrailblazeToolMap] extends [never]
  ? Record<string, (args?: Record<string, unknown>) => Promise<unknown>>
  : {
      [K in keyof TrailblazeToolMap]: K extends "web_evaluate" ? WebEvaluateMethod<TrailblazeToolMap[K]> : ToolMethod<TrailblazeToolMap[K]>;
    };

/** What a called tool answered, before `ctx.tools` unwraps it. */
export interface TrailblazeCallToolResult {
  success: boolean;
  /** The text content, blocks joined by newlines. */
  textContent: string;
  /** The failure's message; empty on success. */
  errorMessage: string;
  structuredContent?: unknown;
}

/** The object behind `ctx.tools`: a tool's way to call the others. */
export interface TrailblazeClient {
  tools: TrailblazeToolMethods;
}

/** Calls tool `name` and answers with its result (never rejects for a tool that failed). */
export type CallTool = (name: string, args: Record<string, unknown>) => Promise<TrailblazeCallToolResult>;

// Names a promise library or a serializer probes on any object; never tool names.
const NOT_TOOLS = new Set([
  "then",
  "catch",
  "finally",
  "constructor",
  "prototype",
  "__proto__",
  "toString",
  "valueOf",
  "toJSON",
  "inspect",
]);

/** A tool's failure as `ctx.tools` reports it. */
export function toolFailed(name: string, message: string): Error {
  return new Error(`ctx.tools.${name}: tool failed: ${message}`);
}

/** What `ctx.tools.<name>` resolves with: the structured result when there is one (not null or undefined), else the text. */
export function unwrapToolResult(result: TrailblazeCallToolResult): unknown {
  return result.structuredContent ?? result.textContent;
}

/**
 * `client.tools`: `tools.x(args)` calls `x` through `callTool` and resolves with its structured
 * result when it has one, else its text; a failed tool rejects with `tool failed: <message>`.
 * Reading a blank name (`tools[""]`) throws at once; names a promise library probes are undefined.
 * `web_evaluate` also takes a function (sent as a script) or a script string.
 */
export function createClient(callTool: CallTool): TrailblazeClient {
  const tools = new Proxy(
    {},
    {
      get(_target, name) {
        if (typeof name !== "string" || NOT_TOOLS.has(name)) return undefined;
        // Thrown where the name is read, so the error points at the line that wrote it.
        if (name.trim() === "") throw new TypeError(`ctx.tools[${JSON.stringify(name)}]: a tool name must not be empty or whitespace-only`);
        return async (first?: unknown, ...rest: unknown[]) => {
          const args = name === "web_evaluate" ? scriptArgs(first, rest) : ((first ?? {}) as Record<string, unknown>);
          const result = await callTool(name, args);
          if (!result.success) throw toolFailed(name, result.errorMessage);
          return unwrapToolResult(result);
        };
      },
    },
  );
  return { tools: tools as TrailblazeToolMethods };
}

function scriptArgs(first: unknown, rest: unknown[]): Record<string, unknown> {
  if (typeof first === "function") return { script: `(${first.toString()}).apply(null, ${JSON.stringify(rest)})` };
  if (typeof first === "string") return { script: first };
  if (typeof first === "object" && first !== null) return first as Record<string, unknown>;
  throw new TypeError(
    `ctx.tools.web_evaluate: pass a function, a script string or { script }; got ${first === null ? "null" : typeof first}`,
  );
}
