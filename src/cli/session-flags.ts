// The session flags as the CLI reads them: the option table every session command spreads into
// its parser, their --help text, and --secret (a value, or the name of an environment variable).
// What the flags mean is resolved by session/session-spec.ts.

import { UsageError } from "../errors.ts";
import { parseKeyValue } from "../session/session-spec.ts";

export const SESSION_FLAG_OPTIONS = {
  config: { type: "string" },
  target: { type: "string" },
  driver: { type: "string" },
  agent: { type: "string" },
  screen: { type: "string" },
  memory: { type: "string", multiple: true },
  "session-id": { type: "string" },
  logs: { type: "string" },
  "no-logging": { type: "boolean" },
  "require-screen": { type: "boolean" },
  capture: { type: "string" },
  map: { type: "string" },
  start: { type: "string" },
  browser: { type: "string" },
} as const;

export const SESSION_FLAGS_HELP = `Session flags:
  --config DIR          config folder: trailblaze-config/, or upstream's trails/config/ holding
                        trailblaze.yaml (default: $TRAILBLAZE_CONFIG_DIR, else the nearest
                        one walking up from the working directory)
  --target ID|APP_ID    target id, or an app id one target lists (default: the trail's target,
                        else $TRAILBLAZE_TARGET, else the only target, else defaults: target: in
                        trailblaze.yaml, else the built-in default, which a note names)
  --driver KEY          driver yaml key or enum, e.g. android-ondevice-accessibility, ios-host
                        (default: the trail's single device, else the target's first platform)
  --agent MODE          host | on-device (default: host)
  --screen WxH          device size in pixels (default per platform, e.g. 1080x2400 on Android)
  --memory KEY=VALUE    initial session memory (repeatable)
  --session-id ID       id used for logs and TRAILBLAZE_SESSION_ID: one folder name, 1 to 128
                        letters, digits, ".", "_" and "-", starting with a letter or digit
                        (default: generated)
  --logs DIR            logs folder (default: logs/ at the workspace root)
  --no-logging          write no log files (stderr tails still show in errors)
  --capture FILE        a screen for the simulated device: one captured screen (JSON), so taps and
                        screen checks are verified against it (default: the target's simulation:)
  --map DIR             a screen for the simulated device: an app map (waypoints/, shortcuts/); actions
                        that are a shortcut's move the device to its waypoint. Needs --start
  --start WAYPOINT_ID   the waypoint the device starts at, with --map or the target's simulation.map
  --require-screen      a step that checked nothing for real fails: a screen check with no screen
                        loaded, a step whose calls only acted on a device with no screen (default:
                        the step is unverified)
  --browser chromium|none  web sessions on playwright-native: chromium drives a real headless
                        Chromium ($TRAILBLAZE_CHROMIUM, else chromium on PATH; an error when none
                        is found), none simulates the page (default: chromium when one is found,
                        else simulated with a note; --capture/--map simulate)`;

/** `--secret KEY=VALUE`, or `--secret KEY`: the value of the environment variable KEY (kept out of `ps` and shell history). */
export function parseSecrets(
  command: string,
  entries: readonly string[] | undefined,
  env: Record<string, string | undefined>,
): [string, string][] {
  return (entries ?? []).map((entry) => {
    if (entry.includes("=")) return parseKeyValue("--secret", entry);
    const value = env[entry];
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(entry) || value === undefined) {
      throw new UsageError(
        `${command}: --secret ${entry}: give KEY=VALUE, or KEY alone to read the environment variable KEY, which is not set`,
      );
    }
    return [entry, value];
  });
}
