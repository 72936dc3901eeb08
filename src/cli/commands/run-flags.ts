// Upstream's `trailblaze run` flags that choose what runs: --tags (which trails), --args-file (arg
// values from a file), --device and --all-devices (each trail once per platform), --test-name
// (the session id's seed). Each turns flags into suite entries or values, or a located error.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { displayPath } from "../../config/config-files.ts";
import { ConfigError, UsageError } from "../../errors.ts";
import { type DriverInfo, findDriver } from "../../core/drivers.ts";
import type { Workspace } from "../../config/workspace.ts";
import { locate, parseYaml } from "../../core/yaml-file.ts";
import type { SuiteEntry } from "../../run/run-suite.ts";
import { trailHints } from "../../run/plan.ts";
import { generateSessionId, resolveSessionSpec, type SessionFlags } from "../../session/session-spec.ts";
import { CLASSIFIER_DRIVERS, driverOfClassifier } from "../../trail/select-recording.ts";
import type { Trail } from "../../trail/trail-types.ts";

/** `--tags a,b --tags c` as one list of names. */
export function parseTags(values: readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const tags = values
    .flatMap((value) => value.split(","))
    .map((tag) => tag.trim())
    .filter(Boolean);
  if (tags.length === 0) throw new UsageError("run: --tags expects one or more tag names, e.g. --tags smoke,login");
  return tags;
}

/** The trails that carry at least one of `tags` (upstream: any of them; untagged trails are left out). */
export function withTags(entries: readonly SuiteEntry[], tags: readonly string[]): SuiteEntry[] {
  return entries.filter(({ trail }) => trail.tags.some((tag) => tags.includes(tag)));
}

/**
 * `--args-file FILE`: a YAML or JSON map of arg name to value, as strings the way `--arg` gives
 * them (a list or map as JSON, which a declared array/object arg reads). A null value is an error.
 */
export function readArgsFile(file: string, cwd: string): Record<string, string> {
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`run: --args-file ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const shown = displayPath(path, cwd);
  const yaml = parseYaml(shown, text);
  const data = yaml.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    throw new ConfigError([
      {
        file: shown,
        line: 1,
        col: 1,
        path: "",
        message: "--args-file expects a map of arg name to value, e.g. `recipient: sam@example.com`",
      },
    ]);
  }
  const args: Record<string, string> = {};
  for (const [name, value] of Object.entries(data)) {
    if (value === null || value === undefined) {
      throw new ConfigError([{ ...locate(yaml, [name]), path: name, message: "an arg has no null value; write '' for an empty string" }]);
    }
    args[name] = typeof value === "object" ? JSON.stringify(value) : String(value);
  }
  return args;
}

/** A simulated device a trail runs on: the label its results carry, and the driver of its platform. */
interface Device {
  label: string;
  driver: string;
}

/** `--device android,ios --device web/chrome`: each a platform, or platform/instance id (kept as the label). */
export function parseDevices(values: readonly string[] | undefined): Device[] | undefined {
  if (values === undefined) return undefined;
  return values
    .flatMap((value) => value.split(","))
    .map((text) => {
      const label = text.trim();
      const platform = label.split("/")[0]!.toLowerCase();
      const driver = driverOfClassifier(platform);
      if (driver === undefined) {
        throw new UsageError(
          `run: --device ${label}: name a platform (android, ios, web or desktop), optionally with an id (android/pixel-8); ` +
            "this runtime simulates the device, so there is no connected device to pick by id alone",
        );
      }
      return { label, driver };
    });
}

/** What a driver runs as among --device's names: `desktop` for Compose, else its platform. */
function deviceKind(driver: DriverInfo): string {
  return driver.key === CLASSIFIER_DRIVERS.desktop ? "desktop" : driver.platform.toLowerCase();
}

/** The drivers the trail's `config.devices` pins, in file order. */
function pinnedDrivers(trail: Trail): DriverInfo[] {
  return Object.values(trail.devices)
    .map((key) => findDriver(key))
    .filter((driver) => driver !== undefined);
}

/**
 * The driver a device named `label` (`android`, `android/pixel-8`, `desktop`…) runs on for `trail`:
 * the trail's pin of that kind of device, the first in file order, as a plain run uses its pin;
 * else `fallback`, the platform's default driver.
 */
function driverFor(trail: Trail, label: string, fallback: string): string {
  const kind = label.split("/")[0]!.toLowerCase();
  return pinnedDrivers(trail).find((driver) => deviceKind(driver) === kind)?.key ?? fallback;
}

/** The platforms a trail supports: its devices' drivers, else its recording keys, else its target's platforms. */
function supportedDevices(trail: Trail, workspace: Workspace | undefined): Device[] {
  const fromDevices = pinnedDrivers(trail);
  if (fromDevices.length > 0) return [...new Map(fromDevices.map((d) => [d.key, { label: deviceKind(d), driver: d.key }])).values()];
  const classifiers = new Set(trail.steps.flatMap((step) => Object.keys(step.recordings)).map((key) => key.toLowerCase()));
  const recorded = Object.keys(CLASSIFIER_DRIVERS).filter((key) => classifiers.has(key));
  if (recorded.length > 0) return recorded.map((label) => ({ label, driver: driverOfClassifier(label)! }));
  const target = trail.target === undefined ? undefined : workspace?.targets.get(trail.target);
  return Object.keys(target?.platforms ?? {}).flatMap((key) => {
    const driver = driverOfClassifier(key);
    return driver === undefined ? [] : [{ label: key, driver }];
  });
}

/**
 * `--device P` for a trail whose target declares platforms without P: a usage error before any
 * trail starts, naming the target, its platforms and its file (each trail's target is chosen as
 * its session chooses it; a trail whose session cannot be resolved fails on its own when it runs).
 */
export function checkDevicesOnTargets(
  entries: readonly SuiteEntry[],
  devices: readonly Device[],
  workspace: Workspace,
  flags: SessionFlags,
  context: { cwd: string; env: Record<string, string | undefined> },
): void {
  const problems = new Set<string>();
  for (const entry of entries) {
    for (const device of devices) {
      const platform = findDriver(device.driver)?.platform.toLowerCase();
      let target;
      try {
        ({ target } = resolveSessionSpec(
          workspace,
          { ...flags, driver: device.driver, browser: "none", "no-logging": true },
          { ...context, trail: trailHints(entry.trail) },
        ));
      } catch {
        continue;
      }
      const platforms = Object.keys(target.platforms);
      if (platform === undefined || platforms.length === 0 || platforms.includes(platform)) continue;
      const on = device.label.split("/")[0]!.toLowerCase() === platform ? "" : ` (a ${platform} device)`;
      problems.add(
        `run: --device ${device.label}${on}: target ${target.id} has no ${platform} platform, only ${platforms.join(", ")} ` +
          `(platforms: in ${displayPath(target.file, context.cwd)}); name one of those, or add ${platform} to the target`,
      );
    }
  }
  if (problems.size > 0) throw new UsageError([...problems].join("\n"));
}

/**
 * One entry per trail and device: `devices` for every trail (--device), or each trail's own
 * supported platforms (--all-devices; a trail that names none runs once, as without the flag).
 * A device runs on the trail's `config.devices` pin for its kind when the trail has one.
 */
export function perDevice(
  entries: readonly SuiteEntry[],
  devices: readonly Device[] | "all",
  workspace: Workspace | undefined,
): SuiteEntry[] {
  return entries.flatMap((entry) => {
    const chosen = devices === "all" ? supportedDevices(entry.trail, workspace) : devices;
    if (chosen.length === 0) return [entry];
    return chosen.map((device) => ({
      ...entry,
      trail: { ...entry.trail, id: `${entry.trail.id} [${device.label}]` },
      driver: driverFor(entry.trail, device.label, device.driver),
    }));
  });
}

/**
 * The longest seed: each session id is `<seed>-<generated id>` (run-suite.ts), and a session id
 * is at most 128 characters (core/log-layout.ts).
 */
export const MAX_SEED_LENGTH = 128 - "-".length - generateSessionId(new Date(0)).length;

/**
 * `--test-name NAME` as a session id seed that always makes a valid session id: the characters a
 * folder name may hold, starting with a letter or digit (no leading `.`, `_` or `-`), at most
 * MAX_SEED_LENGTH of them.
 */
export function testNameSeed(name: string): string {
  const seed = name
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[._-]+/, "")
    .slice(0, MAX_SEED_LENGTH)
    .replace(/-+$/, "");
  if (seed === "") throw new UsageError(`run: --test-name expects a name with letters or digits, got "${name}"`);
  return seed;
}
