// Upstream's authoring forms on a workspace shaped like upstream's trailmaps (fixtures/authoring-forms,
// nothing installed): pure-JS tools registered on globalThis.__trailblazeTools (found by name under
// tools/, or a whole script listed under mcp_servers), a ConditionalAction tool, an MCP server reading
// fromMeta, and an app map's shortcuts and trailheads called as tools; each with both agents.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cli, REPO, tempDir } from "./support/cli.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

const FIXTURE = join(REPO, "fixtures/authoring-forms");
/** Outside the repository: nothing installed. */
const copy = (key: string) => workspaceCopy(FIXTURE, key, { folder: "workspace", outsideRepo: true });
const dir = copy("authoring-forms");
const MAP = ["--map", "trails/config/trailmaps/myapp"];
const PURE_JS = "trails/config/trailmaps/myapp/tools/quickjs-tools/pure.js";

interface Call {
  name: string;
  result: { status: string; message?: string; structuredContent?: unknown; content?: { text?: string }[] };
}
interface Report {
  summary: { passed: number; failed: number; errors: number };
  trails: { status: string; steps: { tools: Call[] }[] }[];
}

async function runTrail(
  root: string,
  trail: string,
  agent: "host" | "on-device",
  ...flags: string[]
): Promise<{ report: Report; calls: { name: string; status: string; text: string }[] }> {
  const run = await cli(["run", trail, "--reporter", "json", "--agent", agent, ...flags], { cwd: root });
  const report = JSON.parse(run.stdout) as Report;
  const calls = report.trails
    .flatMap((t) => t.steps.flatMap((s) => s.tools))
    .map(({ name, result }) => ({ name, status: result.status, text: result.message ?? result.content?.[0]?.text ?? "" }));
  return { report, calls };
}

describe("pure-JS tools on globalThis.__trailblazeTools", () => {
  test("are listed with the spec's description and input schema (upstream's flat form: every parameter required), beside the registering script's and the MCP server's tools", async () => {
    const run = await cli(["tools", "--json", ...MAP, "--start", "myapp/android/login"], { cwd: dir });
    expect(run.code).toBe(0);
    const listed = JSON.parse(run.stdout) as {
      tools: { name: string; source: string; transport: string; description?: string; inputSchema?: unknown }[];
    };
    const byName = new Map(listed.tools.map((tool) => [tool.name, tool]));
    expect(byName.get("myapp_addNumbers")).toMatchObject({
      source: "per-file tools (QuickJS)",
      transport: "quickjs",
      description: "Adds two numbers.",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number", description: "First addend." }, b: { type: "number", description: "Second addend." } },
        required: ["a", "b"],
      },
    });
    expect(byName.get("myapp_shout")).toMatchObject({
      source: "trails/config/trailmaps/myapp/tools/registered/shout.js",
      transport: "quickjs",
      description: "Upper-cases a text.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    });
    expect(byName.get("myapp_whereAmI")).toMatchObject({ source: "trails/config/trailmaps/myapp/tools/mcp/where.ts" });
    expect(byName.get("myapp_android_loginAs")).toMatchObject({
      source: "app map trails/config/trailmaps/myapp",
      description: "From the sign-in screen, type an email and log in. (shortcut myapp/android/login → myapp/android/home)",
      inputSchema: { type: "object", properties: { email: { type: "string", description: "The account's email." } }, required: ["email"] },
    });
    expect(byName.get("myapp_android_launchToLogin")).toMatchObject({
      description: "Launch MyApp fresh, on the sign-in screen. (trailhead → myapp/android/login)",
    });
  }, 90_000); // the first session builds every bundle

  test("run with identical results on the host and on the device: __trailblazeCall composes, fromMeta reads the device, target and memory", async () => {
    const [host, device] = await Promise.all([
      runTrail(dir, "trails/forms/pure-js.trail.yaml", "host"),
      runTrail(dir, "trails/forms/pure-js.trail.yaml", "on-device"),
    ]);
    expect(host.report.summary).toMatchObject({ passed: 1, failed: 0, errors: 0 });
    expect(device.calls).toEqual(host.calls);
    expect(host.calls).toEqual([
      { name: "myapp_reverseText", status: "success", text: "ezalbliart" },
      { name: "myapp_addNumbers", status: "success", text: "42" },
      { name: "myapp_sumTwice", status: "success", text: "42 on android" },
      { name: "myapp_shout", status: "success", text: "HELLO!" },
      { name: "rememberValue", status: "success", text: "remembered user" },
      { name: "myapp_whereAmI", status: "success", text: "android com.example.myapp user=ann" },
    ]);
  });

  test("a malformed registration fails the session naming file:line:col and the field, with either agent", async () => {
    const bad = copy("authoring-forms-bad");
    const file = join(bad, PURE_JS);
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        'handler: async function (args) {\n      return { content: [{ type: "text", text: String(Number(args.a)',
        'handle: async function (args) {\n      return { content: [{ type: "text", text: String(Number(args.a)',
      ),
    );
    const message = `${PURE_JS}:23:9: __trailblazeTools["myapp_addNumbers"].handler: is missing; expected a function (args, ctx) => result`;
    for (const agent of ["host", "on-device"] as const) {
      const run = await cli(["run", "trails/forms/pure-js.trail.yaml", "--agent", agent], { cwd: bad });
      expect(run.code).not.toBe(0);
      expect(run.stdout + run.stderr).toContain(message);
    }
  }, 90_000); // a fresh copy: its bundles are built again

  test("a listed name the folder does not register says how to register it", async () => {
    const bad = copy("authoring-forms-missing");
    const trailmap = join(bad, "trails/config/trailmaps/myapp/trailmap.yaml");
    writeFileSync(trailmap, readFileSync(trailmap, "utf8").replace("    - myapp_addNumbers\n", "    - myapp_addNumber\n"));
    const run = await cli(["tools"], { cwd: bad });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("trails/config/trailmaps/myapp/trailmap.yaml:14:7 tools: tool myapp_addNumber not found under");
    expect(run.stderr).toContain('did you mean "myapp_addNumbers"?');
    expect(run.stderr).toContain('register it in a .js file as `globalThis.__trailblazeTools["myapp_addNumber"] = { spec, handler }`');
  });
});

describe("captureViewHierarchy and runConditionalActions", () => {
  test("on a map: the entry runs where its condition holds (the tap moves the device) and is skipped where it does not, with either agent", async () => {
    const flags = [...MAP, "--start", "myapp/android/login"];
    const [host, device] = await Promise.all([
      runTrail(dir, "trails/forms/conditional-login.trail.yaml", "host", ...flags),
      runTrail(dir, "trails/forms/conditional-login.trail.yaml", "on-device", ...flags),
    ]);
    expect(host.report.summary).toMatchObject({ passed: 1, failed: 0 });
    expect(device.calls).toEqual(host.calls);
    const results = host.report.trails[0]!.steps.flatMap((s) => s.tools).map((c) => c.result.structuredContent);
    expect(results.slice(0, 2)).toEqual([{ handled: ["log-in"] }, { handled: [] }]);
  });

  test("a static capture does not move, so the postcondition fails as ConditionalActionFailedError naming the entry; no screen at all says none is loaded", async () => {
    const capture = ["--capture", "trails/config/trailmaps/myapp/waypoints/myapp_android_login.example.json"];
    const still = await runTrail(dir, "trails/forms/conditional-login.trail.yaml", "on-device", ...capture);
    expect(still.calls[0]).toEqual({
      name: "myapp_logInIfNeeded",
      status: "error",
      text: 'ConditionalAction "log-in" failed: postcondition not satisfied after action for conditional "log-in" (Tap Log in on the sign-in screen)',
    });
    const blind = await runTrail(dir, "trails/forms/conditional-login.trail.yaml", "host");
    expect(blind.calls[0]).toEqual({
      name: "myapp_logInIfNeeded",
      status: "error",
      text:
        'captureViewHierarchy: no view hierarchy to capture for {"androidAccessibility":{"resourceIdRegex":"com\\\\.example\\\\.myapp:id/login"}}: ' +
        "the simulated device has no screen loaded (findMatches was unverified); give it one (--capture FILE, or --map DIR --start WAYPOINT_ID)",
    });
  });
});

describe("shortcuts and trailheads as tools", () => {
  test("a trailhead lands from anywhere, shortcuts (one with a parameter) walk the map, with either agent", async () => {
    const flags = [...MAP, "--start", "myapp/android/profile"];
    const [host, device] = await Promise.all([
      runTrail(dir, "trails/forms/map-tools.trail.yaml", "host", ...flags),
      runTrail(dir, "trails/forms/map-tools.trail.yaml", "on-device", ...flags),
    ]);
    expect(host.report.summary).toMatchObject({ passed: 1, failed: 0 });
    expect(device.calls).toEqual(host.calls);
    expect(host.calls.map((c) => c.text)).toEqual([
      "moved from myapp/android/profile to myapp/android/login (trailhead myapp_android_launchToLogin)",
      "moved from myapp/android/login to myapp/android/home (shortcut myapp_android_loginAs)",
      "moved from myapp/android/home to myapp/android/settings (shortcut myapp_android_homeToSettings)",
      "moved from myapp/android/settings to myapp/android/profile (shortcut myapp_android_settingsToProfile)",
      "at waypoint myapp/android/profile (the device is at myapp/android/profile)",
    ]);
  });

  test("a shortcut called away from its from waypoint fails saying where the device is", async () => {
    const flags = [...MAP, "--start", "myapp/android/home"];
    const trail = join(tempDir("authoring-forms-trail"), "wrong.trail.yaml");
    writeFileSync(
      trail,
      "config:\n  id: wrong\n  target: myapp\ntrail:\n  - step: From home\n    recording:\n      tools:\n        - myapp_android_settingsToProfile: {}\n",
    );
    const { calls } = await runTrail(dir, trail, "host", ...flags);
    expect(calls[0]).toEqual({
      name: "myapp_android_settingsToProfile",
      status: "error",
      text: "shortcut myapp_android_settingsToProfile goes from myapp/android/settings, but the device is at myapp/android/home; call it from myapp/android/settings; shortcuts from myapp/android/home: myapp_android_homeToSettings",
    });
  });

  test("without a map, a trailmap's own shortcuts and trailheads are still tools: their calls run, where the device is stays unverified", async () => {
    const check = await cli(["check"], { cwd: dir });
    expect(check.stdout).toContain("✓ no problems found");
    const { report, calls } = await runTrail(dir, "trails/forms/map-tools.trail.yaml", "on-device");
    expect(report.trails[0]!.status).toBe("unverified"); // every step ran, none could be checked without a map
    expect(calls[1]).toEqual({
      name: "myapp_android_loginAs",
      status: "success",
      text: "unverified: no app map loaded (shortcut myapp_android_loginAs ran inputText, tapOnElementBySelector; would check that the device was at myapp/android/login before or at myapp/android/home after)",
    });
  }, 90_000); // check starts a session per agent

  test("a tool with a shortcut's name collides loudly", async () => {
    const clash = copy("authoring-forms-clash");
    const file = join(clash, "trails/config/trailmaps/myapp/tools/registered/shout.js");
    writeFileSync(
      file,
      `${readFileSync(file, "utf8")}\nglobalThis.__trailblazeTools.myapp_android_homeToSettings = { handler: async () => "no" };\n`,
    );
    const run = await cli(["tools", ...MAP, "--start", "myapp/android/login"], { cwd: clash });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      'error: Tool name collision: "myapp_android_homeToSettings" is advertised by both app map trails/config/trailmaps/myapp and trails/config/trailmaps/myapp/tools/registered/shout.js.',
    );
  });
});
