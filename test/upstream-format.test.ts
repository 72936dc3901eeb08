// Trails written the way upstream Trailblaze records them (fixtures/upstream-format: targets named
// by app id, `*.trail.yaml` and `trail.yaml`, every framework tool with upstream's parameter names)
// pass `check` with no findings, and run with no failure: with no screen loaded, only the trail
// whose assertions on memory checked something passes; the others read unverified.
import { describe, expect, test } from "bun:test";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, REPO, tempDir } from "./support/cli.ts";

const FIXTURE = join(REPO, "fixtures/upstream-format");

type Json = Record<string, any>;

describe("upstream-format fixtures", () => {
  test("check: no findings in any of the three sessions", async () => {
    const run = await cli(["check", "--json"], { cwd: FIXTURE });
    const doc = JSON.parse(run.stdout);
    expect({ code: run.code, ok: doc.ok, findings: doc.findings }).toEqual({ code: 0, ok: true, findings: [] });
    expect(doc.trails).toEqual([
      "trails/compose/board/board.trail.yaml",
      "trails/mobile/device-actions.trail.yaml",
      "trails/mobile/trail.yaml",
      "trails/web/shop/trail.yaml",
    ]);
    expect(doc.sessions.map((s: Json) => `${s.target} · ${s.driver}`).sort()).toEqual([
      "sampler · android-ondevice-accessibility",
      "sampler · compose",
      "sampler · playwright-native",
    ]);
  });

  test("run: nothing fails; only the trail whose assertions on memory checked something passes, and every other step says why it is unverified", async () => {
    // The web trail's pages are made up (example.test): its page is simulated, not opened in Chromium.
    const run = await cli(["run", "trails", "--browser", "none", "--reporter", "json", "--logs", tempDir("upstream-logs")], {
      cwd: FIXTURE,
    });
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.summary).toMatchObject({ passed: 1, unverifiedTrails: 3, failed: 0, errors: 0, skipped: 0, unverified: 12 });
    // With no screen loaded, screen checks could not be made ("no screen loaded"), and actions on the
    // device, memory writes and reports checked nothing: a trail passes only by a step that checked
    // something for real (sampler-device-actions' assertEquals, assertNotEquals and assertMath).
    const kind = (s: Json) =>
      s.status !== "unverified" ? s.status : s.unverified === "no screen loaded" ? "no screen" : "nothing checked";
    expect(doc.trails.map((t: Json) => [t.id, t.status, t.steps.map(kind)])).toEqual([
      ["sampler-compose", "unverified", ["no screen", "no screen"]],
      [
        "sampler-device-actions",
        "passed",
        ["nothing checked", "nothing checked", "passed", "nothing checked", "nothing checked", "nothing checked"],
      ],
      ["sampler-screen-checks", "unverified", ["no screen", "no screen"]],
      ["sampler-web", "unverified", ["nothing checked", "no screen", "no screen"]],
    ]);
    const actions = doc.trails.find((t: Json) => t.id === "sampler-device-actions");
    expect(actions.steps[0].unverified).toBe("nothing checked: launchApp acted on a simulated device with no screen loaded");
    expect(actions.steps[5].unverified).toBe(
      "nothing checked: rememberValue, dumpMemory, forgetValue only used session memory; objectiveStatus only reported a status",
    );
    expect(actions.steps[4].tools[0].result).toMatchObject({
      status: "success",
      unchecked: "answered from a simulated device with no screen loaded",
    });
    const web = doc.trails.find((t: Json) => t.id === "sampler-web");
    const network = web.steps[2].tools.find((c: Json) => c.name === "web_assertNetworkEvent");
    expect(network.result).toMatchObject({ status: "success", unverified: "no network traffic is simulated" });
    // The app id in config.target resolved to the one target listing it.
    expect(doc.trails.find((t: Json) => t.id === "sampler-screen-checks").session.target).toBe("sampler");
  });

  test("--require-screen turns an unverified screen check into a failure", async () => {
    const run = await cli(
      ["run", "trails/mobile/trail.yaml", "--require-screen", "--reporter", "json", "--logs", tempDir("upstream-logs")],
      { cwd: FIXTURE },
    );
    expect(run.code).toBe(1);
    const trail = JSON.parse(run.stdout).trails[0];
    expect(trail.status).toBe("failed");
    expect(trail.steps[0].failure).toMatchObject({
      tool: "tap",
      line: 11,
      col: 11,
      message:
        'unverified: no screen loaded, and --require-screen makes that a failure (unverified: no screen loaded (tap ref "y778" recorded; would check that ref "y778" is on the screen))',
    });
  });

  test("a wrong parameter name is a trail-args finding at its line, and run refuses the trail before any step", async () => {
    const dir = tempDir("upstream-copy");
    cpSync(FIXTURE, dir, { recursive: true });
    const file = join(dir, "trails/mobile/device-actions.trail.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("- wait: { timeToWaitInSeconds: 0 }", "- wait: { seconds: 0 }"));
    const message = "wait: seconds: not a parameter of wait (it takes timeToWaitInSeconds)";
    const check = await cli(["check", "--json"], { cwd: dir });
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).findings).toEqual([
      {
        severity: "error",
        kind: "trail-args",
        message: `trails/mobile/device-actions.trail.yaml:40:19 step 4 "Keys, gestures, network and waits": ${message}`,
        file: "trails/mobile/device-actions.trail.yaml",
        line: 40,
        col: 19,
        tool: "wait",
        session: "sampler · android-ondevice-accessibility · host",
      },
    ]);
    const run = await cli(["run", "trails/mobile/device-actions.trail.yaml", "--reporter", "json", "--logs", tempDir("upstream-logs")], {
      cwd: dir,
    });
    expect(run.code).toBe(2);
    const trail = JSON.parse(run.stdout).trails[0];
    expect({ status: trail.status, steps: trail.steps, error: trail.error }).toEqual({ status: "error", steps: [], error: message });
  });

  test("an app id no target lists, or several do, is an error naming the candidates", async () => {
    const dir = tempDir("upstream-ids");
    cpSync(FIXTURE, dir, { recursive: true });
    const unknown = await cli(["run", "trails/mobile/trail.yaml", "--target", "com.example.nope", "--logs", tempDir("upstream-logs")], {
      cwd: dir,
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toContain(
      `unknown target "com.example.nope" in ${join(dir, "trailblaze-config")}: no target has that id or lists it as an app id; known targets: sampler; known app ids: com.example.sampler`,
    );
    writeFileSync(
      join(dir, "trailblaze-config/targets/twin.yaml"),
      "id: twin\nplatforms:\n  android: { app_ids: [com.example.sampler] }\n",
    );
    const several = await cli(["run", "trails/mobile/trail.yaml", "--logs", tempDir("upstream-logs")], { cwd: dir });
    expect(several.code).toBe(2);
    expect(several.stdout).toContain(
      'app id "com.example.sampler" is listed by several targets (sampler, twin); name the target id instead, e.g. --target sampler',
    );
  });
});
