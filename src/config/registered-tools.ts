// Upstream's pure-JS tool form: a script that fills `globalThis.__trailblazeTools[name] = { spec,
// handler }` itself (no SDK, no exports, no build step). The names it registers are read from its
// text here, by their string-literal keys on `__trailblazeTools` or on a variable holding it
// (`const tools = (globalThis.__trailblazeTools = globalThis.__trailblazeTools || {});
// tools["x"] = {…}`); the generated server checks each registration again when the script runs.

/** The global a pure-JS tool script registers its tools on. */
export const REGISTRY_GLOBAL = "__trailblazeTools";

interface RegisteredName {
  name: string;
  /** Offset of the key (the quote, or the name after the dot) in the source. */
  index: number;
}

const IDENT = "[A-Za-z_$][\\w$]*";

/** Whether `source` mentions the registry at all (cheap pre-check before scanning). */
function mentionsRegistry(source: string): boolean {
  return source.includes(REGISTRY_GLOBAL);
}

/**
 * `source` with comments blanked out and the contents of strings and templates filled with `_`
 * (same length, so offsets stay): text inside them never looks like code.
 */
function skeleton(source: string): string {
  return source.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (match) =>
    match.startsWith("/") ? match.replace(/[^\n]/g, " ") : match[0] + match.slice(1, -1).replace(/[^\n]/g, "_") + match.at(-1),
  );
}

/**
 * The tools `source` registers on `globalThis.__trailblazeTools`, in source order, each once:
 * `__trailblazeTools["name"] = …`, `__trailblazeTools.name = …`, and the same through a
 * variable assigned from `__trailblazeTools`. A computed key (`tools[name] = …`) is not seen.
 */
export function registeredToolNames(source: string): RegisteredName[] {
  if (!mentionsRegistry(source)) return [];
  const text = skeleton(source);
  const holders = new Set([REGISTRY_GLOBAL]);
  const alias = new RegExp(
    `\\b(?:const|let|var)\\s+(${IDENT})\\s*=\\s*\\(?\\s*(?:(?:globalThis|self|window)\\s*\\.\\s*)?${REGISTRY_GLOBAL}\\b`,
    "g",
  );
  for (const match of text.matchAll(alias)) holders.add(match[1]!);
  const found: RegisteredName[] = [];
  const seen = new Set<string>();
  for (const holder of holders) {
    const escaped = holder.replace(/\$/g, "\\$");
    // A quoted key is read back from the source (the skeleton has `_` for its letters).
    const assignment = new RegExp(`(?<![\\w$])${escaped}\\s*(?:\\[\\s*(["'])(_+)\\1\\s*\\]|\\.\\s*(${IDENT}))\\s*=(?![=>])`, "g");
    for (const match of text.matchAll(assignment)) {
      const quoted = match[2] !== undefined;
      const index = match.index + (quoted ? match[0].indexOf(match[1]!) : match[0].lastIndexOf(match[3]!));
      // Tool names have no escapes to undo (letters, digits, _ and -).
      const name = quoted ? source.slice(index + 1, index + 1 + match[2]!.length) : match[3]!;
      if (seen.has(name)) continue;
      seen.add(name);
      found.push({ name, index });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}
