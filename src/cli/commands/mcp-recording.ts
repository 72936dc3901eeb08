// `trailblaze mcp --record FILE` / `--trail FILE`: checks the flags and the file before the
// session starts (a --trail FILE's config also chooses the session, as `run FILE` would), then
// makes the recording mode the served session reports its calls to.

import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ConfigError, UsageError } from "../../errors.ts";
import { checkControlNames, type RecordingMode } from "../../mcp-serve/control-tools.ts";
import { StepRecorder } from "../../mcp-serve/step-recorder.ts";
import { TrailFiller } from "../../mcp-serve/trail-filler.ts";
import { classifiersFor, planTrail, trailHints } from "../../run/plan.ts";
import { resolveTrailArgs } from "../../run/trail-args.ts";
import { validatePlan } from "../../run/validate.ts";
import type { Session } from "../../session/session.ts";
import type { TrailSessionHints } from "../../session/session-spec.ts";
import { deriveTrailId, parseTrailFile } from "../../trail/trail-file.ts";
import type { Trail } from "../../trail/trail-types.ts";

interface RecordingFlags {
  record?: string | undefined;
  trail?: string | undefined;
  arg?: string[] | undefined;
}

/** What was checked before the session starts. */
type PreparedRecording =
  | { kind: "record"; file: string; path: string }
  | { kind: "trail"; file: string; path: string; trail: Trail; hints: TrailSessionHints };

/** Checks --record / --trail / --arg and reads a --trail FILE; undefined when neither is given. `cwd`: the session's. */
export function prepareRecording(flags: RecordingFlags, cwd: string): PreparedRecording | undefined {
  if (flags.record !== undefined && flags.trail !== undefined) {
    throw new UsageError(
      "mcp: --record and --trail cannot be used together: --record writes a new trail, --trail fills in the steps of an existing one",
    );
  }
  if (flags.arg !== undefined && flags.trail === undefined)
    throw new UsageError("mcp: --arg applies to --trail FILE only (the trail's config.args)");
  if (flags.record !== undefined) {
    const file = flags.record;
    const path = resolve(cwd, file);
    if (existsSync(path) && (!statSync(path).isFile() || statSync(path).size > 0)) {
      throw new UsageError(
        `mcp: --record ${file}: the file exists, and --record writes a new trail; pick another name or remove it ` +
          `(--trail ${file} fills in the steps of an existing trail that have no recording)`,
      );
    }
    return { kind: "record", file, path };
  }
  if (flags.trail === undefined) return undefined;
  const file = flags.trail;
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new UsageError(`mcp: --trail ${file}: cannot read it (${code}); --record ${file} makes a new trail instead`);
  }
  const trail = parseTrailFile(file, text);
  return { kind: "trail", file, path, trail, hints: trailHints(trail) };
}

/** The recording mode for a started session; a --trail FILE's tools and args are checked first, as `run` checks them. */
export function startRecording(
  prepared: PreparedRecording,
  session: Session,
  given: Record<string, string>,
  replay: string,
): RecordingMode {
  if (prepared.kind === "record") {
    const { file, path } = prepared;
    const header = [
      "Recorded with trailblaze mcp --record: one step per trailblaze_beginStep, its successful tool calls under recording: tools:.",
      `Replay: ${replay}`,
    ];
    const recorder = new StepRecorder(session, { file, path, config: { id: deriveTrailId(file), target: session.spec.target.id, header } });
    checkControlNames(recorder, session.registry);
    return recorder;
  }
  const { file, path, trail } = prepared;
  const args = resolveTrailArgs(trail, given);
  if (args.problems.length > 0) throw new UsageError(`mcp: --trail ${file}: ${args.problems.join("; ")}`);
  const problems = validatePlan(planTrail(trail, classifiersFor(trail, session.spec.driver)), session.registry, session.spec.agent);
  if (problems.length > 0)
    throw new ConfigError(problems.map(({ file: where, line, col, message }) => ({ file: where, line, col, path: "", message })));
  const filler = new TrailFiller(session, { file, path, trail, args: args.values });
  checkControlNames(filler, session.registry);
  return filler;
}

const quote = (value: string) => (/^[\w./:@=+,-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

/** `npx trailblaze run FILE` with the session flags that replay what was recorded (secrets by name only). */
export function replayCommand(file: string, flags: Record<string, unknown>): string {
  const parts = ["npx trailblaze run", quote(file)];
  for (const key of ["config", "target", "driver", "agent", "screen", "capture", "map", "start"]) {
    const value = flags[key];
    if (typeof value === "string") parts.push(`--${key}`, quote(value));
  }
  for (const entry of (flags.memory as string[] | undefined) ?? []) parts.push("--memory", quote(entry));
  if (flags["require-screen"] === true) parts.push("--require-screen");
  for (const entry of (flags.secret as string[] | undefined) ?? []) parts.push("--secret", quote(entry.split("=")[0]!));
  return parts.join(" ");
}
