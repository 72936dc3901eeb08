// Upstream's workspace layout end to end (fixtures/upstream-layout: trails/config/trailblaze.yaml,
// two target trailmaps and a library one, trails under trails/): tools, check and run from the
// workspace root and from a subfolder, excluded_tools shown as skipped and refusing a trail that
// calls an excluded tool; and excluded_tools of a targets/<id>.yaml keeping a server's tool out.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, cliProcess, REPO, tempDir } from "./support/cli.ts";
import { processesMentioning } from "./support/faults.ts";

const FIXTURE = join(REPO, "fixtures/upstream-layout");
const SUBFOLDER = join(FIXTURE, "trails/checkout");

type Json = Record<string, any>;

const SHOP_ANDROID_EXCLUSION =
  "target shop excludes it on android (excluded_tools entry at trails/config/trailmaps/shop/trailmap.yaml:15:24)";

describe("upstream layout, from the workspace root", () => {
  test("tools: the default target from trailblaze.yaml, its excluded_tools shown as skipped with the entry", async () => {
    const run = await cliProcess(["tools", "--json"], { cwd: FIXTURE });
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.session).toEqual({ target: "shop", driver: "android-ondevice-accessibility", platform: "android", agent: "host" });
    expect(doc.skipped.filter((s: Json) => s.reason === "excluded_tools")).toEqual([
      { name: "tapOnPoint", source: "builtin", reason: "excluded_tools", detail: SHOP_ANDROID_EXCLUSION },
    ]);
    // android's own excluded_tools replaces the list shopkit's defaults would give it
    expect(doc.tools.map((t: Json) => t.name)).toContain("pressBack");
    expect(doc.toolsets.find((t: Json) => t.id === "shop_basics")).toEqual({
      id: "shop_basics",
      active: true,
      origin: "trails/config/trailmaps/shopkit/toolsets/shop_basics.yaml",
      tools: ["launchApp", "inputText", "rememberValue", "assertEquals"],
    });
  });

  test("tools on iOS: tool_sets and excluded_tools inherited from the shopkit dependency, located in its trailmap", async () => {
    const run = await cli(["tools", "--driver", "ios-host"], { cwd: FIXTURE });
    expect(run.code).toBe(0);
    const lines = run.stdout.split("\n");
    expect(lines.filter((l) => l.includes("excluded_tools")).map((l) => l.trim().split(/\s{2,}/))).toEqual([
      [
        "pressBack",
        "builtin",
        "excluded_tools",
        "target shop excludes it on ios (excluded_tools entry at trails/config/trailmaps/shopkit/trailmap.yaml:10:22)",
      ],
      [
        "tapOnPoint",
        "builtin",
        "excluded_tools",
        "target shop excludes it on ios (excluded_tools entry at trails/config/trailmaps/shopkit/trailmap.yaml:10:33)",
      ],
    ]);
    expect(lines).toContain(
      "  shop_basics [active] from trails/config/trailmaps/shopkit/toolsets/shop_basics.yaml: launchApp, inputText, rememberValue, assertEquals",
    );
  });

  test("check: both targets, the trails under trails/, no findings", async () => {
    const run = await cliProcess(["check", "--json"], { cwd: FIXTURE });
    const doc = JSON.parse(run.stdout);
    expect({ code: run.code, ok: doc.ok, findings: doc.findings }).toEqual({ code: 0, ok: true, findings: [] });
    expect({ configDir: doc.configDir, targets: doc.targets, toolsets: doc.toolsets, trails: doc.trails }).toEqual({
      configDir: "trails/config",
      targets: ["shop", "backoffice"],
      toolsets: ["shop_basics"],
      trails: ["trails/backoffice/trail.yaml", "trails/checkout/cart.trail.yaml"],
    });
    expect(doc.sessions.map((s: Json) => `${s.target} · ${s.driver} · ${s.agent}`)).toEqual([
      "backoffice · playwright-native · host",
      "shop · android-ondevice-accessibility · host",
    ]);
  });

  test("run trails: both pass, each in its own target's session (one named by app id)", async () => {
    // The web trail's pages are made up (example.test): its page is simulated, not opened in Chromium.
    const run = await cliProcess(["run", "trails", "--browser", "none", "--reporter", "json", "--logs", tempDir("upstream-layout-logs")], {
      cwd: FIXTURE,
    });
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.summary).toMatchObject({ passed: 2, failed: 0, errors: 0 });
    expect(doc.trails.map((t: Json) => [t.file, t.status, t.session.target, t.session.driver])).toEqual([
      ["trails/backoffice/trail.yaml", "passed", "backoffice", "playwright-native"],
      ["trails/checkout/cart.trail.yaml", "passed", "shop", "android-ondevice-accessibility"],
    ]);
  });

  test("a trail calling an excluded tool is refused before any step, naming the excluded_tools entry; check reports it", async () => {
    const message = `tapOnPoint is not registered in this session: ${SHOP_ANDROID_EXCLUSION}`;
    const run = await cli(["run", "broken/taps-a-point.trail.yaml", "--reporter", "json", "--logs", tempDir("upstream-layout-logs")], {
      cwd: FIXTURE,
    });
    expect(run.code).toBe(2);
    const trail = JSON.parse(run.stdout).trails[0];
    expect(trail.status).toBe("error");
    expect(trail.error).toContain(message);
    const check = await cli(["check", "broken", "--json"], { cwd: FIXTURE });
    expect(check.code).toBe(1);
    expect(JSON.parse(check.stdout).findings).toEqual([
      {
        severity: "error",
        kind: "trail-tool",
        message: `broken/taps-a-point.trail.yaml:12:11 step 1 "Tap the banner": ${message}`,
        file: "broken/taps-a-point.trail.yaml",
        line: 12,
        col: 11,
        tool: "tapOnPoint",
        session: "shop · android-ondevice-accessibility · host",
      },
    ]);
  });
});

describe("upstream layout, mistakes", () => {
  test("an excluded_tools entry no source advertises is a warning in tools and in check, with close names", async () => {
    const dir = tempDir("upstream-layout-copy");
    cpSync(FIXTURE, dir, { recursive: true });
    const file = join(dir, "trails/config/trailmaps/shop/trailmap.yaml");
    writeFileSync(file, readFileSync(file, "utf8").replace("excluded_tools: [tapOnPoint]", "excluded_tools: [tapOnPiont]"));
    const tools = await cli(["tools"], { cwd: dir });
    expect(tools.code).toBe(0);
    expect(tools.stderr).toBe(
      'warning: target shop excludes tapOnPiont on android (excluded_tools entry at trails/config/trailmaps/shop/trailmap.yaml:15:24), but no source advertises a tool of that name, so it excludes nothing; did you mean "tapOnPoint", "tapOn" or "tap"?\n',
    );
    const check = await cli(["check", "--json"], { cwd: dir });
    expect(check.code).toBe(0);
    expect(JSON.parse(check.stdout).findings).toEqual([
      {
        severity: "warning",
        kind: "toolset",
        message:
          'trails/config/trailmaps/shop/trailmap.yaml:15:24 excluded_tools: target shop excludes tapOnPiont on android, but no source of any session advertises a tool of that name, so it excludes nothing; did you mean "tapOnPoint", "tapOn" or "tap"?',
        file: "trails/config/trailmaps/shop/trailmap.yaml",
        line: 15,
        col: 24,
      },
    ]);
  });

  test("init-tool --server scaffolds MCP servers into targets/<id>.yaml files only: a trailmap target is refused, nothing written", async () => {
    const run = await cli(["init-tool", "shop_applyCoupon", "--target", "shop", "--server"], { cwd: FIXTURE });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "init-tool: target shop is a trailmap (trails/config/trailmaps/shop/trailmap.yaml); --server scaffolds an MCP server into a targets/<id>.yaml file. " +
        "Leave out --server to scaffold a per-file tool into the trailmap",
    );
    expect(existsSync(join(FIXTURE, "trails/config/trailmaps/shop/tools"))).toBe(false);
  });
});

describe("upstream layout, from a subfolder of trails/", () => {
  test("tools and check find trails/config walking up", async () => {
    const tools = await cliProcess(["tools", "--json"], { cwd: SUBFOLDER });
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.stdout).session.target).toBe("shop");
    const check = await cli(["check", "--json"], { cwd: SUBFOLDER });
    const doc = JSON.parse(check.stdout);
    expect({ code: check.code, ok: doc.ok, findings: doc.findings, configDir: doc.configDir }).toEqual({
      code: 0,
      ok: true,
      findings: [],
      configDir: join(FIXTURE, "trails/config"),
    });
    expect(doc.trails).toEqual([join(FIXTURE, "trails/backoffice/trail.yaml"), join(FIXTURE, "trails/checkout/cart.trail.yaml")]);
  });

  test("run . and run ../ pass", async () => {
    const here = await cliProcess(["run", ".", "--reporter", "json", "--logs", tempDir("upstream-layout-logs")], { cwd: SUBFOLDER });
    expect(here.code).toBe(0);
    expect(JSON.parse(here.stdout).trails.map((t: Json) => [t.file, t.status])).toEqual([["cart.trail.yaml", "passed"]]);
    // The web trail's pages are made up (example.test): its page is simulated, not opened in Chromium.
    const all = await cli(["run", "..", "--browser", "none", "--reporter", "json", "--logs", tempDir("upstream-layout-logs")], {
      cwd: SUBFOLDER,
    });
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout).summary).toMatchObject({ passed: 2, failed: 0, errors: 0 });
  });

  test("from outside the workspace, run uses the trails/config above the trail paths given", async () => {
    // The web trail's pages are made up (example.test): its page is simulated, not opened in Chromium.
    const run = await cli(
      ["run", "fixtures/upstream-layout/trails", "--browser", "none", "--reporter", "json", "--logs", tempDir("upstream-layout-logs")],
      { cwd: REPO, env: { TRAILBLAZE_CONFIG_DIR: undefined } },
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("note: using fixtures/upstream-layout/trails/config, found above the given paths\n");
    expect(JSON.parse(run.stdout).summary).toMatchObject({ passed: 2, failed: 0, errors: 0 });
  });

  test("--config trails/config from outside the workspace", async () => {
    const run = await cli(["tools", "--json", "--config", "fixtures/upstream-layout/trails/config", "--target", "backoffice"], {
      cwd: REPO,
      env: { TRAILBLAZE_CONFIG_DIR: undefined },
    });
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.session).toMatchObject({ target: "backoffice", driver: "playwright-native" });
    expect(doc.skipped.filter((s: Json) => s.reason === "excluded_tools")).toEqual([
      {
        name: "web_applyCookies",
        source: "builtin",
        reason: "excluded_tools",
        detail:
          "target backoffice excludes it on web (excluded_tools entry at fixtures/upstream-layout/trails/config/trailmaps/backoffice/trailmap.yaml:8:24)",
      },
    ]);
  });
});

describe("excluded_tools in a targets/<id>.yaml keeps a server's tool out", () => {
  // Inside the repository, so the copied tools resolve the SDK from its node_modules.
  mkdirSync(join(REPO, ".cache"), { recursive: true });
  const dir = mkdtempSync(join(REPO, ".cache", "excluded-tools-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("tools lists it as skipped, and the trail that calls it is refused naming the entry", async () => {
    const demo = join(REPO, "fixtures/demo");
    cpSync(demo, dir, { recursive: true, filter: (src) => !/^[/\\](logs|\.cache)([/\\]|$)/.test(src.slice(demo.length)) });
    const target = join(dir, "trailblaze-config/targets/myapp.yaml");
    const text = readFileSync(target, "utf8");
    writeFileSync(
      target,
      text.replace(
        "    tool_sets: [myapp_login, myapp_data]\n",
        "    tool_sets: [myapp_login, myapp_data]\n    excluded_tools: [myapp_logInWithEmail]\n",
      ),
    );
    const detail = "target myapp excludes it on android (excluded_tools entry at trailblaze-config/targets/myapp.yaml:11:22)";
    const tools = await cli(["tools", "--json"], { cwd: dir });
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.stdout).skipped.filter((s: Json) => s.reason === "excluded_tools")).toEqual([
      { name: "myapp_logInWithEmail", source: "tools/myapp/login.ts", reason: "excluded_tools", detail },
    ]);
    const run = await cli(["run", "trails/login.trail.yaml", "--reporter", "json", "--logs", tempDir("excluded-logs")], { cwd: dir });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).trails[0].error).toContain(`myapp_logInWithEmail is not registered in this session: ${detail}`);
    expect(processesMentioning(dir)).toEqual([]);
  });
});
