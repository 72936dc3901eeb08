// `trailblaze check`: find what would break a run before running anything.

import { resolve } from "node:path";
import { resolveCheckScope } from "../../check/check-scope.ts";
import type { CheckFinding } from "../../check/check-findings.ts";
import { checkWorkspace, type CheckedTrailmap, type CheckReport } from "../../check/check-workspace.ts";
import { findConfigDir } from "../../config/workspace.ts";
import { parseAgent } from "../../session/session-spec.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { configAbovePaths, startSession } from "../open-session.ts";
import { terminalText } from "../../core/terminal-text.ts";

const HELP = `Usage: trailblaze check [trail-file|dir]... [--config DIR] [--target ID] [--agent host|on-device] [--strict] [--json]
       trailblaze check [<trailmap-id> | --all] [--workspace DIR] [...]

Checks a workspace in one pass without running a step: loads every target, toolset and trail,
starts each target's servers once for every driver and agent mode its trails use, and in each
agent mode the target can run in (on-device when it has a script not marked requiresHost; on-device
servers run in QuickJS), and reports:
  - configuration errors (with file:line:col), the llm: block's included, and trail files that
    do not parse;
  - tool names that break the wire rule ^[a-zA-Z0-9_-]{1,64}$ (errors), the naming convention
    or the 60-character margin (warnings), and [TrailmapScopingCheck] warnings;
  - tool name collisions between servers and built-in tools;
  - toolset entries that no server advertises, and target tool_sets ids no toolset defines;
  - trail steps calling tools their session does not register (unknown, filtered, or
    host-only in an on-device session), and steps with no recording for their session (with
    the model run would give them to, from llm: and $TRAILBLAZE_DEFAULT_MODEL, or why none);
  - on-device servers that fail check-bundle;
  - for a target with a simulated screen (simulation: in its YAML): a capture that does not
    load, an app map's waypoints whose capture misses their own selectors, shortcuts whose
    first selector does not resolve on their from-waypoint's capture, and trailheads that
    land on no waypoint of the map (kinds waypoint, shortcut, trailhead).
Every server is stopped before the report is printed. Trails default to every trail file
(trail.yaml, *.trail.yaml, blaze.yaml, trailblaze.yaml) under the config folder's parent (the
workspace root, or trails/ in upstream's layout).

In upstream's layout, as upstream's check takes it: <trailmap-id> (a folder of
trails/config/trailmaps/) checks that trailmap only: the target it makes (for a library, the
targets that depend on it) and the trails that run on it. Run from inside a trailmap's folder,
check checks that trailmap; --all checks every trailmap from there too. A positional that
names a trailmap is one (write ./NAME for a folder of that name); any other is a trail file
or folder. Outside any workspace, <trailmap-id> is looked for in examples/*/ below the
working directory.

Options:
  --workspace DIR       the workspace root (the folder holding trails/ or trailblaze-config/),
                        or its config folder (trails/config/); instead of --config
  --all                 every trailmap, even from inside one (not with <trailmap-id>)
  --config DIR          config folder: trailblaze-config/, or upstream's trails/config/ holding
                        trailblaze.yaml (default: $TRAILBLAZE_CONFIG_DIR, else the nearest
                        one above the working directory)
  --target ID           check only this target, with every trail run against it
  --agent MODE          check only host or on-device sessions (every trail runs in that mode)
  --strict              count warnings as errors
  --json                print one JSON document: {ok, configDir, trailmap?: {id, from, targets,
                        library}, targets, toolsets, trails, sessions, findings: [{severity,
                        kind, message, file?, line?, col?, tool?, session?}], summary: {errors,
                        warnings}}
  --logs DIR            keep the sessions' logs in DIR (default: a temporary folder, removed)
  --no-typecheck        accepted for upstream's scripts: this check runs no tsc pass
  -h, --help            show this help

Exit codes: 0 no errors (warnings alone are fine unless --strict) · 1 any error found ·
2 usage error, no config folder, or an unknown trailmap.`;

function formatFinding(finding: CheckFinding): string {
  const mark = finding.severity === "error" ? "✗ error  " : "! warning";
  const session = finding.session ? ` (${finding.session})` : "";
  return `${mark} [${finding.kind}] ${finding.message.replace(/\n/g, "\n    ")}${session}\n`;
}

function formatScope(trailmap: CheckedTrailmap): string {
  const targets =
    trailmap.targets.length === 0
      ? "no target"
      : trailmap.library
        ? `a library; the targets that depend on it: ${trailmap.targets.join(", ")}`
        : `target ${trailmap.targets.join(", ")}`;
  const why = trailmap.from === "cwd" ? ", the one the working directory is in; --all checks every trailmap" : "";
  return `  scope: trailmap ${trailmap.id} (${targets})${why}\n`;
}

function formatCheckReport(report: CheckReport): string {
  const lines = [
    `Checked ${report.configDir}: ${report.targets.length} target(s), ${report.toolsets.length} toolset(s), ` +
      `${report.trails.length} trail file(s), ${report.sessions.length} session(s)\n`,
  ];
  if (report.trailmap) lines.push(formatScope(report.trailmap));
  for (const s of report.sessions) {
    const trails = s.trails.length > 0 ? `, ${s.trails.length} trail(s)` : "";
    const state = s.started ? `${s.tools} tools, ${s.skipped} skipped${trails}` : `did not start${trails}`;
    lines.push(`  ${s.target} · ${s.driver} · ${s.agent}: ${state}\n`);
  }
  lines.push("\n", ...report.findings.map(formatFinding));
  const { errors, warnings } = report.summary;
  lines.push(
    errors === 0 && warnings === 0 ? "✓ no problems found\n" : `${report.ok ? "✓" : "✗"} ${errors} error(s), ${warnings} warning(s)\n`,
  );
  return lines.join("");
}

export const checkCommand: Command = {
  name: "check",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("check", argv, {
      config: { type: "string" },
      target: { type: "string" },
      agent: { type: "string" },
      strict: { type: "boolean" },
      json: { type: "boolean" },
      logs: { type: "string" },
      workspace: { type: "string" },
      all: { type: "boolean" },
      "no-typecheck": { type: "boolean" },
    });
    const at = io;
    const scope = await resolveCheckScope({
      positionals,
      workspace: values.workspace,
      config: values.config,
      all: values.all,
      target: values.target,
      cwd: at.cwd,
      env: at.env,
    });
    for (const note of scope.notes) io.stderr(`${note}\n`);
    const paths = scope.paths;
    const configDir =
      scope.configDir ??
      (await configAbovePaths(values, paths, io)) ??
      (await findConfigDir({ flag: values.config, env: at.env.TRAILBLAZE_CONFIG_DIR, cwd: at.cwd }));
    const report = await checkWorkspace(
      {
        configDir,
        cwd: at.cwd,
        env: at.env,
        paths,
        ...(scope.trailmap !== undefined ? { trailmap: scope.trailmap } : {}),
        ...(values.target !== undefined ? { target: values.target } : {}),
        ...(values.agent !== undefined ? { agent: parseAgent(values.agent) } : {}),
        ...(values.strict ? { strict: true } : {}),
        ...(values.logs !== undefined ? { logsDir: resolve(io.cwd, values.logs) } : {}),
      },
      (spec, hooks) => startSession(spec, at, hooks),
    );
    io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : terminalText(formatCheckReport(report)));
    return report.ok ? 0 : 1;
  },
};
