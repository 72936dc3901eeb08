// Tool naming rules (design record "trailmap tool naming", Decision section):
// - the wire rule every LLM API and most MCP clients enforce: a hard error;
// - the lowerCamelCase convention and a 4-character margin under the wire limit: advisory;
// - trailmap scoping: a target's own tools are `<targetId>_<localName>`: advisory, tagged
//   [TrailmapScopingCheck]. Built-in (framework) tools keep their flat names.

/** What a tool name sent to an LLM or an MCP client must match. */
export const WIRE_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const WIRE_NAME_MAX = 64;
/** lowerCamelCase words joined by single underscores, e.g. `myapp_logInWithEmail`. */
export const NAME_CONVENTION = /^[a-z][a-zA-Z0-9]*(_[a-z][a-zA-Z0-9]*)*$/;
/** Names longer than this get a warning: a margin under the wire limit for later prefixes. */
const NAME_SOFT_MAX = 60;
/** Target (trailmap) ids are one lowerCamelCase token, so a name's first `_` is the boundary. */
export const TRAILMAP_ID = /^[a-z][a-zA-Z0-9]*$/;

export const SCOPING_TAG = "[TrailmapScopingCheck]";

/** Names starting with this are `trailblaze mcp`'s own control tools (`trailblaze_beginStep`, …); tools may not use it. */
export const RESERVED_PREFIX = "trailblaze_";

type NameRule = "wire" | "convention" | "length" | "reserved" | "trailmap-id" | "trailmap-scope";

export interface NameFinding {
  severity: "error" | "warning";
  rule: NameRule;
  /** The tool name, or the target id for `trailmap-id`. */
  name: string;
  message: string;
}

function describeChar(char: string): string {
  const code = char.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  if (char === " ") return `" " (space)`;
  return code < 0x20 || code === 0x7f ? hex : `"${char}"`;
}

/** Why `name` breaks the wire rule (offending characters, length), or undefined when it is legal. */
export function wireNameProblem(name: string): string | undefined {
  if (WIRE_NAME.test(name)) return undefined;
  if (name.length === 0) return `a tool name is empty; names must match ${WIRE_NAME.source}`;
  const faults: string[] = [];
  const bad = [...new Set([...name].filter((char) => !/[a-zA-Z0-9_-]/.test(char)))];
  if (bad.length > 0) faults.push(`contains ${bad.map(describeChar).join(", ")}`);
  if (name.length > WIRE_NAME_MAX) faults.push(`is ${name.length} characters long (at most ${WIRE_NAME_MAX})`);
  return (
    `tool name ${JSON.stringify(name)} ${faults.join(" and ")}: names sent to LLMs and MCP clients must match ` +
    `${WIRE_NAME.source}; rename the tool`
  );
}

/**
 * Splits a scoped name at its first underscore: `foo_bar_X` is trailmap `foo`, local name
 * `bar_X` (trailmap ids hold no underscore, so no other split is possible). Undefined for a
 * name with no underscore, or one that starts or ends with it.
 */
export function splitScopedName(name: string): { trailmap: string; local: string } | undefined {
  const at = name.indexOf("_");
  if (at <= 0 || at === name.length - 1) return undefined;
  return { trailmap: name.slice(0, at), local: name.slice(at + 1) };
}

/** The wire error, or the advisory warnings (convention, length) for one tool name. */
export function checkToolName(name: string): NameFinding[] {
  const wire = wireNameProblem(name);
  if (wire) return [{ severity: "error", rule: "wire", name, message: wire }];
  const findings: NameFinding[] = [];
  if (name.startsWith(RESERVED_PREFIX)) {
    findings.push({
      severity: "warning",
      rule: "reserved",
      name,
      message:
        `tool name ${JSON.stringify(name)} starts with "${RESERVED_PREFIX}", the prefix of trailblaze mcp's control tools ` +
        `(trailblaze_beginStep, trailblaze_nextStep, …); a recording session refuses to start beside a tool of the same name, so rename it`,
    });
  }
  if (!NAME_CONVENTION.test(name)) {
    findings.push({
      severity: "warning",
      rule: "convention",
      name,
      message:
        `tool name ${JSON.stringify(name)} does not follow the naming convention ${NAME_CONVENTION.source} ` +
        `(lowerCamelCase words joined by single underscores, e.g. myapp_logInWithEmail)`,
    });
  }
  if (name.length > NAME_SOFT_MAX) {
    const local = splitScopedName(name)?.local;
    const shorten = local ? `shorten the local half "${local}"` : "shorten it";
    findings.push({
      severity: "warning",
      rule: "length",
      name,
      message: `tool name ${JSON.stringify(name)} is ${name.length} characters long, close to the ${WIRE_NAME_MAX}-character wire limit; ${shorten} to at most ${NAME_SOFT_MAX} characters`,
    });
  }
  return findings;
}

/** The advisory warning for a target id that cannot prefix tool names, or undefined. */
export function trailmapIdFinding(targetId: string): NameFinding | undefined {
  if (TRAILMAP_ID.test(targetId)) return undefined;
  return {
    severity: "warning",
    rule: "trailmap-id",
    name: targetId,
    message:
      `target id "${targetId}" does not match ${TRAILMAP_ID.source}: ids are one lowerCamelCase word ` +
      `(no "_" or "-") so that <targetId>_<localName> tool names split at their first underscore (advisory)`,
  };
}

/**
 * The advisory warning for the tools a target's own server serves that are not named
 * `<targetId>_<localName>`, one finding per server; undefined when all are scoped.
 */
export function scopingFinding(targetId: string, toolNames: readonly string[]): NameFinding | undefined {
  const prefix = `${targetId}_`;
  const unscoped = toolNames.filter((name) => !name.startsWith(prefix) || name.length === prefix.length);
  if (unscoped.length === 0) return undefined;
  return {
    severity: "warning",
    rule: "trailmap-scope",
    name: unscoped.join(", "),
    message:
      `tools of target ${targetId} not named ${prefix}<localName>: ${unscoped.join(", ")}; ` +
      `rename them (e.g. ${prefix}${unscoped[0]}) so the name says which target owns the tool (advisory)`,
  };
}

/** One line: `[TrailmapScopingCheck] <source>: <message>` for scoping findings, `<source>: <message>` otherwise. */
export function formatNameFinding(finding: NameFinding, source?: string): string {
  const tag = finding.rule === "trailmap-id" || finding.rule === "trailmap-scope" ? `${SCOPING_TAG} ` : "";
  return `${tag}${source ? `${source}: ` : ""}${finding.message}`;
}

const warned = new Set<string>();

/**
 * True the first time `key` is seen in this process: advisory warnings are printed once per
 * `<targetId>@<source file>` (or tool and source), however many sessions a run starts.
 */
export function firstWarning(key: string): boolean {
  if (warned.has(key)) return false;
  warned.add(key);
  return true;
}
