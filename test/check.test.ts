// `bun trailblaze check`: clean on the demo workspace; on a copy of it with one of each problem
// planted, every problem is listed once, with its place, and no server is left running.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CheckReport } from "../src/check/check-workspace.ts";
import { cli, cliProcess, REPO } from "./support/cli.ts";
import { processesMentioning } from "./support/faults.ts";
import { workspaceCopy } from "./support/workspace-copy.ts";

const DEMO = join(REPO, "fixtures/demo");
// Inside the repository, so the copied tools resolve the SDK from its node_modules.
mkdirSync(join(REPO, ".cache"), { recursive: true });
const TMP = mkdtempSync(join(REPO, ".cache", "check-test-"));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
const demoCopy = (name: string) => workspaceCopy(DEMO, `check-${name}`);

function write(dir: string, file: string, text: string): void {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}

function edit(dir: string, file: string, from: string, to: string): void {
  const text = readFileSync(join(dir, file), "utf8");
  if (!text.includes(from)) throw new Error(`${file} does not contain ${JSON.stringify(from)}`);
  writeFileSync(join(dir, file), text.replace(from, to));
}

const SERVER = (tools: string) => `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
${tools.includes("readFileSync") ? 'import { readFileSync } from "node:fs";\n' : ""}
const server = new McpServer({ name: "planted", version: "1.0.0" });
const ok = async () => ({ content: [{ type: "text" as const, text: "ok" }] });
${tools}
await server.connect(new StdioServerTransport());
`;

const LONG = `myapp_${"x".repeat(56)}`;
const WIRE_LONG = `wire_${"y".repeat(60)}`;

/** The demo workspace with one of each problem `check` finds (config errors aside: they stop the sessions). */
function plantProblems(dir: string): void {
  // Advisory names, a wrong-typed _meta value and an unknown tool_sets id on the demo target.
  write(
    dir,
    "tools/myapp/extra.ts",
    SERVER(`server.registerTool("myapp_Reset_All", { description: "convention" }, ok);
server.registerTool("${LONG}", { description: "long" }, ok);
server.registerTool("resetEverything", { description: "unscoped" }, ok);
server.registerTool("myapp_flaky", { description: "bad meta", _meta: { "trailblaze/requiresHost": "yes" } }, ok);`),
  );
  edit(
    dir,
    "trailblaze-config/targets/myapp.yaml",
    "  - script: ./tools/myapp/data.ts\n",
    "  - script: ./tools/myapp/data.ts\n  - script: ./tools/myapp/extra.ts\n",
  );
  edit(
    dir,
    "trailblaze-config/targets/myapp.yaml",
    "tool_sets: [myapp_login, myapp_data]",
    "tool_sets: [myapp_login, myapp_data, myapp_promo]",
  );
  // A toolset entry no server advertises.
  edit(dir, "trailblaze-config/toolsets/myapp_login.yaml", "myapp_logOut]", "myapp_logOut, myapp_logOutt]");
  // A collision with a built-in tool.
  write(dir, "trailblaze-config/targets/clash.yaml", "id: clash\nmcp_servers:\n  - script: ./tools/clash.ts\n");
  write(dir, "tools/clash.ts", SERVER(`server.registerTool("assertEquals", { description: "collides" }, ok);`));
  // Names no LLM accepts.
  write(dir, "trailblaze-config/targets/wire.yaml", "id: wire\nmcp_servers:\n  - script: ./tools/wire.ts\n");
  write(
    dir,
    "tools/wire.ts",
    SERVER(`server.registerTool("wire:reset", { description: "colon" }, ok);
server.registerTool("${WIRE_LONG}", { description: "65 characters" }, ok);`),
  );
  // A target id that cannot prefix tool names.
  write(dir, "trailblaze-config/targets/legacy_app.yaml", "id: legacy_app\nplatforms:\n  web: { tool_sets: [] }\n");
  // A server that cannot run on-device, used by an on-device trail.
  write(dir, "trailblaze-config/targets/native.yaml", "id: native\nmcp_servers:\n  - script: ./tools/native.ts\n");
  write(
    dir,
    "tools/native.ts",
    SERVER(
      `server.registerTool("native_readConfig", { description: "reads a file" }, async () => ({ content: [{ type: "text" as const, text: readFileSync("/etc/hostname", "utf8") }] }));`,
    ),
  );
  write(
    dir,
    "trails/planted/native.trail.yaml",
    "config:\n  target: native\n  agent: on-device\ntrail:\n  - step: Read\n    recording:\n      tools:\n        - native_readConfig: {}\n",
  );
  // Trails: a misspelt tool, a host-only tool on-device, a step only an agent could do, a file that does not parse.
  write(
    dir,
    "trails/planted/typo.trail.yaml",
    "config:\n  target: myapp\ntrail:\n  - step: Log in\n    recording:\n      tools:\n        - myapp_logInWithEmial: { email: a@b.c }\n",
  );
  write(
    dir,
    "trails/planted/on-device.trail.yaml",
    "config:\n  target: myapp\n  agent: on-device\ntrail:\n  - step: Seed\n    recording:\n      tools:\n        - myapp_seedBackend: { email: a@b.c }\n",
  );
  // (Its driver is named: a trail that records for one platform only would otherwise run on that platform.)
  write(
    dir,
    "trails/planted/agent-only.trail.yaml",
    "config:\n  target: myapp\n  driver: android-ondevice-accessibility\ntrail:\n  - step: Only recorded on iOS\n    recording:\n      ios:\n        - pressBack: {}\n",
  );
  write(dir, "trails/planted/broken.trail.yaml", "config:\n  target: myapp\ntrail:\n  - stepp: Misspelt\n");
}

const SCOPE = "so the name says which target owns the tool (advisory)";
const CONVENTION =
  "does not follow the naming convention ^[a-z][a-zA-Z0-9]*(_[a-z][a-zA-Z0-9]*)*$ (lowerCamelCase words joined by single underscores, e.g. myapp_logInWithEmail)";
const HOST_ONLY = 'mark the tools that need it "trailblaze/requiresHost": true and move them to a host-only script';
const WIRE = "names sent to LLMs and MCP clients must match ^[a-zA-Z0-9_-]{1,64}$; rename the tool";
const MYAPP_HOST = "myapp · android-ondevice-accessibility · host";
const MYAPP_DEVICE = "myapp · android-ondevice-accessibility · on-device";

describe("bun trailblaze check", () => {
  test("the demo workspace has no errors, in both agent modes", async () => {
    const run = await cli(["check"], { cwd: DEMO });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(
      "Checked trailblaze-config: 1 target(s), 1 toolset(s), 6 trail file(s), 2 session(s)\n" +
        "  myapp · android-ondevice-accessibility · host: 69 tools, 32 skipped, 6 trail(s)\n" +
        "  myapp · android-ondevice-accessibility · on-device: 67 tools, 34 skipped\n\n" +
        // The demo's data server is fine on-device: its host-global uses are in its host-only tool.
        `! warning [bundle] tools/myapp/data.ts:47:18: uses process.env, which does not exist on-device; ${HOST_ONLY}\n` +
        `! warning [bundle] tools/myapp/data.ts:49:28: uses fetch, which does not exist on-device; ${HOST_ONLY}\n` +
        "✓ 0 error(s), 2 warning(s)\n",
    );
    expect(run.code).toBe(0);
    const host = await cli(["check", "--agent", "host"], { cwd: DEMO });
    expect(host.stdout).toEndWith(
      "  myapp · android-ondevice-accessibility · host: 69 tools, 32 skipped, 6 trail(s)\n\n✓ no problems found\n",
    );
  });

  test("given trails from outside the workspace, it checks the workspace above them", async () => {
    const run = await cli(["check", "fixtures/demo/trails", "--agent", "host"], { cwd: REPO, env: { TRAILBLAZE_CONFIG_DIR: undefined } });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "Checked fixtures/demo/trailblaze-config: 1 target(s), 1 toolset(s), 4 trail file(s), 1 session(s)\n" +
        "  myapp · android-ondevice-accessibility · host: 69 tools, 32 skipped, 4 trail(s)\n\n✓ no problems found\n",
    );
  });

  test("a broken copy of the demo lists every planted problem; no server is left running", async () => {
    const dir = demoCopy("broken");
    plantProblems(dir);
    const run = await cliProcess(["check", "--json"], { cwd: dir });
    expect(processesMentioning(dir)).toEqual([]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as CheckReport;
    expect(report.sessions.map((s) => [s.target, s.agent, s.started, s.trails.length])).toEqual([
      ["myapp", "host", true, 8],
      ["native", "on-device", false, 1],
      ["myapp", "on-device", true, 1],
      ["clash", "host", false, 0],
      ["clash", "on-device", false, 0],
      ["legacy_app", "host", true, 0],
      ["native", "host", true, 0],
      ["wire", "host", false, 0],
      ["wire", "on-device", false, 0],
    ]);
    const found = report.findings.map((f) => [f.severity, f.kind, f.message]);
    const native = "tools/native.ts";
    expect(found).toEqual([
      ["error", "trail", 'trails/planted/broken.trail.yaml:4:5 trail[0]: unknown key "stepp"; did you mean "step"?'],
      [
        "warning",
        "trailmap-scope",
        'trailblaze-config/targets/legacy_app.yaml:1:5 id: [TrailmapScopingCheck] target id "legacy_app" does not match ^[a-z][a-zA-Z0-9]*$: ids are one lowerCamelCase word (no "_" or "-") so that <targetId>_<localName> tool names split at their first underscore (advisory)',
      ],
      [
        "warning",
        "meta",
        'tools/myapp/extra.ts: tool myapp_flaky: _meta["trailblaze/requiresHost"] should be a boolean, got a string ("yes"); using false',
      ],
      ["warning", "name", `tools/myapp/extra.ts: tool name "myapp_Reset_All" ${CONVENTION}`],
      [
        "warning",
        "name",
        `tools/myapp/extra.ts: tool name "${LONG}" is 62 characters long, close to the 64-character wire limit; shorten the local half "${"x".repeat(56)}" to at most 60 characters`,
      ],
      [
        "warning",
        "trailmap-scope",
        `[TrailmapScopingCheck] tools/myapp/extra.ts: tools of target myapp not named myapp_<localName>: resetEverything; rename them (e.g. myapp_resetEverything) ${SCOPE}`,
      ],
      [
        "warning",
        "trail-step",
        'trails/planted/agent-only.trail.yaml:5:5 step 1 "Only recorded on iOS": this step needs an agent: it has recordings for ios only (this session replays android, all, tools), and no model is chosen for the built-in agent: give --llm provider/model, set $TRAILBLAZE_DEFAULT_MODEL, or set llm: defaults: model in trailblaze-config/trailblaze.yaml (docs/agent.md); or record tool calls for it under recording: tools:',
      ],
      [
        "error",
        "trail-tool",
        'trails/planted/typo.trail.yaml:7:11 step 1 "Log in": myapp_logInWithEmial is not registered in this session; closest registered: myapp_logInWithEmail',
      ],
      [
        "error",
        "bundle",
        `Cannot bundle ${native} for on-device: ${native}:3:30: imports "node:fs", a Node built-in that does not exist on-device; ${HOST_ONLY}\n` +
          "Or, if the whole script needs the host, add `requiresHost: true` to trailblaze-config/targets/native.yaml:3:5 mcp_servers[0]: on-device sessions then skip it without bundling it.",
      ],
      [
        "error",
        "trail-tool",
        'trails/planted/on-device.trail.yaml:8:11 step 1 "Seed": this trail references myapp_seedBackend, which is host-only and not registered in this on-device session',
      ],
      [
        "error",
        "collision",
        'Tool name collision: "assertEquals" is advertised by both builtin and tools/clash.ts. Tool names are global and registered exactly as advertised; rename the tool in one of the sources.',
      ],
      [
        "error",
        "name",
        `tools/wire.ts advertises 2 invalid tool names:\n  tool name "wire:reset" contains ":": ${WIRE}\n  tool name "${WIRE_LONG}" is 65 characters long (at most 64): ${WIRE}`,
      ],
      [
        "warning",
        "toolset",
        'trailblaze-config/toolsets/myapp_login.yaml:4:45 tools[2]: toolset myapp_login lists myapp_logOutt, which no server of any target advertises; did you mean "myapp_logOut"? (not certain: clash, wire did not run in this check, so their tools are unknown)',
      ],
      [
        "warning",
        "toolset",
        'trailblaze-config/targets/myapp.yaml:10:5 platforms.android.tool_sets: toolset "myapp_promo" is not defined in toolsets/, so it enables nothing (no toolset file or tool _meta defines it)',
      ],
      // The demo's data server is fine on-device: its host-global uses are in its host-only tool.
      ["warning", "bundle", `tools/myapp/data.ts:47:18: uses process.env, which does not exist on-device; ${HOST_ONLY}`],
      ["warning", "bundle", `tools/myapp/data.ts:49:28: uses fetch, which does not exist on-device; ${HOST_ONLY}`],
    ]);
    expect(report.summary).toEqual({ errors: 6, warnings: 10 });
    expect(report.findings.find((f) => f.kind === "trail-tool")).toMatchObject({
      file: "trails/planted/typo.trail.yaml",
      line: 7,
      col: 11,
      session: MYAPP_HOST,
    });
    expect(report.findings.find((f) => f.message.includes("which is host-only"))?.session).toBe(MYAPP_DEVICE);
  });

  test("a server that throws at start is one finding per session, in the author's file:line, never the bundle's", async () => {
    const dir = join(TMP, "throws");
    write(dir, "trailblaze-config/targets/boom.yaml", "id: boom\nmcp_servers:\n  - script: ./tools/boom.ts\n");
    write(
      dir,
      "tools/boom.ts",
      SERVER('throw new Error("boom at start");\nserver.registerTool("boom_never", { description: "never" }, ok);'),
    );
    write(
      dir,
      "trails/boom.trail.yaml",
      "config:\n  target: boom\n  agent: on-device\ntrail:\n  - step: Never\n    recording:\n      tools:\n        - boom_never: {}\n",
    );
    const run = await cli(["check", "--json"], { cwd: dir });
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as CheckReport;
    const errors = report.findings
      .filter((finding) => finding.severity === "error")
      .sort((a, b) => (a.session ?? "").localeCompare(b.session ?? ""));
    expect(errors.map((finding) => [finding.kind, finding.session])).toEqual([
      ["session", "boom · android-ondevice-accessibility · host"],
      ["session", "boom · android-ondevice-accessibility · on-device"],
    ]);
    expect(errors[0]!.message).toStartWith("MCP server tools/boom.ts exited with code 1 during startup (initialize/tools/list)");
    expect(errors[1]!.message).toStartWith('QuickJS server "tools/boom.ts" threw while evaluating its bundle: Error: boom at start\n');
    expect(errors[1]!.message).toContain("(tools/boom.ts:6:11)");
    expect(errors[1]!.message).not.toMatch(/bundle\.js:\d+:\d{3,}/);
  });

  test("a config error is reported with its place and stops the sessions; exit 1", async () => {
    const dir = demoCopy("config-error");
    edit(dir, "trailblaze-config/targets/myapp.yaml", "mcp_servers:", "mcp_server:");
    const run = await cli(["check"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      "Checked trailblaze-config: 0 target(s), 0 toolset(s), 6 trail file(s), 0 session(s)\n\n" +
        '✗ error   [config] trailblaze-config/targets/myapp.yaml:3:1: unknown key "mcp_server"; did you mean "mcp_servers"?\n' +
        "✗ 1 error(s), 0 warning(s)\n",
    );
  });

  test("warnings alone exit 0; --strict makes them errors", async () => {
    const dir = demoCopy("warnings");
    write(dir, "trailblaze-config/targets/legacy_app.yaml", "id: legacy_app\n");
    const lenient = await cli(["check"], { cwd: dir });
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toContain("✓ 0 error(s), 3 warning(s)\n");
    const strict = await cli(["check", "--strict", "--json"], { cwd: dir });
    expect(strict.code).toBe(1);
    expect((JSON.parse(strict.stdout) as CheckReport).summary).toEqual({ errors: 3, warnings: 0 });
  });

  test("advisory warnings print once per <targetId>@<source> per process; built-in tools are exempt", async () => {
    const dir = demoCopy("once");
    write(dir, "tools/myapp/extra.ts", SERVER(`server.registerTool("resetEverything", { description: "unscoped" }, ok);`));
    edit(
      dir,
      "trailblaze-config/targets/myapp.yaml",
      "  - script: ./tools/myapp/data.ts\n",
      "  - script: ./tools/myapp/data.ts\n  - script: ./tools/myapp/extra.ts\n",
    );
    const warning = `warning: [TrailmapScopingCheck] tools/myapp/extra.ts: tools of target myapp not named myapp_<localName>: resetEverything; rename them (e.g. myapp_resetEverything) ${SCOPE}\n`;
    const first = await cli(["tools", "--json"], { cwd: dir });
    expect(first.stderr).toBe(warning);
    const second = await cli(["tools", "--json"], { cwd: dir });
    expect(second.stderr).toBe("");
    // The built-ins (tap, assertEquals, ...) have no target prefix and never warn.
    expect(
      (JSON.parse(second.stdout) as { tools: { transport: string }[] }).tools.filter((t) => t.transport === "builtin").length,
    ).toBeGreaterThan(20);
  });

  test("usage: --help, an unknown target, no config folder", async () => {
    const help = await cli(["check", "--help"], { cwd: DEMO });
    expect(help.code).toBe(0);
    expect(help.stdout).toStartWith(
      "Usage: npx trailblaze check [trail-file|dir]... [--config DIR] [--target ID] [--agent host|on-device] [--strict] [--json]\n",
    );
    const unknown = await cli(["check", "--target", "myap"], { cwd: DEMO });
    expect(unknown).toEqual({ code: 2, stdout: "", stderr: 'error: check: unknown target "myap"; did you mean "myapp"?\n' });
    const none = await cli(["check"], { cwd: TMP, env: { TRAILBLAZE_CONFIG_DIR: undefined } });
    expect(none.code).toBe(2);
    expect(none.stderr).toStartWith("error: ");
  });
});

// Upstream's `check [<trailmap-id>] [--all] [--workspace DIR]`, as its READMEs and CI scripts call it.
describe("bun trailblaze check, as upstream calls it", () => {
  const LAYOUT = join(REPO, "fixtures/upstream-layout");
  const BOTH =
    "  backoffice · playwright-native · host: 73 tools, 22 skipped, 1 trail(s)\n" +
    "  shop · android-ondevice-accessibility · host: 64 tools, 31 skipped, 1 trail(s)\n\n✓ no problems found\n";
  const SHOP = "  shop · android-ondevice-accessibility · host: 64 tools, 31 skipped, 1 trail(s)\n\n✓ no problems found\n";
  const BACKOFFICE = "  backoffice · playwright-native · host: 73 tools, 22 skipped, 1 trail(s)\n\n✓ no problems found\n";

  test("--workspace DIR takes the workspace root or its trails/config/, from any working directory", async () => {
    for (const dir of ["fixtures/upstream-layout", "fixtures/upstream-layout/trails/config"]) {
      const run = await cli(["check", "--workspace", dir], { cwd: REPO, env: { TRAILBLAZE_CONFIG_DIR: undefined } });
      expect(run).toEqual({
        code: 0,
        stderr: "",
        stdout: `Checked fixtures/upstream-layout/trails/config: 2 target(s), 1 toolset(s), 2 trail file(s), 2 session(s)\n${BOTH}`,
      });
    }
    // Upstream's CI scripts pass --no-typecheck: accepted (this check runs no tsc).
    expect((await cli(["check", "--workspace", "fixtures/upstream-layout", "--no-typecheck"], { cwd: REPO })).code).toBe(0);
  });

  test("<trailmap-id> checks that trailmap's target and the trails that run on it; a library's, the targets that depend on it", async () => {
    const shop = await cli(["check", "shop"], { cwd: LAYOUT });
    expect(shop).toEqual({
      code: 0,
      stderr: "",
      stdout: `Checked trails/config: 2 target(s), 1 toolset(s), 1 trail file(s), 1 session(s)\n  scope: trailmap shop (target shop)\n${SHOP}`,
    });
    const library = await cli(["check", "shopkit", "--json"], { cwd: LAYOUT });
    const report = JSON.parse(library.stdout) as CheckReport;
    expect(report.trailmap).toEqual({ id: "shopkit", from: "argument", targets: ["shop"], library: true });
    expect(report.trails).toEqual(["trails/checkout/cart.trail.yaml"]);
    expect(report.sessions.map((s) => s.target)).toEqual(["shop"]);
    const pinned = await cli(["check", "--workspace", "fixtures/upstream-layout", "backoffice"], { cwd: REPO });
    expect(pinned.stdout).toBe(
      "Checked fixtures/upstream-layout/trails/config: 2 target(s), 1 toolset(s), 1 trail file(s), 1 session(s)\n  scope: trailmap backoffice (target backoffice)\n" +
        BACKOFFICE,
    );
  });

  test("inside a trailmap's folder, check checks that trailmap; --all checks every one", async () => {
    const inside = join(LAYOUT, "trails/config/trailmaps/backoffice");
    const configDir = join(LAYOUT, "trails/config");
    const scoped = await cli(["check"], { cwd: inside });
    expect(scoped.stdout).toBe(
      `Checked ${configDir}: 2 target(s), 1 toolset(s), 1 trail file(s), 1 session(s)\n` +
        "  scope: trailmap backoffice (target backoffice), the one the working directory is in; --all checks every trailmap\n" +
        BACKOFFICE,
    );
    const all = await cli(["check", "--all"], { cwd: inside });
    expect(all.stdout).toBe(`Checked ${configDir}: 2 target(s), 1 toolset(s), 2 trail file(s), 2 session(s)\n${BOTH}`);
    // --target chooses for itself: no trailmap scope from the working directory.
    expect((await cli(["check", "--target", "shop", "--json"], { cwd: inside })).stdout).not.toContain('"trailmap"');
  });

  test("a problem of another trailmap's trail is left out of a scoped check", async () => {
    const dir = workspaceCopy(LAYOUT, "check-upstream-scope");
    write(
      dir,
      "trails/backoffice/typo.trail.yaml",
      "config:\n  target: backoffice\ntrail:\n  - step: Open\n    recording:\n      web:\n        - web_navigat: { url: https://a.test }\n",
    );
    const all = await cli(["check", "--json"], { cwd: dir });
    expect(all.code).toBe(1);
    expect((JSON.parse(all.stdout) as CheckReport).findings.map((f) => [f.kind, f.file])).toEqual([
      ["trail-tool", "trails/backoffice/typo.trail.yaml"],
    ]);
    const shop = await cli(["check", "shop"], { cwd: dir });
    expect(shop).toMatchObject({
      code: 0,
      stdout: `Checked trails/config: 2 target(s), 1 toolset(s), 1 trail file(s), 1 session(s)\n  scope: trailmap shop (target shop)\n${SHOP}`,
    });
    expect((await cli(["check", "backoffice"], { cwd: dir })).code).toBe(1);
    // A library no target depends on: nothing of it runs, and the check says so.
    write(dir, "trails/config/trailmaps/orphan/trailmap.yaml", "id: orphan\ndefaults:\n  android:\n    tool_sets: [shop_basics]\n");
    const orphan = await cli(["check", "orphan"], { cwd: dir });
    expect(orphan).toEqual({
      code: 0,
      stderr: "",
      stdout:
        "Checked trails/config: 2 target(s), 1 toolset(s), 0 trail file(s), 0 session(s)\n  scope: trailmap orphan (no target)\n\n" +
        "! warning [config] trailmap orphan is not a target this workspace loads, and no target depends on it, so nothing of it runs and nothing was checked; " +
        "list it under targets: in trails/config/trailblaze.yaml (a trailmap with a target: block), or add it to a target's dependencies:\n" +
        "✓ 0 error(s), 1 warning(s)\n",
    });
  });

  test("outside any workspace, <trailmap-id> is looked for in examples/*/ below the working directory", async () => {
    const repo = join(TMP, "upstream-repo");
    cpSync(join(LAYOUT, "trails"), join(repo, "examples/shopdemo/trails"), { recursive: true });
    const run = await cli(["check", "shop"], { cwd: repo, env: { TRAILBLAZE_CONFIG_DIR: undefined } });
    expect(run).toEqual({
      code: 0,
      stderr: "note: using examples/shopdemo/trails/config, the workspace below the working directory with trailmap shop\n",
      stdout:
        "Checked examples/shopdemo/trails/config: 2 target(s), 1 toolset(s), 1 trail file(s), 1 session(s)\n  scope: trailmap shop (target shop)\n" +
        SHOP,
    });
    const missing = await cli(["check", "cart"], { cwd: repo, env: { TRAILBLAZE_CONFIG_DIR: undefined } });
    expect(missing).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `error: check: cart is not a trail file or folder, and no workspace has a trailmap of that name: no trailblaze-config/ folder or trails/config/trailblaze.yaml found from ${repo} upward, ` +
        "and no examples/*/trails/config/trailmaps/cart/trailmap.yaml below it; run check inside a workspace, or pass --workspace DIR\n",
    });
    cpSync(join(LAYOUT, "trails"), join(repo, "examples/shopcopy/trails"), { recursive: true });
    const twice = await cli(["check", "shop"], { cwd: repo, env: { TRAILBLAZE_CONFIG_DIR: undefined } });
    expect(twice).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "error: check: trailmap shop is in several workspaces: examples/shopcopy/trails/config, examples/shopdemo/trails/config; pass --workspace DIR to pick one\n",
    });
  });

  test("usage: contradicting choices, an unknown trailmap, a folder that is no workspace; exit 2", async () => {
    const refused = async (argv: string[], cwd = LAYOUT) => {
      const run = await cli(["check", ...argv], { cwd, env: { TRAILBLAZE_CONFIG_DIR: undefined } });
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: "" });
      return run.stderr;
    };
    expect(await refused(["shp"])).toBe(
      'error: check: shp is neither a trail file or folder nor a trailmap of trails/config (its trailmaps: backoffice, shop, shopkit); did you mean "shop"?\n',
    );
    expect(await refused(["shop", "--all"])).toBe(
      "error: check: --all and <trailmap-id> are mutually exclusive: --all checks every trailmap, an id one of them\n",
    );
    expect(await refused(["shop", "backoffice"])).toBe(
      "error: check: one trailmap at a time (got shop, backoffice); --all checks every trailmap\n",
    );
    expect(await refused(["shop", "trails/checkout"])).toBe(
      "error: check: give a trailmap id or trail files and folders, not both (got trailmap shop and trails/checkout)\n",
    );
    expect(await refused(["--all", "--target", "shop"])).toBe("error: check: --target and --all both choose what to check; keep one\n");
    expect(await refused(["--workspace", "fixtures/upstream-layout", "--config", "fixtures/demo"], REPO)).toBe(
      "error: check: --workspace and --config both name the workspace; keep one (--workspace takes the workspace root or its trails/config/)\n",
    );
    expect(await refused(["--workspace", "fixtures"], REPO)).toBe(
      `error: check: --workspace fixtures: ${join(REPO, "fixtures")} holds neither trails/config/trailblaze.yaml nor trailblaze-config/; pass the workspace root (the folder holding trails/) or its trails/config/\n`,
    );
    const help = await cli(["check", "--help"], { cwd: LAYOUT });
    expect(help.stdout).toContain("\n       npx trailblaze check [<trailmap-id> | --all] [--workspace DIR] [...]\n");
  });
});

describe("TRAILBLAZE_NAMING_WARNINGS=off", () => {
  test("silences the advisory naming warnings of tools and run; errors stay", async () => {
    const dir = demoCopy("naming-off");
    write(dir, "tools/myapp/extra.ts", SERVER(`server.registerTool("resetEverything", { description: "unscoped" }, ok);`));
    edit(
      dir,
      "trailblaze-config/targets/myapp.yaml",
      "  - script: ./tools/myapp/data.ts\n",
      "  - script: ./tools/myapp/data.ts\n  - script: ./tools/myapp/extra.ts\n",
    );
    write(dir, "trailblaze-config/targets/legacy_app.yaml", "id: legacy_app\n");
    const quiet = await cli(["tools", "--target", "myapp", "--json"], { cwd: dir, env: { TRAILBLAZE_NAMING_WARNINGS: "off" } });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe("");
  });
});
