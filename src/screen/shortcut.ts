// A shortcut (`*.shortcut.yaml`): `shortcut: {from, to}` between two waypoints and the recorded
// `tools` calls that take the app from one to the other.

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

export interface Shortcut {
  id: string;
  description?: string;
  from: string;
  to: string;
  tools: RecordedCall[];
  file: string;
  where: Where;
  yaml: YamlFile;
}

/** The call that moves the device: the shortcut's first tool that can change the screen (checks, waits and memory tools before it are not). */
export function actionOf(shortcut: Pick<Shortcut, "tools">): RecordedCall | undefined {
  return shortcut.tools.find((t) => !leavesScreenUnchanged(t.name));
}

/** Parses shortcut YAML; problems are pushed, and a shortcut is returned when it has id, from and to. */
export function parseShortcut(file: string, text: string, problems: ConfigProblem[]): Shortcut | undefined {
  const opened = parseMapFile(file, text, problems, "a shortcut: {id, shortcut: {from, to}, tools: […]}");
  if (!opened) return undefined;
  const { yaml, data } = opened;
  const before = problems.length;
  if (typeof data.id !== "string" || data.id === "") problems.push(problemAt(yaml, ["id"], data.id === undefined ? "parent" : "value", "expected the shortcut's id, a non-empty string", ["id"]));
  const edge = data.shortcut;
  if (!isPlainMap(edge)) {
    problems.push(problemAt(yaml, ["shortcut"], edge === undefined ? "parent" : "value", "expected {from: WAYPOINT_ID, to: WAYPOINT_ID}", ["shortcut"]));
  } else {
    for (const end of ["from", "to"] as const) {
      if (typeof edge[end] !== "string" || edge[end] === "") problems.push(problemAt(yaml, ["shortcut", end], edge[end] === undefined ? "parent" : "value", "expected a waypoint id", ["shortcut", end]));
    }
  }
  const tools: RecordedCall[] = [];
  if (!Array.isArray(data.tools) || data.tools.length === 0) {
    problems.push(problemAt(yaml, ["tools"], data.tools === undefined ? "parent" : "value", "expected a non-empty list of recorded tool calls (- toolName: {args})", ["tools"]));
  } else {
    data.tools.forEach((item, i) => {
      const keys = isPlainMap(item) ? Object.keys(item) : [];
      const args = keys.length === 1 ? (item as Record<string, unknown>)[keys[0]!] : undefined;
      if (keys.length !== 1 || !(args == null || isPlainMap(args))) {
        problems.push(problemAt(yaml, ["tools", i], "value", "expected one tool call: - toolName: {args}"));
        return;
      }
      tools.push({ name: keys[0]!, args: (args ?? {}) as Record<string, unknown>, where: locate(yaml, ["tools", i], "key"), path: ["tools", i] });
    });
  }
  if (problems.length > before) return undefined;
  const ends = edge as { from: string; to: string };
  const shortcut: Shortcut = { id: data.id as string, from: ends.from, to: ends.to, tools, file, where: locate(yaml, ["id"]), yaml };
  if (typeof data.description === "string") shortcut.description = data.description;
  return shortcut;
}
