// Resolves everything a session needs from the workspace, CLI flags and (for
// `run`) a trail's config: target, driver → platform, agent mode, screen,
// memory, id, logs folder. Pure: nothing is started here.

import { isAbsolute, join, relative, resolve } from "node:path";
import { BrowserNotFoundError, UsageError } from "../errors.ts";
import { findChromium } from "../browser/find-chromium.ts";
import type { TargetConfig, ToolsetConfig, Where, Workspace } from "../config/workspace.ts";
import type { AgentMode } from "../core/server-kinds.ts";
import { DEFAULT_DRIVER, findDriver, knownDriverKeys, parsePlatform, type DriverInfo, type Platform } from "../core/drivers.ts";
import { Memory } from "./memory.ts";
import { Secrets } from "../core/secrets.ts";
import { logMaxBytes } from "../core/capped-log-file.ts";
import { guestBudgetFrom } from "../../runtime-quickjs/guest-budget.ts";
import { builtinTools } from "../builtins/index.ts";
import { driverOfClassifier } from "../trail/select-recording.ts";
import { checkSessionId, DEFAULT_KEEP_SESSIONS, sessionLogsDir } from "../core/log-layout.ts";

export interface Screen {
  width: number;
  height: number;
}

/** Typical device sizes, so tools that compute coordinates get plausible numbers. */
const DEFAULT_SCREEN: Readonly<Record<Platform, Screen>> = {
  ANDROID: { width: 1080, height: 2400 },
  IOS: { width: 1179, height: 2556 },
  WEB: { width: 1280, height: 800 },
};

/** Where the simulated screen was set: a flag, or the target's `simulation:` (its path value). */
type SimulationOrigin = { flag: "--capture" | "--map" } | { where: Where; path: "simulation.capture" | "simulation.map" };

/** The screen the simulated device shows, paths resolved: one capture, or an app map and its start waypoint. */
export type SimulationSpec =
  | { kind: "capture" /** absolute */; file: string /** as shown in messages */; shown: string; origin: SimulationOrigin }
  | { kind: "map" /** absolute */; dir: string; shown: string; start: string; origin: SimulationOrigin };

export interface SessionSpec {
  id: string;
  cwd: string;
  env: Record<string, string | undefined>;
  configDir: string;
  /** The workspace root (the folder holding trailblaze-config/ or trails/): relative server paths and build caches live here. */
  root: string;
  target: TargetConfig;
  /** Why the trail's recordings chose `target`, when they did (the session says so at start). */
  targetChoice?: string;
  /** Every toolset of the workspace; the session decides which apply. */
  toolsets: ToolsetConfig[];
  driver: DriverInfo;
  agent: AgentMode;
  screen: Screen;
  /** A screen for the simulated device (`--capture`/`--map`, else the target's `simulation:`); none: screen checks are unverified. */
  simulation?: SimulationSpec;
  /**
   * The real browser web_* tools act on (the playwright-native driver, no simulated screen, and
   * Chromium found); none: the page is simulated. `note` says why a wanted browser is not used.
   */
  browser?: { executable: string };
  browserNote?: string;
  /** `--browser none`: no Chromium starts in this session, for a page or for a capture's marked screenshot. */
  noBrowser?: true;
  /** The trail file's folder, when the session is for a trail: relative web_navigate URLs look there first. */
  trailDir?: string;
  /** Memory the session starts with (trail `config.memory`, then `--memory`); the session owns the live Memory. */
  memory: Record<string, unknown>;
  /** Secrets (`--secret`): usable in placeholders, masked everywhere. */
  secrets?: Record<string, string>;
  /** `<logs>/<id>`: stderr logs and the call log live here; undefined with `--no-logging` (no log files). */
  logsDir?: string;
  /** Bound on each server's initialize + tools/list, ms. */
  handshakeTimeoutMs: number;
  /** Default per-call timeout, ms. */
  callTimeoutMs: number;
}

/** The session flags every command shares (CONTRACT.md "session flags"), as parsed strings. */
export interface SessionFlags {
  target?: string;
  driver?: string;
  agent?: string;
  screen?: string;
  memory?: string[];
  "session-id"?: string;
  logs?: string;
  /** No log files at all (upstream's `--no-logging`). */
  "no-logging"?: boolean;
  /** Unverified screen checks (no screen loaded) fail the step instead. */
  "require-screen"?: boolean;
  /** A capture file the simulated device shows (one static screen). */
  capture?: string;
  /** An app map folder (waypoints/, shortcuts/) the simulated device moves through, from `start`. */
  map?: string;
  start?: string;
  /** `chromium` (the real browser, or an error when none is found) or `none` (simulate the page); default: chromium when found. */
  browser?: string;
}

/** What a trail contributes when the session is for a run. */
export interface TrailSessionHints {
  target?: string;
  driver?: string;
  agent?: AgentMode;
  devices?: Record<string, string>;
  memory?: Record<string, unknown>;
  /** Every tool the trail's recordings call: with several targets and none named, they pick one. */
  tools?: string[];
  /** Every recording key of the trail, lower-cased: one platform's alone picks the platform. */
  classifiers?: string[];
}

export function parseKeyValue(flag: string, entry: string): [string, string] {
  const eq = entry.indexOf("=");
  if (eq <= 0) throw new UsageError(`${flag} expects KEY=VALUE, got "${entry}"`);
  return [entry.slice(0, eq), entry.slice(eq + 1)];
}

function parseScreen(value: string): Screen {
  const match = /^(\d{2,5})x(\d{2,5})$/.exec(value.trim());
  if (!match) throw new UsageError(`--screen expects WIDTHxHEIGHT in pixels, e.g. 1080x2400; got "${value}"`);
  return { width: Number(match[1]), height: Number(match[2]) };
}

export function parseAgent(value: string): AgentMode {
  if (value === "host" || value === "on-device") return value;
  throw new UsageError(`--agent expects host or on-device, got "${value}"`);
}

/** The agent a trail runs with: `--agent` when given, else the trail's `config.agent`, else host. */
export function agentFor(flagAgent: string | undefined, trailAgent: AgentMode | undefined): AgentMode {
  return flagAgent !== undefined ? parseAgent(flagAgent) : (trailAgent ?? "host");
}

function resolveDriver(name: string, where: string): DriverInfo {
  const driver = findDriver(name);
  if (!driver) throw new UsageError(`${where}: unknown driver "${name}"; known drivers: ${knownDriverKeys().join(", ")}`);
  return driver;
}

/** The targets whose `platforms.*.app_ids` list `appId`. */
function targetsWithAppId(workspace: Workspace, appId: string): TargetConfig[] {
  return [...workspace.targets.values()].filter((t) => Object.values(t.platforms).some((p) => p?.appIds.includes(appId)));
}

/**
 * The target a name stands for: a target id, else an app id that exactly one target lists
 * under `platforms.*.app_ids` (upstream trails write `config.target: com.example.app`).
 */
export function findTarget(workspace: Workspace, name: string): TargetConfig {
  const byId = workspace.targets.get(name);
  if (byId) return byId;
  const owners = targetsWithAppId(workspace, name);
  if (owners.length === 1) return owners[0]!;
  if (owners.length > 1) {
    throw new UsageError(
      `app id "${name}" is listed by several targets (${owners.map((t) => t.id).join(", ")}); name the target id instead, e.g. --target ${owners[0]!.id}`,
    );
  }
  const ids = [...workspace.targets.keys()];
  const appIds = [...new Set([...workspace.targets.values()].flatMap((t) => Object.values(t.platforms).flatMap((p) => p?.appIds ?? [])))];
  throw new UsageError(
    `unknown target "${name}" in ${workspace.configDir}: no target has that id or lists it as an app id; ` +
      `known targets: ${ids.join(", ") || "(none)"}${appIds.length > 0 ? `; known app ids: ${appIds.join(", ")}` : ""}`,
  );
}

/**
 * `$TRAILBLAZE_TARGET`, upstream's per-shell pin of a target: unset when blank, and when `clear`
 * (upstream's word for removing a pin, which only its flag means).
 */
function pinnedTarget(env: Record<string, string | undefined>): string | undefined {
  const value = env.TRAILBLAZE_TARGET?.trim();
  return value && value.toLowerCase() !== "clear" ? value : undefined;
}

/** The target a name stands for (findTarget), the built-in `default` included; `from` prefixes a mistake's message. */
function namedTarget(workspace: Workspace, id: string, from?: string): TargetConfig {
  if (id === DEFAULT_TARGET_ID && !workspace.targets.has(id)) return frameworkDefaultTarget(workspace);
  try {
    return findTarget(workspace, id);
  } catch (error) {
    if (from === undefined || !(error instanceof UsageError)) throw error;
    throw new UsageError(`${from}: ${error.message}`, { cause: error });
  }
}

/**
 * The target a session runs on, and why when nothing named it (the session says so at start).
 * Every command's rule, upstream's precedence: `--target`, then (for a trail) its `config.target`,
 * `$TRAILBLAZE_TARGET`, the only target, the workspace's `defaults.target`; then a trail's
 * recordings choose (targetFromRecordings), and a session for no trail (tools, call, types, mcp)
 * gets the built-in `default` target, with a note naming the workspace's own targets.
 */
function pickTarget(
  workspace: Workspace,
  flag: string | undefined,
  env: Record<string, string | undefined>,
  trail: TrailSessionHints | undefined,
): { target: TargetConfig; why?: string } {
  const named = flag ?? trail?.target;
  if (named !== undefined) return { target: namedTarget(workspace, named) };
  const pinned = pinnedTarget(env);
  if (pinned !== undefined) return { target: namedTarget(workspace, pinned, "$TRAILBLAZE_TARGET") };
  const ids = [...workspace.targets.keys()];
  if (ids.length === 1) return { target: workspace.targets.get(ids[0]!)! };
  if (workspace.defaultTarget !== undefined) return { target: findTarget(workspace, workspace.defaultTarget) };
  if (ids.length > 0 && trail === undefined) {
    return {
      target: workspace.targets.get(DEFAULT_TARGET_ID) ?? frameworkDefaultTarget(workspace),
      why: defaultFallbackNote(workspace, ids),
    };
  }
  if (ids.length > 0) {
    const chosen = targetFromRecordings(workspace, trail?.tools ?? []);
    if (typeof chosen !== "string") return chosen;
    throw new UsageError(`several targets in ${workspace.configDir} (${ids.join(", ")}) and ${chosen}; pick one with --target ID`);
  }
  if (trail === undefined) return { target: frameworkDefaultTarget(workspace) };
  throw new UsageError(
    workspace.layout === "trails-config"
      ? `no targets in ${workspace.configDir}: list target trailmaps in trailblaze.yaml targets: (each a trailmaps/<id>/trailmap.yaml with a target: block), or add a targets/<id>.yaml target file`
      : `no targets in ${workspace.configDir}/targets; add a <id>.yaml target file`,
  );
}

/** Why a session for no trail has the `default` target although the workspace has targets of its own. */
function defaultFallbackNote(workspace: Workspace, ids: readonly string[]): string {
  const own = ids.filter((id) => id !== DEFAULT_TARGET_ID);
  const listed = own.slice(0, 6).join(", ") + (own.length > 6 ? `, … (${own.length} in all)` : "");
  const unnamed =
    workspace.layout === "trails-config"
      ? "no --target, $TRAILBLAZE_TARGET or defaults.target (trailblaze.yaml)"
      : "no --target or $TRAILBLAZE_TARGET";
  return (
    `target ${DEFAULT_TARGET_ID}, the framework's tools only: ${unnamed} names one of this workspace's targets ` +
    `(${listed}); add --target ID for a target's tools, e.g. --target ${own[0]}`
  );
}

/** Upstream's built-in target for trails that name none: the framework's tools on every platform. */
const DEFAULT_TARGET_ID = "default";

let frameworkNames: ReadonlySet<string> | undefined;

/** The framework's own tools (built-ins), which every target has. */
function isFrameworkTool(name: string): boolean {
  frameworkNames ??= new Set(builtinTools().map((tool) => tool.name));
  return frameworkNames.has(name);
}

/** The built-in `default` target (upstream's targets/default.yaml): no servers, every platform. */
function frameworkDefaultTarget(workspace: Workspace): TargetConfig {
  const platform = (toolSets: string[], drivers?: string[]) => ({ appIds: [], toolSets, ...(drivers ? { drivers } : {}) });
  const mobile = ["core_interaction", "navigation", "observation", "verification", "memory"];
  return {
    id: DEFAULT_TARGET_ID,
    displayName: "Default (framework tools)",
    mcpServers: [],
    tools: [],
    platforms: {
      android: platform(mobile),
      ios: platform(mobile),
      web: platform(["web_core", "web_verification", "memory"], ["playwright-native", "playwright-electron", "compose"]),
    },
    file: join(workspace.configDir, "targets", `${DEFAULT_TARGET_ID}.yaml`),
    where: { file: "(built-in default target)", line: 0, col: 0 },
  };
}

/** The tools a target is known to have without starting it: its per-file tools and its toolsets' lists. */
export function declaredTools(workspace: Workspace, target: TargetConfig): Set<string> {
  const names = new Set(target.tools.map((ref) => ref.name));
  for (const body of Object.values(target.platforms)) {
    for (const id of body?.toolSets ?? []) for (const name of workspace.toolsets.get(id)?.tools ?? []) names.add(name);
  }
  return names;
}

/**
 * With several targets and none named, upstream's rule: a trail that calls only framework tools
 * runs on the built-in `default` target; one whose other tools one target declares, on that one.
 * Otherwise why neither applies.
 */
function targetFromRecordings(workspace: Workspace, tools: readonly string[]): { target: TargetConfig; why: string } | string {
  const own = tools.filter((name) => !isFrameworkTool(name));
  if (own.length === 0) {
    const target = workspace.targets.get(DEFAULT_TARGET_ID) ?? frameworkDefaultTarget(workspace);
    return { target, why: `target ${DEFAULT_TARGET_ID}: the trail names no target and calls only framework tools` };
  }
  const owners = [...workspace.targets.values()].filter((target) => {
    const declared = declaredTools(workspace, target);
    return own.every((name) => declared.has(name));
  });
  if (owners.length === 1)
    return { target: owners[0]!, why: `target ${owners[0]!.id}: the trail names no target and calls its tools (${own.join(", ")})` };
  const listed = own.slice(0, 3).join(", ") + (own.length > 3 ? ", …" : "");
  return owners.length === 0
    ? `the trail names none; no target declares all the tools it calls (${listed}) in its tools: or toolsets`
    : `the trail names none; ${owners.map((t) => t.id).join(", ")} all declare the tools it calls (${listed})`;
}

/** The driver of the one platform a trail records for, when it records for one only and the target has it. */
function driverFromRecordings(classifiers: readonly string[], target: TargetConfig): DriverInfo | undefined {
  const drivers = [...new Set(classifiers.map(driverOfClassifier).filter((key) => key !== undefined))];
  if (drivers.length !== 1) return undefined;
  const driver = findDriver(drivers[0]!)!;
  const declared = Object.keys(target.platforms);
  return declared.length === 0 || declared.includes(driver.platform.toLowerCase()) ? driver : undefined;
}

/** The platform of a recording key by its lineage root, as upstream derives it (`android-phone` → android), else undefined. */
function platformOfClassifier(key: string): Platform | undefined {
  const driver = driverOfClassifier(key.split("-")[0]!.toLowerCase());
  return driver === undefined ? undefined : findDriver(driver)!.platform;
}

/**
 * The driver `config.devices` pins for the device a run simulates: upstream lowers the pin of the
 * device under test to the trail's driver, and a run here simulates one of the pinned devices. Its
 * platform is the one pinned platform the recordings use when they use exactly one, else the
 * target's first platform with a pin, else the first pin's; of that platform's pins, the first in
 * file order wins (its key is then the session's device key, run/plan.ts deviceKeyFor). Undefined
 * when the trail pins nothing.
 */
function driverFromDevices(
  devices: Record<string, string> | undefined,
  classifiers: readonly string[],
  target: TargetConfig,
): DriverInfo | undefined {
  const pins = Object.entries(devices ?? {}).map(([key, name]) => resolveDriver(name, `trail config.devices.${key}`));
  if (pins.length === 0) return undefined;
  const pinned = new Set(pins.map((pin) => pin.platform));
  const recorded = [...new Set(classifiers.map(platformOfClassifier))].filter((p): p is Platform => p !== undefined && pinned.has(p));
  const declared = Object.keys(target.platforms)
    .map((key) => parsePlatform(key))
    .find((p) => p !== undefined && pinned.has(p));
  const platform = (recorded.length === 1 ? recorded[0] : undefined) ?? declared ?? pins[0]!.platform;
  return pins.find((pin) => pin.platform === platform)!;
}

function defaultDriver(target: TargetConfig): DriverInfo {
  const first = Object.keys(target.platforms)[0];
  const platform = (first && parsePlatform(first)) || "ANDROID";
  return findDriver(DEFAULT_DRIVER[platform])!;
}

/** A session's memory as it starts: the spec's values and secrets, whose values `secrets` masks from then on. */
export function initialMemory(spec: Pick<SessionSpec, "memory" | "secrets">, secrets = new Secrets()): Memory {
  const memory = new Memory(spec.memory, secrets);
  for (const [key, value] of Object.entries(spec.secrets ?? {})) memory.setSecret(key, value);
  return memory;
}

export function generateSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${Buffer.from(crypto.getRandomValues(new Uint8Array(3))).toString("hex")}`;
}

/**
 * Checks the session flags that do not depend on a workspace or a trail (driver, agent, screen,
 * memory, session id) and the timeouts in `env`, so a command reports a bad one once, up front,
 * rather than once per session. Throws UsageError.
 */
export function checkSessionFlags(flags: SessionFlags, env: Record<string, string | undefined>): void {
  if (flags.driver !== undefined) resolveDriver(flags.driver, "--driver");
  if (flags.agent !== undefined) parseAgent(flags.agent);
  if (flags.screen !== undefined) parseScreen(flags.screen);
  parseBrowser(flags.browser);
  // Said once up front, not once per trail.
  if (flags.map !== undefined && flags.start === undefined && flags.capture === undefined) {
    throw new UsageError(`--map needs --start WAYPOINT_ID, the waypoint the device starts at (e.g. --start myapp/android/login)`);
  }
  for (const entry of flags.memory ?? []) parseKeyValue("--memory", entry);
  const id = flags["session-id"];
  if (id !== undefined) checkSessionId(id);
  keepLogs(env);
  logMaxBytes(env);
  try {
    guestBudgetFrom(env);
  } catch (error) {
    throw new UsageError((error as Error).message, { cause: error });
  }
  positiveMs(env.TRAILBLAZE_HANDSHAKE_TIMEOUT_MS, 60_000);
  positiveMs(env.TRAILBLAZE_CALL_TIMEOUT_MS, 60_000);
}

/** `TRAILBLAZE_KEEP_LOGS`: how many sessions a logs folder keeps (0: all). */
export function keepLogs(env: Record<string, string | undefined>): number {
  const text = env.TRAILBLAZE_KEEP_LOGS;
  if (text === undefined || text === "") return DEFAULT_KEEP_SESSIONS;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`TRAILBLAZE_KEEP_LOGS expects a whole number of sessions (0 keeps all), got "${text}"`);
  return n;
}

export function resolveSessionSpec(
  workspace: Workspace,
  flags: SessionFlags,
  context: { cwd: string; env: Record<string, string | undefined>; trail?: TrailSessionHints },
): SessionSpec {
  const trail = context.trail ?? {};
  const { target, why: targetChoice } = pickTarget(workspace, flags.target, context.env, context.trail);

  let driver: DriverInfo;
  if (flags.driver !== undefined) driver = resolveDriver(flags.driver, "--driver");
  else if (trail.driver !== undefined) driver = resolveDriver(trail.driver, "trail config.driver");
  else
    driver =
      driverFromDevices(trail.devices, trail.classifiers ?? [], target) ??
      driverFromRecordings(trail.classifiers ?? [], target) ??
      defaultDriver(target);

  const agent = agentFor(flags.agent, trail.agent);
  const screen = flags.screen !== undefined ? parseScreen(flags.screen) : DEFAULT_SCREEN[driver.platform];
  const simulation = resolveSimulation(flags, target, workspace.root, context.cwd);
  const memory: Record<string, unknown> = { ...trail.memory };
  for (const entry of flags.memory ?? []) {
    const [key, value] = parseKeyValue("--memory", entry);
    memory[key] = value;
  }
  const id = flags["session-id"] ?? generateSessionId();
  checkSessionId(id);
  const browser = resolveBrowser(flags, driver, simulation, context.env);
  if (parseBrowser(flags.browser) === "none") browser.noBrowser = true;
  return {
    id,
    cwd: context.cwd,
    env: context.env,
    configDir: workspace.configDir,
    root: workspace.root,
    target,
    ...(targetChoice ? { targetChoice } : {}),
    toolsets: [...workspace.toolsets.values()],
    driver,
    agent,
    screen,
    ...(simulation ? { simulation } : {}),
    ...browser,
    memory,
    ...(flags["no-logging"] ? {} : { logsDir: sessionLogsDir({ root: workspace.root, cwd: context.cwd }, id, flags.logs) }),
    handshakeTimeoutMs: positiveMs(context.env.TRAILBLAZE_HANDSHAKE_TIMEOUT_MS, 60_000),
    callTimeoutMs: positiveMs(context.env.TRAILBLAZE_CALL_TIMEOUT_MS, 60_000),
  };
}

/** `--browser` as given: chromium, none, or undefined (chromium when one is found). */
function parseBrowser(value: string | undefined): "chromium" | "none" | undefined {
  if (value === undefined) return undefined;
  const wanted = value.trim().toLowerCase();
  if (wanted === "chromium" || wanted === "none") return wanted;
  throw new UsageError(`--browser expects chromium or none, got "${value}"`);
}

/**
 * Whether web_* tools drive a real Chromium: only on the playwright-native driver without a simulated
 * screen, unless --browser none. Without --browser, no Chromium on PATH means a simulated page and a note;
 * with --browser chromium, or a $TRAILBLAZE_CHROMIUM that does not exist, it is a BrowserNotFoundError.
 */
function resolveBrowser(
  flags: SessionFlags,
  driver: DriverInfo,
  simulation: SimulationSpec | undefined,
  env: Record<string, string | undefined>,
): Pick<SessionSpec, "browser" | "browserNote" | "noBrowser"> {
  const wanted = parseBrowser(flags.browser);
  if (wanted === "none" || driver.key !== "playwright-native" || simulation !== undefined) return {};
  try {
    return { browser: { executable: findChromium(env as NodeJS.ProcessEnv) } };
  } catch (error) {
    // A TRAILBLAZE_CHROMIUM that points nowhere is a mistake to fix, not a reason to simulate.
    if (wanted === "chromium" || env.TRAILBLAZE_CHROMIUM || !(error instanceof BrowserNotFoundError)) throw error;
    return { browserNote: `web_* tools simulate the page (their checks are unverified): ${error.message}` };
  }
}

/** A path for messages: relative to `base` when inside it, else absolute. */
function shownPath(path: string, base: string): string {
  const rel = relative(base, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
}

/**
 * The simulated screen: `--capture FILE` or `--map DIR --start ID` (relative to the working
 * directory), else the target's `simulation:` (relative to the workspace root); `--start` alone
 * picks another start on the target's map. Flag mistakes are UsageErrors, checked here once.
 */
function resolveSimulation(flags: SessionFlags, target: TargetConfig, root: string, cwd: string): SimulationSpec | undefined {
  const { capture, map, start } = flags;
  if (capture !== undefined && map !== undefined) {
    throw new UsageError(
      "--capture and --map both set the simulated screen; give --capture FILE (one static screen) or --map DIR --start WAYPOINT_ID (an app map)",
    );
  }
  if (capture !== undefined) {
    if (start !== undefined)
      throw new UsageError(`--start only applies with --map (a capture is one screen; it has no waypoints to start at)`);
    const file = resolve(cwd, capture);
    return { kind: "capture", file, shown: shownPath(file, cwd), origin: { flag: "--capture" } };
  }
  const sim = target.simulation;
  if (map !== undefined) {
    if (start === undefined)
      throw new UsageError(`--map needs --start WAYPOINT_ID, the waypoint the device starts at (e.g. --start myapp/android/login)`);
    const dir = resolve(cwd, map);
    return { kind: "map", dir, shown: shownPath(dir, cwd), start, origin: { flag: "--map" } };
  }
  if (start !== undefined && sim?.kind !== "map") {
    throw new UsageError(
      `--start needs an app map: give --map DIR too, or set simulation: {map: DIR, start: WAYPOINT_ID} in target ${target.id} (${target.where.file})`,
    );
  }
  if (!sim) return undefined;
  if (sim.kind === "capture") {
    const file = resolve(root, sim.capture);
    return { kind: "capture", file, shown: shownPath(file, cwd), origin: { where: sim.where, path: "simulation.capture" } };
  }
  const dir = resolve(root, sim.map);
  return { kind: "map", dir, shown: shownPath(dir, cwd), start: start ?? sim.start, origin: { where: sim.where, path: "simulation.map" } };
}

function positiveMs(value: string | undefined, fallback: number): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`expected a positive number of milliseconds, got "${value}"`);
  return n;
}
