// Upstream's pure-JS tool form: a script that fills `globalThis.__trailblazeTools[name] = { spec,
// handler }` itself (no SDK, no exports, no build step). The names it registers are read from its
// text here, by their string-literal keys on `__trailblazeTools` or on a variable holding it
// (`const tools = (globalThis.__trailblazeTools = globalThis.__trailblazeTools || {});
// tools["x"] = {…}`); the generated server checks each registration again when the script runs.

/** The global a pure-JS tool script registers its tools on. */
export const REGISTRY_GLOBAL = "__trailblazeTools";

export interface RegisteredName {
  name: string;
  /** Offset of the key (the quote, or the name after the dot) in the source. */
  index: number;
}

const IDENT = "[A-Za-z_$][\\w$]*";

/** Whether `source` mentions the registry at all (cheap pre-check before scanning). */
export function mentionsRegistry(source: string): boolean {
  return source.includes(REGISTRY_GLOBAL);
}

/** `source` with comments blanked out (same length, so offsets stay), strings and templates kept. */
function withoutComments(source: string): string {
  return source.replace(/("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (match, literal: string | undefined) =>
    literal !== undefined ? match : match.replace(/[^\n]/g, " "),
  );
}

/**
 * The tools `source` registers on `globalThis.__trailblazeTools`, in source order, each once:
 * `__trailblazeTools["name"] = …`, `__trailblazeTools.name = …`, and the same through a
 * variable assigned from `__trailblazeTools`. A computed key (`tools[name] = …`) is not seen.
 */
export function registeredToolNames(source: string): RegisteredName[] {
  if (!mentionsRegistry(source)) return [];
  const text = withoutComments(source);
  const holders = new Set([REGISTRY_GLOBAL]);
  const alias = new RegExp(`\\b(?:const|let|var)\\s+(${IDENT})\\s*=\\s*\\(?\\s*(?:(?:globalThis|self|window)\\s*\\.\\s*)?${REGISTRY_GLOBAL}\\b`, "g");
  for (const match of text.matchAll(alias)) holders.add(match[1]!);
  const found: RegisteredName[] = [];
  const seen = new Set<string>();
  for (const holder of holders) {
    const escaped = holder.replace(/\$/g, "\\$");
    const assignment = new RegExp(
      `(?<![\\w$])${escaped}\\s*(?:\\[\\s*(?:"((?:[^"\\\\\\n]|\\\\.)+)"|'((?:[^'\\\\\\n]|\\\\.)+)')\\s*\\]|\\.\\s*(${IDENT}))\\s*=(?![=>])`,
      "g",
    );
    for (const match of text.matchAll(assignment)) {
      const name = match[1] ?? match[2] ?? match[3]!;
      if (seen.has(name)) continue;
      seen.add(name);
      const keyAt = match.index + match[0].search(/["'.]/) + (match[3] !== undefined ? match[0].slice(match[0].search(/\./) + 1).search(/\S/) + 1 : 0);
      found.push({ name, index: keyAt });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}
