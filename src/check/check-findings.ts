// What `trailblaze check` finds: each finding's kind and severity, where it is and which session
// met it, and the list they are gathered in (one finding per severity, kind and message).

import {
  BundleError,
  ConfigError,
  SessionStartError,
  ToolCollisionError,
  ToolNameError,
  formatProblem,
  type ConfigProblem,
} from "../errors.ts";

export type CheckKind =
  | "config" // a target, toolset or server entry is invalid (or a script is missing)
  | "trail" // a trail file does not parse, or names a target/driver that does not exist
  | "name" // a tool name breaks the wire rule (error) or the convention / length margin (warning)
  | "trailmap-scope" // [TrailmapScopingCheck]: target id or tool prefix (warning)
  | "collision" // two sources advertise one name
  | "toolset" // a toolset entry no server advertises; a tool_sets id no toolset defines; an excluded_tools entry no source advertises
  | "meta" // a wrong-typed _meta["trailblaze/*"] value
  | "trail-tool" // a trail calls a tool its session does not register
  | "trail-args" // a recorded call's arguments do not match its tool's input schema
  | "trail-step" // a step has no recording for its session (it needs an agent)
  | "bundle" // the server cannot run on-device
  | "waypoint" // a target's simulation.map: a waypoint's capture fails its own selectors, or the start is not in the map
  | "shortcut" // a target's simulation.map: a shortcut's first selector does not resolve on its `from` capture
  | "trailhead" // a target's simulation.map: a trailhead that does not parse or lands on an unknown waypoint
  | "session"; // a session could not start for another reason

export interface CheckFinding {
  severity: "error" | "warning";
  kind: CheckKind;
  /** One line (or a few, for a server's stderr tail), with its location first when it has one. */
  message: string;
  file?: string;
  line?: number;
  col?: number;
  /** The tool a `trail-tool` or `trail-args` finding is about. */
  tool?: string;
  /** The session it was found in: `<target> · <driver> · <agent>`. */
  session?: string;
}

/** The findings of one check, in the order they were found, each said once. */
export class Findings {
  readonly list: CheckFinding[] = [];
  readonly #seen = new Set<string>();

  add(finding: CheckFinding): void {
    const key = `${finding.severity}|${finding.kind}|${finding.message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.list.push(finding);
  }

  /** Some finding of any kind already says `message` (a server's start-up failure, met by its session first). */
  says(message: string): boolean {
    return this.list.some((finding) => finding.message === message);
  }

  problem(severity: CheckFinding["severity"], kind: CheckKind, problem: ConfigProblem, session?: string): void {
    this.add({
      severity,
      kind,
      message: formatProblem(problem),
      file: problem.file,
      ...(problem.line > 0 ? { line: problem.line, col: problem.col } : {}),
      ...(session ? { session } : {}),
    });
  }

  /** Why a session could not start, split into findings by kind. */
  error(error: unknown, session: string): void {
    if (error instanceof SessionStartError) {
      for (const inner of error.errors) this.error(inner, session);
    } else if (error instanceof ConfigError) {
      for (const problem of error.problems) this.problem("error", "config", problem, session);
    } else {
      const kind: CheckKind =
        error instanceof ToolCollisionError
          ? "collision"
          : error instanceof ToolNameError
            ? "name"
            : error instanceof BundleError
              ? "bundle" // the same message check-bundle gives: reported once
              : "session";
      this.add({ severity: "error", kind, message: error instanceof Error ? error.message : String(error), session });
    }
  }
}
