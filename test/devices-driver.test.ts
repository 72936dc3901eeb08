// A trail's config.devices: decides its driver, as upstream resolves the pin of the device under
// test: a plain run simulates one of the pinned devices and uses its driver; --driver still
// overrides a pin; --device and --all-devices run each pinned platform on its pin. On a workspace shaped like
// upstream's trails/ (fixtures/upstream-devices).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { loadWorkspace } from "../src/config/workspace.ts";
import { trailHints } from "../src/run/plan.ts";
import { resolveSessionSpec, type SessionFlags, type TrailSessionHints } from "../src/session/session-spec.ts";
import { readTrailFiles } from "../src/trail/trail-file.ts";
import { cli, REPO } from "./support/cli.ts";

const ROOT = join(REPO, "fixtures/upstream-devices");
const OPEN = "trails/contacts/open-contacts-app/trail.yaml";
const MULTI = "trails/contacts/multi-platform/trail.yaml";
const IOS = "trails/contacts/ios-recorded/trail.yaml";
const SEARCH = "trails/android-ondevice-instrumentation/contacts/search.trail.yaml";

interface Report {
  trails: { file: string; id: string; status: string; session: { driver: string; deviceKey?: string } }[];
}

/** Each trail's status, driver and device key, from a run's JSON report. */
async function sessions(...argv: string[]): Promise<string[][]> {
  const run = await cli(["run", ...argv, "--reporter", "json", "--no-logging"], { cwd: ROOT });
  expect(run.stderr).toBe("");
  const report = JSON.parse(run.stdout) as Report;
  return report.trails.map((t) => [t.id, t.status, t.session.driver, t.session.deviceKey ?? "-"]);
}

describe("config.devices: decides the driver", () => {
  test("a plain run uses the pinned driver: two pins for one platform, one pin per platform, one device class", async () => {
    // (Statuses: with no screen loaded only open-contacts-app checks something, an assertion on
    // memory; the others launch, type and remember a value, which checks nothing.)
    expect(await sessions(OPEN, MULTI, SEARCH)).toEqual([
      // android-phone and android both pinned: the first is the simulated device.
      ["contacts/open-contacts-app", "passed", "android-ondevice-instrumentation", "android-phone"],
      // android and ios pinned, recordings for both: the target's first platform, android.
      ["contacts/multi-platform", "unverified", "android-ondevice-instrumentation", "android"],
      ["contacts/search", "unverified", "android-ondevice-instrumentation", "android-phone"],
    ]);
  });

  test("the pinned platform the recordings use wins over the target's first platform", async () => {
    expect(await sessions(IOS)).toEqual([["contacts/ios-recorded", "unverified", "ios-axe", "ios"]]);
  });

  test("--driver overrides a pin", async () => {
    expect(await sessions(MULTI, "--driver", "android-ondevice-accessibility")).toEqual([
      ["contacts/multi-platform", "unverified", "android-ondevice-accessibility", "-"],
    ]);
  });

  test("--all-devices runs each pinned platform on its pin", async () => {
    expect(await sessions(MULTI, OPEN, "--all-devices")).toEqual([
      ["contacts/multi-platform [android]", "unverified", "android-ondevice-instrumentation", "android"],
      ["contacts/multi-platform [ios]", "unverified", "ios-host", "ios"],
      ["contacts/open-contacts-app [android]", "passed", "android-ondevice-instrumentation", "android-phone"],
    ]);
  });

  test("--device runs each named platform on the trail's pin for it, as a plain run does; an unpinned one on its default driver", async () => {
    // (Statuses as in a plain run: only open-contacts-app checks something, an assertion on memory.)
    expect(await sessions(MULTI, OPEN, SEARCH, "--device", "android,ios")).toEqual([
      ["contacts/multi-platform [android]", "unverified", "android-ondevice-instrumentation", "android"],
      ["contacts/multi-platform [ios]", "unverified", "ios-host", "ios"],
      // Two android pins: the first in file order, whose recordings are under its device key.
      ["contacts/open-contacts-app [android]", "passed", "android-ondevice-instrumentation", "android-phone"],
      // No ios pin and no ios recording: iOS's default driver, and the step has nothing to replay.
      ["contacts/open-contacts-app [ios]", "failed", "ios-host", "-"],
      ["contacts/search [android]", "unverified", "android-ondevice-instrumentation", "android-phone"],
      ["contacts/search [ios]", "failed", "ios-host", "-"],
    ]);
    // A device named with an id is the same kind of device.
    expect(await sessions(IOS, "--device", "ios/iphone-15")).toEqual([
      ["contacts/ios-recorded [ios/iphone-15]", "unverified", "ios-axe", "ios"],
    ]);
  });

  test("check plans each trail's session on its pinned driver", async () => {
    const run = await cli(["check"], { cwd: ROOT });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "Checked trails/config: 1 target(s), 0 toolset(s), 4 trail file(s), 2 session(s)\n" +
        "  contacts · android-ondevice-instrumentation · host: 65 tools, 30 skipped, 3 trail(s)\n" +
        "  contacts · ios-axe · host: 57 tools, 38 skipped, 1 trail(s)\n\n" +
        "✓ no problems found\n",
    );
  });

  test("the rule, through resolveSessionSpec: pins, recordings and the target's platforms", async () => {
    const workspace = await loadWorkspace(join(ROOT, "trails/config"), { cwd: ROOT });
    const { trails } = await readTrailFiles([MULTI], ROOT);
    const multi = trailHints(trails[0]!);
    const driverOf = (hints: TrailSessionHints, flags: SessionFlags = {}) =>
      resolveSessionSpec(workspace, { "session-id": "t", "no-logging": true, ...flags }, { cwd: ROOT, env: {}, trail: hints }).driver.key;
    expect(driverOf(multi)).toBe("android-ondevice-instrumentation");
    // The pin of the platform the recordings use.
    expect(driverOf({ ...multi, classifiers: ["ios"] })).toBe("ios-host");
    // A recording key's platform is its lineage root: ios-ipad is ios.
    expect(driverOf({ ...multi, classifiers: ["ios-ipad", "tools"] })).toBe("ios-host");
    // Neither recordings nor the target's platforms pick among the pins: the first pin's platform,
    // and of its pins the first in file order.
    expect(driverOf({ ...multi, devices: { web: "playwright-electron", desktop: "compose" }, classifiers: [] })).toBe(
      "playwright-electron",
    );
    // No pins: the recordings' platform, else the target's first platform's default driver.
    expect(driverOf({ ...multi, devices: {}, classifiers: ["ios"] })).toBe("ios-host");
    expect(driverOf({ ...multi, devices: {}, classifiers: [] })).toBe("android-ondevice-accessibility");
    // The trail's own driver: wins over its pins; --driver wins over both.
    expect(driverOf({ ...multi, driver: "android-test" })).toBe("android-test");
    expect(driverOf(multi, { driver: "revyl-android" })).toBe("revyl-android");
  });
});
