// A shortcut (`*.shortcut.yaml`): `shortcut: {from, to}` between two waypoints and the recorded
// `tools` calls that take the app from one to the other; a trailhead (`*.trailhead.yaml`):
// `trailhead: {to}` and the calls that bring the app there from any state. Both may declare
// `parameters:` (name, type, required, default, description) their calls use as {{params.<name>}}.

import type { ConfigProblem } from "../errors.ts";
import { leavesScreenUnchanged } from "../core/builtin-tools.ts";
import { locate, problemAt, type Where, type YamlFile } from "../core/yaml-file.ts";
import { isPlainMap } from "../core/describe.ts";
import { parseMapFile } from "./yaml-selector.ts";

export interface RecordedCall {
  name: string;
  args: Record<string, unknown>;
  where: Where;
  /** Path of the call in its file, e.g. `["tools", 0]`, for locating its fields. */
  path: (string | number)[];
}

/** A declared parameter (shaped like scripting/composed-tool's ComposedParameter). */
export interface NavigationParameter {
  name: string;
  type: string;
  required: boolean;
  hasDefault: boolean;
  default?: unknown;
  description?: string;
}

export interface Shortcut {
  id: string;
  description?: string;
  from: string;
  to: string;
  tools: RecordedCall[];
  parameters: NavigationParameter[];
  file: string;
  where: Where;
  yaml: YamlFile;
}

/** The call that moves the device: the shortcut's first tool that can change the screen (checks, waits and memory tools before it are not). */
export function actionOf(shortcut: Pick<Shortcut, "tools">): RecordedCall | undefined {
  return shortcut.tools.find((t) => !leavesScreenUnchanged(t.name));
}

/** A trailhead: no `from`; `tools` is empty for upstream's metadata-only form (it marks a tool registered elsewhere). */
export type Trailhead = Omit<Shortcut, "from">;

const PARAMETER_TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);

function parseParameters(yaml: YamlFile, raw: unknown, problems: ConfigProblem[]): NavigationParameter[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push(
      problemAt(yaml, ["parameters"], "value", "expected a list of parameters (- name: x, type: string, required: true)", ["parameters"]),
    );
    return [];
  }
  const out: NavigationParameter[] = [];
  raw.forEach((item, i) => {
    if (!isPlainMap(item) || typeof item.name !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(item.name)) {
      problems.push(
        problemAt(
          yaml,
          ["parameters", i],
          "value",
          "expected a parameter with name: (letters, digits and _), and optionally type, required, default, description",
        ),
      );
      return;
    }
    const type = item.type === undefined ? "string" : item.type;
    if (typeof type !== "string" || !PARAMETER_TYPES.has(type)) {
      problems.push(
        problemAt(yaml, ["parameters", i, "type"], "value", `expected one of ${[...PARAMETER_TYPES].join(", ")}`, [
          "parameters",
          i,
          "type",
        ]),
      );
      return;
    }
    const hasDefault = "default" in item;
    out.push({
      name: item.name,
      type,
      // Upstream: required unless it says otherwise or gives a default.
      required: item.required === undefined ? !hasDefault : item.required === true,
      hasDefault,
      ...(hasDefault ? { default: item.default } : {}),
      ...(typeof item.description === "string" ? { description: item.description } : {}),
    });
  });
  return out;
}

/** Parses shortcut YAML; problems are pushed, and a shortcut is returned when it has id, from and to. */
export function parseShortcut(file: string, text: string, problems: ConfigProblem[]): Shortcut | undefined {
  return parseNavigation(file, text, problems, "shortcut") as Shortcut | undefined;
}

/** Parses trailhead YAML (`trailhead: {to}`); its `tools:` may be absent (upstream's metadata-only form). */
export function parseTrailhead(file: string, text: string, problems: ConfigProblem[]): Trailhead | undefined {
  return parseNavigation(file, text, problems, "trailhead");
}

function parseNavigation(
  file: string,
  text: string,
  problems: ConfigProblem[],
  kind: "shortcut" | "trailhead",
): Shortcut | Trailhead | undefined {
  const ends = kind === "shortcut" ? (["from", "to"] as const) : (["to"] as const);
  const header = kind === "shortcut" ? "{from: WAYPOINT_ID, to: WAYPOINT_ID}" : "{to: WAYPOINT_ID}";
  const opened = parseMapFile(file, text, problems, `a ${kind}: {id, ${kind}: ${header}, tools: […]}`);
  if (!opened) return undefined;
  const { yaml, data } = opened;
  const before = problems.length;
  if (typeof data.id !== "string" || data.id === "")
    problems.push(
      problemAt(yaml, ["id"], data.id === undefined ? "parent" : "value", `expected the ${kind}'s id, a non-empty string`, ["id"]),
    );
  const edge = data[kind];
  if (!isPlainMap(edge)) {
    problems.push(problemAt(yaml, [kind], edge === undefined ? "parent" : "value", `expected ${header}`, [kind]));
  } else {
    for (const end of ends) {
      if (typeof edge[end] !== "string" || edge[end] === "")
        problems.push(problemAt(yaml, [kind, end], edge[end] === undefined ? "parent" : "value", "expected a waypoint id", [kind, end]));
    }
  }
  const parameters = parseParameters(yaml, data.parameters, problems);
  const tools: RecordedCall[] = [];
  if (kind === "trailhead" && data.tools === undefined) {
    // Upstream's metadata-only trailhead: it marks a tool registered elsewhere.
  } else if (!Array.isArray(data.tools) || data.tools.length === 0) {
    problems.push(
      problemAt(
        yaml,
        ["tools"],
        data.tools === undefined ? "parent" : "value",
        "expected a non-empty list of recorded tool calls (- toolName: {args})",
        ["tools"],
      ),
    );
  } else {
    data.tools.forEach((item, i) => {
      const keys = isPlainMap(item) ? Object.keys(item) : [];
      const args = keys.length === 1 ? (item as Record<string, unknown>)[keys[0]!] : undefined;
      if (keys.length !== 1 || !(args == null || isPlainMap(args))) {
        problems.push(problemAt(yaml, ["tools", i], "value", "expected one tool call: - toolName: {args}"));
        return;
      }
      tools.push({
        name: keys[0]!,
        args: (args ?? {}) as Record<string, unknown>,
        where: locate(yaml, ["tools", i], "key"),
        path: ["tools", i],
      });
    });
  }
  if (problems.length > before) return undefined;
  const at = edge as { from?: string; to: string };
  const parsed: Trailhead = { id: data.id as string, to: at.to, tools, parameters, file, where: locate(yaml, ["id"]), yaml };
  if (typeof data.description === "string") parsed.description = data.description;
  return kind === "shortcut" ? { ...parsed, from: at.from! } : parsed;
}
