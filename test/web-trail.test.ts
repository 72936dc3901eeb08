// Web trails through the CLI on a real Chromium (fixtures/web): steps verified on the page in both
// agent modes (per-file and MCP-server tools acting on the session's page), a wrong expected value
// failing, --browser choosing, and no Chromium left behind after a run or after SIGINT.

import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readlinkSync } from "node:fs";
import { join } from "node:path";
import { chromiumProcesses } from "../src/browser/chromium-browser.ts";
import { eventually } from "./support/eventually.ts";
import { processAlive } from "./support/process-alive.ts";
import { withoutChromium } from "./support/chromium.ts";
import { cli, cliProcess, cliUnderTestEnv, REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const FIXTURE = join(REPO, "fixtures/web");
// Generous: each run starts Chromium on a shared machine.
setDefaultTimeout(120_000);

type Json = Record<string, any>;

/**
 * Chromium processes whose owner (the process that launched them: here the CLI subprocesses) has
 * exited: none may outlive it. One whose owner still runs belongs to a run in progress, such as
 * another test run on the same machine.
 */
function strayChromium(): string[] {
  const found: string[] = [];
  for (const line of Bun.spawnSync(["ps", "-eo", "pid=,args="]).stdout.toString().split("\n")) {
    const owner = /--trailblaze-owner=(\d+)/.exec(line)?.[1];
    if (owner !== undefined && !processAlive(Number(owner))) found.push(line.trim());
  }
  return found;
}

const noChromium = withoutChromium();

describe("web trails on a real Chromium", () => {
  test.skipIf(noChromium).each(["host", "on-device"])(
    "agent %s: every step verified on the page, per-file and MCP tools acting on it through ctx.tools",
    async (agent) => {
      const run = await cliProcess(
        ["run", "trails/basket.trail.yaml", "--agent", agent, "--reporter", "json", "--logs", tempDir("web-logs")],
        { cwd: FIXTURE },
      );
      const doc = JSON.parse(run.stdout);
      expect({ code: run.code, summary: doc.summary }).toMatchObject({ code: 0, summary: { passed: 1, failed: 0, errors: 0 } });
      const steps = doc.trails[0].steps as Json[];
      expect(steps.map((s) => s.status)).toEqual(["passed", "passed", "passed", "passed", "passed"]);
      expect(JSON.stringify(doc)).not.toContain("unverified:");
      // The page state is taken only for a report that shows it (html).
      expect(steps.some((step) => step.screen !== undefined)).toBe(false);
      expect(steps[3]!.tools.map((c: Json) => c.result.message)).toEqual([
        "Items in basket: 3",
        'Verified "Items in basket: 3" is visible on the page.',
      ]);
      expect(strayChromium()).toEqual([]);
    },
  );

  test.skipIf(noChromium)("a wrong expected value fails the step, names the text, and the rest is not run", async () => {
    const run = await cliProcess(["run", "failing/wrong-count.trail.yaml", "--reporter", "json", "--logs", tempDir("web-logs")], {
      cwd: FIXTURE,
    });
    expect(run.code).toBe(1);
    const trail = JSON.parse(run.stdout).trails[0];
    expect(trail.steps.map((s: Json) => s.status)).toEqual(["passed", "failed", "skipped"]);
    expect(trail.steps[1].tools.at(-1).result.message).toBe(
      'web_verifyTextVisible: "Items in basket: 2" is not visible on the page (waited 5000 ms)',
    );
    expect(strayChromium()).toEqual([]);
  });

  test.skipIf(noChromium)("--reporter html shows each web step's page: its URL, outline and a screenshot", async () => {
    const out = tempDir("web-report");
    const run = await cliProcess(["run", "trails/basket.trail.yaml", "--reporter", "html", "--output", out, "--no-logging"], {
      cwd: FIXTURE,
    });
    expect(run.code).toBe(0);
    const html = await Bun.file(join(out, "index.html")).text();
    expect(html).toContain("shop.html");
    expect(html).toContain("Items in basket: 3");
    expect(html).toMatch(/<img[^>]+src="data:image\/jpeg;base64,/);
    expect(strayChromium()).toEqual([]);
  });

  test("--browser none simulates the page (checks unverified); --browser with another word is a usage error", async () => {
    const run = await cli(["run", "trails/basket.trail.yaml", "--browser", "none", "--reporter", "json", "--no-logging"], { cwd: FIXTURE });
    const doc = JSON.parse(run.stdout);
    // On the simulated page nothing is checked for real: the trail that passes on Chromium is unverified here.
    expect(doc.trails[0].status).toBe("unverified");
    expect(doc.trails[0].steps[1].tools[0].result.message).toBe(
      'unverified: no screen loaded (click ref "e10" recorded; would check that ref "e10" is on the screen)',
    );
    const bad = await cli(["run", "trails/basket.trail.yaml", "--browser", "firefox"], { cwd: FIXTURE });
    expect({ code: bad.code, stderr: bad.stderr }).toEqual({
      code: 2,
      stderr: 'error: --browser expects chromium or none, got "firefox"\n',
    });
  });

  test("no Chromium: simulated with a note by default, an error naming what to install with --browser chromium", async () => {
    const env = {
      TRAILBLAZE_CHROMIUM: undefined,
      PATH: TEST_PATH.split(":")
        .filter((dir) => !["/usr/bin", "/bin", "/usr/local/bin"].includes(dir))
        .join(":"),
    };
    const missing =
      "no Chromium found (looked for chromium, chromium-browser, google-chrome-stable, google-chrome on PATH). Install it (Debian/Ubuntu: sudo apt-get install chromium) or set TRAILBLAZE_CHROMIUM to a Chromium or Chrome executable.";
    const simulated = await cli(["run", "trails/basket.trail.yaml", "--reporter", "json", "--no-logging"], { cwd: FIXTURE, env });
    expect(simulated.stderr).toContain(`note: web_* tools simulate the page (their checks are unverified): ${missing}\n`);
    expect(JSON.parse(simulated.stdout).trails[0].status).toBe("unverified");
    const required = await cli(["run", "trails/basket.trail.yaml", "--browser", "chromium", "--reporter", "json", "--no-logging"], {
      cwd: FIXTURE,
      env,
    });
    expect(required.code).toBe(2);
    expect(JSON.parse(required.stdout).trails[0]).toMatchObject({ status: "error", error: missing });
    const misplaced = await cli(["run", "trails/basket.trail.yaml", "--reporter", "json", "--no-logging"], {
      cwd: FIXTURE,
      env: { TRAILBLAZE_CHROMIUM: "/nowhere/chromium" },
    });
    expect(misplaced.code).toBe(2);
    expect(JSON.parse(misplaced.stdout).trails[0]).toMatchObject({
      status: "error",
      error:
        "TRAILBLAZE_CHROMIUM=/nowhere/chromium: no such file. Point it at a Chromium or Chrome executable, or unset it to use chromium from PATH.",
    });
  });

  test.skipIf(noChromium)("SIGINT while a step runs: exit 130 and the browser is gone", async () => {
    const child = Bun.spawn(
      [process.execPath, "--no-install", join(REPO, "src/cli/main.ts"), "run", "failing/slow.trail.yaml", "--no-logging"],
      {
        cwd: FIXTURE,
        env: { ...process.env, PATH: TEST_PATH, ...(await cliUnderTestEnv()) } as Record<string, string>,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    // Wait for the browser itself: Debian's chromium is a shell script (exec'ing the browser) whose
    // passing subshells carry the same command line, so a match that is still a shell may be gone a moment later.
    const isShell = (pid: number) => {
      try {
        return /\/(ba|da)?sh$/.test(readlinkSync(`/proc/${pid}/exe`));
      } catch {
        return true;
      }
    };
    const browserUp = () => chromiumProcesses(child.pid).some((process) => process.main && !isShell(process.pid));
    let stdout = "";
    const decoder = new TextDecoder();
    const reading = (async () => {
      for await (const chunk of child.stdout) stdout += decoder.decode(chunk, { stream: true });
    })();
    // Interrupted once the page is open and the second step (a 30 s wait) has begun.
    expect(await eventually(() => stdout.includes("✓ Open the shop"), 60_000)).toBe(true);
    expect(browserUp()).toBe(true);
    child.kill("SIGINT");
    expect(await child.exited).toBe(130);
    await reading;
    expect(stdout).toContain("! Wait (interrupted after");
    expect(chromiumProcesses(child.pid)).toEqual([]);
    expect(strayChromium()).toEqual([]);
  });
});
