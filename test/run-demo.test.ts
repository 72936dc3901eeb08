// The demo workspace end to end: `run trails/` passes with a live report, the
// failing example reads well, JSON and JUnit outputs hold their shapes, `--list`
// plans without starting anything, and validation messages for filtered tools.

import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../src/cli/cli.ts";
import { childrenNamed, parseXml } from "./support/xml.ts";
import { cli, REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const DEMO = join(REPO, "fixtures/demo");
const RUN = join(REPO, "fixtures/run");
type Json = Record<string, any>;

describe("the demo's trails/", () => {
  test("all pass: a live line per step, then the summary; exit 0", async () => {
    const run = await cli(["run", "trails", "--logs", tempDir("demo-logs")], { cwd: DEMO });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("\u001b[");
    // The demo has no screen loaded: a step that only acts on the device (the trailhead's launchApp)
    // checks nothing and is unverified, saying so; each trail passes by a step checked for real (a
    // tool's own result, an assertion on memory).
    expect(run.stdout).toContain(
      ["trails/login.trail.yaml (login-with-generated-user — Log in with a generated user)", "  ⚠ [trailhead] Launch the app ("].join("\n"),
    );
    expect(run.stdout).toContain(
      [
        "      ↳ simulated device: launchApp com.example.myapp (FORCE_RESTART)",
        "      ⚠ nothing checked: launchApp acted on a simulated device with no screen loaded",
        "  ✓ Generate a test user (",
      ].join("\n"),
    );
    expect(run.stdout).toContain("      ↳ myapp_logInWithEmail: logged in as grace.4323@example.com on ANDROID\n");
    expect(run.stdout).toContain("trails/settings-list-form.trail.yaml (settings-list-form — Open settings and go back)\n");
    expect(run.stdout).toMatch(/\n4 passed, 0 failed, 7 unverified steps \(4 trails\) in [\d.]+ m?s\n$/);
  });

  test("from outside the workspace, the config folder above the trails is used and scripts resolve in its workspace", async () => {
    const run = await cli(["run", "fixtures/demo/trails/login.trail.yaml", "--logs", tempDir("demo-logs")], {
      cwd: REPO,
      env: { TRAILBLAZE_CONFIG_DIR: undefined },
    });
    expect(run.stderr).toBe("note: using fixtures/demo/trailblaze-config, found above the given paths\n");
    expect(run.code).toBe(0);
    // The report names the trail as typed; script: paths resolve in the workspace all the same.
    expect(run.stdout).toStartWith("fixtures/demo/trails/login.trail.yaml (login-with-generated-user — Log in with a generated user)\n");
    expect(run.stdout).toMatch(/\n1 passed, 0 failed, 2 unverified steps \(1 trail\) in [\d.]+ m?s\n$/);
  });

  test("`npm run demo` (the README's main-job command) runs them as a real process: exit 0", async () => {
    const script = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).scripts.demo;
    expect(script).toBe("cd fixtures/demo && bun --no-install ../../src/cli/main.ts run trails");
    const child = Bun.spawn(["sh", "-c", script], { cwd: REPO, env: { ...process.env, PATH: TEST_PATH }, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toMatch(/\n4 passed, 0 failed, 7 unverified steps \(4 trails\) in [\d.]+ m?s\n$/);
  });

  test("--reporter json: the documented shape (docs/formats.md), simulated actions with timestamps", async () => {
    // No --arg: each trail of a folder run must declare every arg given (upstream), and only signup-with-args declares seed.
    const run = await cli(["run", "trails", "--reporter", "json", "--logs", tempDir("demo-logs")], { cwd: DEMO });
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(Object.keys(doc)).toEqual(["version", "trails", "summary"]);
    expect(doc.summary).toMatchObject({ passed: 4, failed: 0, errors: 0, skipped: 0, unverified: 7 });
    // (typeof checks: bun's toMatchObject with expect.any() rewrites the object it inspects)
    for (const trail of doc.trails) {
      expect([typeof trail.file, typeof trail.id, trail.status, typeof trail.durationMs]).toEqual(["string", "string", "passed", "number"]);
      for (const step of trail.steps) {
        // The demo has no screen loaded: taps on an element are unverified, and a step whose calls
        // only acted on the device (or wrote memory) checked nothing.
        const why = step.status === "unverified" && (step.unverified === "no screen loaded" ? "no screen" : step.unverified.split(":")[0]);
        expect([typeof step.title, why || step.status]).toEqual(["string", expect.stringMatching(/^(passed|no screen|nothing checked)$/)]);
        for (const tool of step.tools)
          expect([typeof tool.name, tool.result.status, tool.result.variant]).toEqual(["string", "success", "Success"]);
      }
    }
    const signup = doc.trails.find((t: Json) => t.id === "signup-with-args");
    expect(signup.steps[0].tools[0].args).toEqual({ seed: 42, domain: "example.com" });
    const launch = signup.steps[1].tools[0];
    const { at, ...action } = launch.result.structuredContent.simulatedDevice;
    expect(action).toEqual({ action: "launchApp", app: "com.example.myapp", launchMode: "REINSTALL" });
    expect(Date.parse(at)).toBeGreaterThan(Date.parse(signup.startedAt) - 1);
  });
});

describe("the failing example", () => {
  test("exits 1 with a failure a newcomer can read", async () => {
    const run = await cli(["run", "trails-failing", "--logs", tempDir("demo-logs")], { cwd: DEMO });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/\n {2}✗ \[verify\] The greeting names the test user \(\d+ ms\)\n/);
    expect(run.stdout).toContain(
      [
        "      tool:    assertEquals (trails-failing/wrong-greeting.trail.yaml:18:11)",
        '      args:    {"actual":"Hello Ada","expected":"Hello Test","message":"greeting after login"}',
        '      error:   ExceptionThrown: greeting after login: expected "Hello Test" but was "Hello Ada"',
        "  - Log out (not run)",
        "  failed in ",
      ].join("\n"),
    );
    expect(run.stdout).toContain(
      '\nNot passed:\n  ✗ trails-failing/wrong-greeting.trail.yaml (wrong-greeting): step 2 failed: assertEquals: greeting after login: expected "Hello Test" but was "Hello Ada"\n',
    );
  });

  test("--reporter junit --output: loads as JUnit XML (a testsuite per file, a testcase per trail)", async () => {
    const out = join(tempDir("demo-report"), "nested/report.xml");
    const run = await cli(["run", "trails", "trails-failing", "--reporter", "junit", "--output", out, "--logs", tempDir("demo-logs")], {
      cwd: DEMO,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toEndWith(`junit report written to ${out}\n`);
    const doc = parseXml(readFileSync(out, "utf8"));
    expect(doc.attrs).toMatchObject({ tests: "5", failures: "1", errors: "0", skipped: "0" });
    const suites = childrenNamed(doc, "testsuite");
    expect(suites.map((s) => s.attrs.name)).toEqual([
      "trails/login.trail.yaml",
      "trails/seed-backend.trail.yaml",
      "trails/settings-list-form.trail.yaml",
      "trails/signup-with-args.trail.yaml",
      "trails-failing/wrong-greeting.trail.yaml",
    ]);
    const failing = childrenNamed(suites[4]!, "testcase")[0]!;
    expect(failing.attrs.name).toBe("wrong-greeting");
    const failure = childrenNamed(failing, "failure")[0]!;
    expect(failure.attrs).toEqual({
      message: 'step 2 failed: assertEquals: greeting after login: expected "Hello Test" but was "Hello Ada"',
      type: "ExceptionThrown",
    });
    expect(failure.text).toContain('ExceptionThrown: greeting after login: expected "Hello Test" but was "Hello Ada"');
  });
});

describe("validation messages for filtered tools", () => {
  test("on-device: a host-only tool fails the trail before any step", async () => {
    const run = await cli(
      ["run", "trails/seed-backend.trail.yaml", "--agent", "on-device", "--reporter", "json", "--logs", tempDir("demo-logs")],
      { cwd: DEMO },
    );
    expect(run.code).toBe(2);
    const trail = JSON.parse(run.stdout).trails[0];
    expect(trail).toMatchObject({
      status: "error",
      steps: [],
      error: "this trail references myapp_seedBackend, which is host-only and not registered in this on-device session",
    });
    expect(trail.problems[0]).toMatchObject({ line: 13, col: 11, step: 1, tool: "myapp_seedBackend" });
  });

  test("a tool another _meta filter skipped names the key that excluded it", async () => {
    const file = join(tempDir("demo-trail"), "keychain.trail.yaml");
    writeFileSync(
      file,
      "config: { id: keychain }\ntrail:\n  - step: Reset\n    recording:\n      tools:\n        - myapp_ios_resetKeychain: {}\n",
    );
    const run = await cli(["run", file, "--reporter", "json", "--logs", tempDir("demo-logs")], { cwd: DEMO });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).trails[0].error).toBe(
      'myapp_ios_resetKeychain is not registered in this session: _meta["trailblaze/supportedPlatforms"] of tools/myapp/login.ts excluded it ' +
        "(supports platforms [ios], session platform is android)",
    );
  });
});

describe("run --list", () => {
  test("prints each trail's session, steps and chosen calls without starting anything", async () => {
    const run = await cli(["run", "trails/login.trail.yaml", "--list", "--driver", "ios-host"], { cwd: DEMO });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        "trails/login.trail.yaml (login-with-generated-user — Log in with a generated user)",
        "  session: target myapp · driver ios-host (IOS) · agent host · replays recordings for ios, all, tools",
        "  1. [trailhead] Launch the app (recording: tools)",
        '       launchApp {"appId":"com.example.myapp","launchMode":"FORCE_RESTART"}',
        "  2. Generate a test user (recording: tools)",
        '       myapp_generateUser {"seed":1}',
        "  3. Log in with the generated e-mail",
        "       (no recording for this session: the built-in agent does it from its words, with a model)",
        "  4. [verify] The greeting names the user (recording: tools)",
        '       assertEquals {"actual":"{{greeting}}","expected":"Hello Grace.4323"}',
        '       assertEquals {"actual":"{{loggedInAs}}","expected":"${email}"}',
        "  5. Log out (recording: tools)",
        "       myapp_logOut {}",
        "       dumpMemory {}",
        "",
        "1 trail file(s) planned.",
        "",
      ].join("\n"),
    );
  });

  test("every file that does not parse is reported; exit 2", async () => {
    const dir = tempDir("list-trails");
    writeFileSync(join(dir, "a-good.trail.yaml"), "trail:\n  - step: Fine\n    recording: { tools: [ { launchApp: { appId: x } } ] }\n");
    writeFileSync(join(dir, "b-bad.trail.yaml"), "trail:\n  - stpe: Typo\n");
    writeFileSync(join(dir, "c-bad.trail.yaml"), "config: { id: [nope] }\ntrail: []\n");
    const run = await cli(["run", dir, "--list"], { cwd: DEMO });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain(`${dir}/a-good.trail.yaml (a-good)\n`);
    expect(run.stderr).toStartWith("error: 2 configuration problems:\n");
    expect(run.stderr).toContain(`${dir}/b-bad.trail.yaml:2:5`);
    expect(run.stderr).toContain(`${dir}/c-bad.trail.yaml:1:15`);
  });
});

describe("colours", () => {
  const runSkipped = async (env: Record<string, string | undefined>, isTTY: boolean) => {
    let stdout = "";
    const code = await runCli(["run", "trails/skipped.trail.yaml"], {
      stdout: (t) => void (stdout += t),
      stderr: () => {},
      cwd: RUN,
      env: { ...process.env, PATH: TEST_PATH, NO_COLOR: undefined, ...env },
      isTTY,
    });
    expect(code).toBe(0);
    return stdout;
  };

  test("on a terminal unless NO_COLOR is set; never when stdout is not a terminal", async () => {
    expect(await runSkipped({}, true)).toContain("\u001b[33mskipped\u001b[39m");
    expect(await runSkipped({ NO_COLOR: "1" }, true)).not.toContain("\u001b[");
    expect(await runSkipped({}, false)).not.toContain("\u001b[");
  });
});

describe("from a subfolder of the workspace", () => {
  test("run finds the config above and resolves script: paths against the workspace root", async () => {
    const logs = tempDir("demo-subfolder-logs");
    const run = await cli(["run", "login.trail.yaml", "--logs", logs], {
      cwd: join(DEMO, "trails"),
      env: { TRAILBLAZE_CONFIG_DIR: undefined },
    });
    expect(run.stderr).not.toContain("not found");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("\n1 passed, 0 failed, 2 unverified steps (1 trail)");
  });
});

describe("a reader that closes the pipe early (run … | head -1)", () => {
  test("the CLI stops quietly: no EPIPE trace, the exit status it earned", async () => {
    const child = Bun.spawn([process.execPath, join(REPO, "src/cli/main.ts"), "run", "trails", "--logs", tempDir("epipe-logs")], {
      cwd: DEMO,
      env: { ...process.env, PATH: TEST_PATH, NO_COLOR: "1" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = child.stdout.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toStartWith("trails/");
    await reader.cancel();
    const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
    expect(stderr).not.toContain("EPIPE");
    expect(stderr).not.toContain("internal error");
    expect(code).toBe(0);
  });
});

describe("a bad session flag", () => {
  test("is reported once, before any trail, with exit 2", async () => {
    const run = await cli(["run", "trails", "--screen", "abc"], { cwd: DEMO });
    expect(run).toEqual({ code: 2, stdout: "", stderr: 'error: --screen expects WIDTHxHEIGHT in pixels, e.g. 1080x2400; got "abc"\n' });
  });
});
