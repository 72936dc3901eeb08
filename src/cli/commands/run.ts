// `trailblaze run`: parse trail files, plan them, run each in its own
// session (in parallel with --workers, a slice with --shard), tell every reporter chosen
// (live, JSON, JUnit, HTML, the user's own) as it goes, and write a partial report when interrupted.

import { ConfigError, UsageError } from "../../errors.ts";
import type { Workspace } from "../../config/workspace.ts";
import { checkSessionFlags, parseKeyValue } from "../../session/session-spec.ts";
import { SESSION_FLAG_OPTIONS, SESSION_FLAGS_HELP, parseSecrets } from "../session-flags.ts";
import { checkSessionId, isSessionId, logsFolder } from "../../core/log-layout.ts";
import { maskedIo } from "../masked-io.ts";
import { maskReport } from "../../run/mask-report.ts";
import { Secrets } from "../../core/secrets.ts";
import { runClassifiers, trailsToRun } from "../../trail/discover.ts";
import { readTrailFiles } from "../../trail/trail-file.ts";
import type { GivenArgs } from "../../run/list-plans.ts";
import { SuiteRun, type SuiteEntry } from "../../run/run-suite.ts";
import type { StartTrailSession, TrailAgent } from "../../run/run-trail.ts";
import { runExitCode, type RunReport } from "../../run/run-types.ts";
import { parseShard, shardSlice, type Shard } from "../../run/shard.ts";
import { REPORTERS } from "../../run/reporters/index.ts";
import { parseCommandArgs } from "../args.ts";
import { reusingVerifiedBuilds } from "../../bundle/build-cache.ts";
import { checkDevicesOnTargets, parseDevices, parseTags, perDevice, readArgsFile, testNameSeed, withTags } from "./run-flags.ts";
import type { CliIO, Command } from "../command.ts";
import { configAbovePaths, loadCliWorkspace, pruneLogsOnce, startSession } from "../open-session.ts";
import { onInterrupt } from "../reaper.ts";
import { ScreenTable } from "../../run/screen-table.ts";
import type { RunThreadSetup } from "../run-threads/thread-protocol.ts";
import { AGENT_FLAG_OPTIONS, AGENT_FLAGS_HELP, trailAgent } from "../agent-flags.ts";
import { notRunReport, openReporters, parseReporterFlags, type ReporterChoice, wantsPages } from "./report-output.ts";
import { type RunLane, startLane, threadSetup } from "./run-lane.ts";
import type { Trail } from "../../trail/trail-types.ts";
import type { Multiplexer } from "../../run/reporters/multiplexer.ts";
import { listPlans } from "./run-list.ts";

const HELP = `Usage: trailblaze run <trail-file|dir>... [session flags] [options]

Replays recorded trails: each trail runs in its own session (its target's MCP servers
started, every recorded tool checked to be registered before the first step), its steps'
recorded tool calls are dispatched with {{key}} / \${key} replaced from memory, and every
session is stopped at the end. A folder runs every named trail below it (<name>.trail.yaml) and,
per folder, one of the rest: the legacy recording named for --device (android.trail.yaml), else
trail.yaml, else blaze.yaml; build/, .gradle/, .git/, node_modules/, .trailblaze/ and .claude/
are not searched.

Options:
  --reporter R[,R…]     the reporters (comma-separated and/or repeated; default list), each one of
                        ${REPORTERS.map((r) => `${r.name}: ${r.summary}`).join("\n                        ")}
                        or the path of your own (./my-reporter.ts: its default-exported class);
                        R=PATH names that reporter's output (json=report.json, html=DIR)
  --output FILE|DIR     the output of the one reporter chosen (with several: of the one besides
                        list without its own =PATH). json and junit without an output print the
                        document alone on stdout; at most one reporter prints on stdout, and when
                        none does the live list is added (docs/reporters.md)
  --list                parse and plan only: print each trail's steps and the tool calls chosen
                        for the session; starts nothing; exit 2 if any file does not parse
  --workers N           run up to N trails at once, each in its own session (default 1)
  --shard I/N           run only slice I of N of the sorted trail list (CI machines split a suite)
  --secret KEY=VALUE    memory value usable as {{KEY}}, shown as *** in every log, report and
                        error (masked as each is written), never sent in _trailblazeContext
                        (repeatable); --secret KEY alone reads the environment variable KEY,
                        the way for CI (no value on the command line, in ps or shell history)
  --arg NAME=VALUE      a trail parameter declared in config.args, used as {{args.NAME}} (repeatable);
                        a trail that does not declare it does not start (exit 2)
  --args-file FILE      arg values from a YAML or JSON map (name: value), applied before --arg
  --tags T1,T2          only trails whose config.tags hold any of these (repeatable; untagged
                        trails are left out)
  --device P1,P2        run each trail once per platform: android, ios, web, desktop, or
                        platform/id (repeatable), on the trail's devices: pin for it, else
                        the platform's default driver; each result is labelled "<id> [<device>]"
  --all-devices         run each trail once per platform it supports (its devices:, else its
                        recording keys, else its target's platforms)
  --test-name NAME      seed of each session id (<NAME>-<generated>), as CI names a test
  -h, --help            show this help

Exit codes: 0 every trail passed (or was skipped) · 1 a trail failed: a step, or a server that
crashed at start or cannot be bundled for on-device; or a reporter failed (named on stderr) · 2
usage or configuration: a bad flag, a file that does not parse, an unknown target, a recorded tool
no server registers, no runtime, a reporter path that is no reporter. The cause
decides, as in tools and call, whether or not a step ran. SIGINT/SIGTERM stop every session, write
the partial report and exit 130/143.

${AGENT_FLAGS_HELP}

${SESSION_FLAGS_HELP}`;

function parsePairs(flag: string, entries: string[] | undefined): [string, string][] {
  return (entries ?? []).map((entry) => parseKeyValue(flag, entry));
}

export function parseWorkers(text: string | undefined, command = "run"): number {
  if (text === undefined) return 1;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new UsageError(`${command}: --workers expects a whole number from 1 to 64, got "${text}"`);
  return n;
}

/** Identical warning/note lines (one per session otherwise) are printed once per run. */
export function onceStderr(io: CliIO): CliIO {
  const seen = new Set<string>();
  return {
    ...io,
    stderr: (text) => {
      if (/^(warning|note): /.test(text)) {
        if (seen.has(text)) return;
        seen.add(text);
      }
      io.stderr(text);
    },
  };
}

/** `--args-file` then `--arg` (which wins), and where each value came from, as `--list` shows it. */
export function givenArgs(
  values: { arg?: string[] | undefined; "args-file"?: string | undefined },
  cwd: string,
  secrets: Secrets,
): GivenArgs {
  const file = values["args-file"];
  const fromFile = file === undefined ? {} : readArgsFile(file, cwd);
  const fromFlags = Object.fromEntries(parsePairs("--arg", values.arg));
  const from: Record<string, string> = {};
  for (const name of Object.keys(fromFile)) from[name] = `--args-file ${file}`;
  for (const name of Object.keys(fromFlags)) from[name] = "--arg";
  return { values: { ...fromFile, ...fromFlags }, from, secrets };
}

/** run's options: the session flags, the reporters, which trails run and how, the agent's flags. */
const RUN_OPTIONS = {
  ...SESSION_FLAG_OPTIONS,
  reporter: { type: "string", multiple: true },
  output: { type: "string" },
  list: { type: "boolean" },
  workers: { type: "string" },
  shard: { type: "string" },
  secret: { type: "string", multiple: true },
  arg: { type: "string", multiple: true },
  "args-file": { type: "string" },
  tags: { type: "string", multiple: true },
  device: { type: "string", multiple: true },
  "all-devices": { type: "boolean" },
  "test-name": { type: "string" },
  ...AGENT_FLAG_OPTIONS,
} as const;

type RunValues = ReturnType<typeof parseCommandArgs<typeof RUN_OPTIONS>>["values"];

/** What run's command line asks for, each flag checked before anything is read or started. */
interface RunFlags {
  values: RunValues;
  positionals: string[];
  reporterChoices: ReporterChoice[];
  workers: number;
  shard: Shard | undefined;
  secrets: Secrets;
  given: GivenArgs;
  tags: string[] | undefined;
  devices: ReturnType<typeof parseDevices>;
  sessionSeed: string | undefined;
}

/** The trails a run starts, with the workspace, agent and threads they run with. */
interface PlannedRun {
  entries: SuiteEntry[];
  /** Trails parsed and chosen by --tags, before --shard took its slice. */
  parsedCount: number;
  workspace: Workspace;
  agent: { agent: TrailAgent } | { noAgent: string };
  lane: RunLane;
}

function parseRunFlags(argv: string[], rawIo: CliIO): RunFlags {
  const { values, positionals } = parseCommandArgs("run", argv, RUN_OPTIONS);
  if (positionals.length === 0) throw new UsageError("run: name at least one trail file or folder, e.g. `trailblaze run trails/`");
  const reporterChoices = parseReporterFlags("run", values.reporter, values.output);
  const workers = parseWorkers(values.workers);
  const shard: Shard | undefined = values.shard === undefined ? undefined : parseShard(values.shard);
  const secrets = new Secrets(Object.fromEntries(parseSecrets("run", values.secret, rawIo.env)), {
    warn: (message) => rawIo.stderr(`warning: ${message}\n`),
  });
  const given = givenArgs(values, rawIo.cwd, secrets);
  const tags = parseTags(values.tags);
  const devices = parseDevices(values.device);
  if (devices && values["all-devices"])
    throw new UsageError("run: --device and --all-devices cannot be used together: name the platforms, or let each trail's own choose");
  if ((devices || values["all-devices"]) && values.driver !== undefined) {
    throw new UsageError("run: --driver and --device (or --all-devices) both choose the driver; keep one");
  }
  const sessionSeed = values["test-name"] === undefined ? undefined : testNameSeed(values["test-name"]);
  checkSessionFlags(values, rawIo.env);
  if (values["session-id"] !== undefined) checkSessionId(values["session-id"]);
  return { values, positionals, reporterChoices, workers, shard, secrets, given, tags, devices, sessionSeed };
}

/** The trail files the positionals name (folders expanded); a config found above them becomes --config. */
async function trailFiles(flags: RunFlags, io: CliIO): Promise<string[]> {
  const { values, positionals, devices } = flags;
  const above = await configAbovePaths(values, positionals, io);
  if (above) values.config = above;
  const expanded = await trailsToRun(positionals, io.cwd, runClassifiers({ devices: devices?.map((d) => d.label), driver: values.driver }));
  for (const warning of expanded.warnings) io.stderr(`warning: ${warning}\n`);
  return expanded.files;
}

/** The parsed trails --tags keeps (`parsed`), and of those the --shard slice (`sliced`). */
function selectTrails(trails: readonly Trail[], { tags, shard }: RunFlags, io: CliIO): { parsed: SuiteEntry[]; sliced: SuiteEntry[] } {
  const all: SuiteEntry[] = trails.map((trail) => ({ file: trail.file, trail }));
  const parsed = tags ? withTags(all, tags) : all;
  if (tags && parsed.length < all.length)
    io.stderr(
      `note: --tags ${tags.join(",")}: ${all.length - parsed.length} of ${all.length} trail(s) carry none of these tags and are left out\n`,
    );
  return { parsed, sliced: shard ? shardSlice(parsed, shard, (e) => e.file) : parsed };
}

/** `--list`: the chosen trails' plans printed; nothing starts. */
async function listRun(flags: RunFlags, io: CliIO): Promise<number> {
  const { trails, problems } = await readTrailFiles(await trailFiles(flags, io), io.cwd);
  const { sliced } = selectTrails(trails, flags, io);
  return await listPlans(flags.devices ? perDevice(sliced, flags.devices, undefined) : sliced, problems, flags.values, flags.given, io);
}

/** The workspace, the agent and one suite entry per session (per device with --device/--all-devices). */
async function sessionsFor(trails: SuiteEntry[], flags: RunFlags, io: CliIO): Promise<Omit<PlannedRun, "parsedCount" | "lane">> {
  const { values, devices, secrets } = flags;
  const workspace = await loadCliWorkspace(values, io);
  const agent = trailAgent("run", values, workspace.root, io, secrets);
  if (devices) checkDevicesOnTargets(trails, devices, workspace, values, io);
  const entries = devices ? perDevice(trails, devices, workspace) : values["all-devices"] ? perDevice(trails, "all", workspace) : trails;
  const id = values["session-id"];
  // Several trails get <id>-1, <id>-2, …: the longest of those must be a session id too.
  if (id !== undefined && entries.length > 1 && !isSessionId(`${id}-${entries.length}`)) {
    throw new UsageError(
      `run: --session-id ${id} names ${entries.length} sessions here, ${id}-1 to ${id}-${entries.length}, and those are over 128 characters: give a shorter id`,
    );
  }
  return { workspace, agent, entries };
}

/**
 * Everything read before the first trail starts. When that fails, the threads are closed and the
 * reporters still end with a report saying why (CI gets the report it asked for), then the error.
 */
async function planRun(flags: RunFlags, io: CliIO, reporters: Multiplexer, screens: ScreenTable): Promise<PlannedRun> {
  let lane: RunLane | undefined;
  try {
    const files = await trailFiles(flags, io);
    const { workers, secrets } = flags;
    lane = startLane({ workers, files: files.length, io, reporters, screens, secrets });
    const { trails, problems } = lane.lane ? await lane.lane.readTrailFiles(files, io.cwd) : await readTrailFiles(files, io.cwd);
    const { parsed, sliced } = selectTrails(trails, flags, io);
    if (problems.length > 0) throw new ConfigError(problems);
    return { ...(await sessionsFor(sliced, flags, io)), parsedCount: parsed.length, lane };
  } catch (error) {
    await lane?.close();
    reporters.onError(error instanceof Error ? error : new Error(String(error)));
    await reporters.onEnd({ ...notRunReport(error), ...(flags.shard ? { shard: flags.shard } : {}) });
    throw error;
  }
}

/** Tells the reporters which trails run, in order (and says so when this shard holds none). */
function beginRun({ entries, parsedCount }: PlannedRun, { workers, shard }: RunFlags, reporters: Multiplexer, io: CliIO): void {
  if (shard && entries.length === 0) {
    io.stderr(`note: shard ${shard.index}/${shard.total} holds no trails (${parsedCount} in total)\n`);
  }
  reporters.onBegin({
    trails: entries.map((e, index) => ({
      file: e.file,
      id: e.trail.id,
      ...(e.trail.title !== undefined ? { title: e.trail.title } : {}),
      index,
    })),
    workers,
    ...(shard ? { shard } : {}),
  });
}

/** The run threads' setup, given once the workspace is read; old logs are pruned once, here, not by each thread. */
function setUpThreads({ lane, workspace, agent, entries }: PlannedRun, { values, given, reporterChoices }: RunFlags, io: CliIO): void {
  if (!lane.lane) return;
  if (!values["no-logging"]) pruneLogsOnce(logsFolder({ root: workspace.root, cwd: io.cwd }, values.logs), io.env);
  const threadAgent: RunThreadSetup["agent"] = "noAgent" in agent ? { noAgent: agent.noAgent } : { make: true };
  lane.setUp(threadSetup(io, workspace, values, given.values, threadAgent, wantsPages(reporterChoices), entries));
}

function suiteRun(planned: PlannedRun, flags: RunFlags, io: CliIO, reporters: Multiplexer, screens: ScreenTable): SuiteRun {
  const { values, secrets, given, workers, sessionSeed, shard, reporterChoices } = flags;
  const startTrailSession: StartTrailSession = (spec, options) => startSession(spec, io, options);
  return new SuiteRun(planned.entries, {
    io,
    startSession: startTrailSession,
    workspace: planned.workspace,
    flags: values,
    secrets,
    args: given.values,
    workers,
    ...(wantsPages(reporterChoices) ? { recordPages: true } : {}),
    ...planned.agent,
    observer: reporters,
    ...(values["session-id"] ? { sessionId: values["session-id"] } : {}),
    ...(sessionSeed ? { sessionSeed } : {}),
    ...(shard ? { shard } : {}),
    screens,
    ...(planned.lane.lane ? { lane: planned.lane.lane } : {}),
  });
}

/**
 * Runs the suite and ends the reporters with its report: on SIGINT/SIGTERM the partial one (the
 * reaper then closes every session and exits 130/143). The exit code: 1 also when a report that
 * was asked for is missing or partial, so a run that passed does not exit 0.
 */
async function runToEnd(suite: SuiteRun, lane: RunLane, secrets: Secrets, reporters: Multiplexer): Promise<number> {
  // Screens and steps were masked as they were recorded; a value that became secret later is masked here.
  const end = (run: RunReport): Promise<void> => reporters.onEnd(maskReport(run, secrets));
  const run = await runUntilInterrupted(suite, end, () => lane.close());
  if (run === undefined) return 130; // the partial report is out; the reaper is exiting
  await end(run);
  const code = runExitCode(run);
  return code === 0 && reporters.failed ? 1 : code;
}

/**
 * Runs the suite to its end, its sessions using the tools as its first session built them. On
 * SIGINT/SIGTERM `ended` gets the partial report and the answer is undefined (the reaper is then
 * exiting); otherwise `close` runs once the suite ended.
 */
export async function runUntilInterrupted(
  suite: SuiteRun,
  ended: (partial: RunReport) => Promise<unknown>,
  close?: () => Promise<void>,
): Promise<RunReport | undefined> {
  let interrupted = false;
  const stopListening = onInterrupt(async (signal) => {
    interrupted = true;
    await ended(await suite.interrupt(`interrupted by ${signal}`));
  });
  using _builds = reusingVerifiedBuilds();
  let run: RunReport;
  try {
    run = await suite.run();
  } finally {
    stopListening();
    if (!interrupted) await close?.();
  }
  return interrupted ? undefined : run;
}

export const runCommand: Command = {
  name: "run",
  help: HELP,
  async run(argv, rawIo) {
    const flags = parseRunFlags(argv, rawIo);
    const io = onceStderr(maskedIo(rawIo, flags.secrets));
    // Loaded before anything starts: a reporter that cannot be used stops the run (exit 2).
    const reporters = await openReporters("run", flags.reporterChoices, io, { color: io.isTTY && !io.env.NO_COLOR });
    if (flags.values.list) return await listRun(flags, io);
    const screens = new ScreenTable();
    const planned = await planRun(flags, io, reporters, screens);
    beginRun(planned, flags, reporters, io);
    setUpThreads(planned, flags, io);
    return await runToEnd(suiteRun(planned, flags, io, reporters, screens), planned.lane, flags.secrets, reporters);
  },
};
