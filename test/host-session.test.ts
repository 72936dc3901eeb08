// The host path end to end: real bun subprocesses running real SDK servers from
// fixtures/host, driven through the session, registry, dispatcher and CLI.

import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { findConfigDir, loadWorkspace } from "../src/config/workspace.ts";
import { STDIO_IN_BOTH_MODES } from "./support/launchers.ts";
import { resolveSessionSpec, type SessionFlags } from "../src/session/session-spec.ts";
import { Session } from "../src/session/session.ts";
import { processAlive } from "./support/process-alive.ts";
import { cli, cliProcess, REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const HOST = join(REPO, "fixtures/host");
const logs = tempDir("host-logs");
const env = { ...process.env, PATH: TEST_PATH };
const opened: Session[] = [];

async function startSession(flags: SessionFlags, extraEnv: Record<string, string> = {}): Promise<Session> {
  const workspace = await loadWorkspace(await findConfigDir({ cwd: HOST }));
  const spec = resolveSessionSpec(workspace, { logs, ...flags }, { cwd: HOST, env: { ...env, ...extraEnv } });
  const session = await Session.start(spec, {
    launchers: STDIO_IN_BOTH_MODES,
  });
  opened.push(session);
  return session;
}

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

describe("registration", () => {
  test("tools --json lists every advertised name unchanged, skipped tools with the key that excluded them", async () => {
    const run = await cli(["tools", "--target", "fixture", "--json", "--logs", logs], { cwd: HOST });
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.session).toEqual({ target: "fixture", driver: "android-ondevice-accessibility", platform: "android", agent: "host" });
    const served = doc.tools
      .filter((t: { transport: string }) => t.transport === "stdio")
      .map((t: { name: string; source: string }) => `${t.source}:${t.name}`);
    expect(served).toEqual([
      "tools/primary.ts:fixture_echo",
      "tools/primary.ts:fixture_whereAmI",
      "tools/primary.ts:fixture_contextArgs",
      "tools/primary.ts:fixture_accessibilityOnly",
      "tools/primary.ts:fixture_hostOnly",
      "tools/primary.ts:fixture_pushed",
      "tools/primary.ts:fixture_env",
      "tools/primary.ts:fixture_variant",
      "tools/primary.ts:fixture_crash",
      "tools/primary.ts:fixture_badMeta",
      "tools/secondary.ts:fixture_whoServes",
    ]);
    expect(doc.skipped.filter((s: { source: string }) => s.source !== "builtin")).toEqual([
      {
        name: "fixture_iosOnly",
        source: "tools/primary.ts",
        reason: "trailblaze/supportedPlatforms",
        detail: "supports platforms [ios], session platform is android",
      },
    ]);
    // Built-ins pass the same gates: web_* and compose_* are not for an Android session.
    const builtinSkips = doc.skipped.filter((s: { source: string }) => s.source === "builtin");
    expect(builtinSkips.find((s: { name: string }) => s.name === "web_click")).toEqual({
      name: "web_click",
      source: "builtin",
      reason: "trailblaze/supportedPlatforms",
      detail: "supports platforms [web], session platform is android",
    });
    expect(
      builtinSkips.every(
        (s: { name: string }) => s.name.startsWith("web_") || s.name.startsWith("compose_") || s.name === "playwright_desktop_launchGoose",
      ),
    ).toBe(true);
    const byName = Object.fromEntries(doc.tools.map((t: { name: string }) => [t.name, t]));
    expect(byName.fixture_pushed.toolset).toBe("fixture_other");
    expect(byName.fixture_echo.toolset).toBe("fixture_core");
    expect(byName.assertEquals.transport).toBe("builtin");
    // The reserved key a tool declares in its zod shape is never shown.
    expect(Object.keys(byName.fixture_contextArgs.inputSchema.properties)).toEqual(["note"]);
    expect(run.stderr).toBe(
      `warning: tools/primary.ts: tool fixture_badMeta: _meta["trailblaze/requiresHost"] should be a boolean, got a string ("yes"); using false\n`,
    );
  });

  test("supportedDrivers and requiresHost filters follow the session's driver and agent", async () => {
    const instrumentation = await startSession({ target: "fixture", driver: "ANDROID_ONDEVICE_INSTRUMENTATION" });
    expect(instrumentation.registry.findSkipped("fixture_accessibilityOnly")).toMatchObject({ reason: "trailblaze/supportedDrivers" });
    expect(instrumentation.registry.has("fixture_hostOnly")).toBe(true);
    const ios = await startSession({ target: "fixture", driver: "ios-host" });
    expect(ios.registry.has("fixture_iosOnly")).toBe(true);
    expect(ios.registry.findSkipped("fixture_accessibilityOnly")).toMatchObject({ reason: "trailblaze/supportedDrivers" });
    await Promise.all([instrumentation.close(), ios.close()]);
  });

  test("a name advertised by two servers fails registration naming both, and nothing keeps running", async () => {
    const run = await cli(["tools", "--target", "collide", "--logs", logs], { cwd: HOST });
    expect(run.code).toBe(2);
    expect(run.stderr).toEndWith(
      'error: Tool name collision: "fixture_echo" is advertised by both tools/primary.ts and tools/collides.ts. ' +
        "Tool names are global and registered exactly as advertised; rename the tool in one of the sources.\n",
    );
  });

  test("tools/list is read across pages; a repeated cursor is refused", async () => {
    const paged = await startSession({ target: "paged" });
    expect(paged.registry.names().filter((n) => n.startsWith("paged_"))).toEqual(["paged_tool0", "paged_tool1", "paged_tool2"]);
    await paged.close();
    const run = await cli(["tools", "--target", "paged", "--logs", logs], { cwd: HOST, env: { PAGINATION: "loop" } });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('error: MCP server tools/paginated.ts repeated tools/list cursor "same"; stopped listing\n');
  });
});

describe("dispatch", () => {
  test("calls route to the subprocess that advertised the tool", async () => {
    const session = await startSession({ target: "fixture" });
    const [primaryPid, secondaryPid] = session.pids();
    const env = await session.dispatcher.dispatch("fixture_env");
    const who = await session.dispatcher.dispatch("fixture_whoServes", { n: 2 });
    expect(new Set([env.structuredContent?.pid, who.structuredContent?.pid])).toEqual(new Set([primaryPid, secondaryPid]));
    expect(who).toMatchObject({ variant: "Success", structuredContent: { server: "secondary", n: 2 } });
    await session.close();
  });

  test("_trailblazeContext reaches args (declared) and _meta (standard tier-2 handler)", async () => {
    const session = await startSession({ target: "fixture", driver: "ios-host", screen: "800x600", memory: ["x=42"] });
    const declared = await session.dispatcher.dispatch("fixture_contextArgs", { note: "n" });
    expect(declared.structuredContent).toEqual({
      context: {
        sessionId: session.spec.id,
        invocationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        memory: { x: "42" },
        device: { platform: "IOS", widthPixels: 800, heightPixels: 600, driverType: "ios-host" },
        target: { id: "fixture", displayName: "Host path fixture", appIds: ["com.example.fixture"], appId: "com.example.fixture" },
      },
    });
    const standard = await session.dispatcher.dispatch("fixture_whereAmI", { label: "here" });
    expect(standard).toMatchObject({
      variant: "Success",
      message: "here: IOS x=42",
      structuredContent: { platform: "IOS", width: 800, x: "42" },
    });
    await session.close();
  });

  test("the environment contract and what the entry's env: names reach the server; cwd is the script's folder", async () => {
    const session = await startSession({ target: "fixture", "session-id": "env-check" }, { FIXTURE_SENTINEL: "sentinel-1" });
    const result = await session.dispatcher.dispatch("fixture_env");
    expect(result.structuredContent).toMatchObject({
      sentinel: "sentinel-1",
      platform: "ANDROID",
      driver: "android-ondevice-accessibility",
      width: "1080",
      height: "2400",
      sessionId: "env-check",
      toolsetFile: join(HOST, "tools/primary.ts"),
      cwd: join(HOST, "tools"),
      runtime: "bun",
    });
    await session.close();
  });

  test("every result variant maps as the conventions say", async () => {
    const session = await startSession({ target: "fixture" });
    const call = (kind: string) => session.dispatcher.dispatch("fixture_variant", { kind });
    expect(await call("success")).toMatchObject({ variant: "Success", message: "all good", structuredContent: { ok: true } });
    expect(await call("isError")).toMatchObject({ variant: "ExceptionThrown", message: "the backend said no" });
    expect(await call("throw")).toMatchObject({ variant: "ExceptionThrown", message: "handler blew up" });
    expect(await call("fatal")).toMatchObject({ variant: "FatalError", message: "device is disconnected" });
    expect(await call("missing")).toMatchObject({ variant: "MissingRequiredArgs", message: "email is required" });
    expect(await call("custom")).toMatchObject({ variant: "MaestroValidationError", message: "selector matched nothing" });
    const invalid = await call("nonsense");
    expect(invalid.variant).toBe("ExceptionThrown");
    expect(invalid.message).toStartWith("MCP error -32602: Input validation error");
    await session.close();
  });

  test("an unknown tool names the closest registered ones", async () => {
    const run = await cli(["call", "fixture_ecko", "--target", "fixture", "--logs", logs], { cwd: HOST });
    expect(run.code).toBe(2);
    expect(run.stderr).toEndWith(
      'error: Unknown tool "fixture_ecko": no registered tool has that name; did you mean "fixture_echo", "fixture_env"?\n',
    );
  });
});

describe("lifecycle", () => {
  test("closing the session stops every server (PIDs gone)", async () => {
    const session = await startSession({ target: "fixture" });
    const pids = session.pids();
    expect(pids).toHaveLength(2);
    expect(pids.every(processAlive)).toBe(true);
    await session.close();
    expect(pids.filter(processAlive)).toEqual([]);
  });

  test("a server that dies mid-call aborts the session with its exit code and stderr tail", async () => {
    const session = await startSession({ target: "fixture", "session-id": "crash-check" });
    const pids = session.pids();
    let aborted: Error | undefined;
    session.onFatal((error) => (aborted = error));
    const result = await session.dispatcher.dispatch("fixture_crash");
    expect(result.variant).toBe("FatalError");
    expect(result.message).toBe(
      "MCP server tools/primary.ts exited with code 7 during the session\n" +
        "--- last 1 stderr line(s) ---\n" +
        "fixture_crash: about to exit with code 7",
    );
    expect(aborted?.message).toBe(result.message);
    expect(session.fatal).toBe(aborted);
    // Later calls to the dead server fail the same way instead of hanging.
    expect(await session.dispatcher.dispatch("fixture_echo", { text: "x" })).toMatchObject({ variant: "FatalError" });
    await session.close();
    expect(pids.filter(processAlive)).toEqual([]);
    const log = readFileSync(join(logs, "crash-check", "subprocess_stderr_tools_primary.log"), "utf8");
    expect(log).toContain("fixture_crash: about to exit with code 7");
  });

  test("a handshake that never completes is bounded and the child is stopped", async () => {
    const run = await cli(["tools", "--target", "silent", "--logs", logs], { cwd: HOST, env: { TRAILBLAZE_HANDSHAKE_TIMEOUT_MS: "800" } });
    expect(run.code).toBe(2);
    expect(run.stderr).toEndWith(
      "error: MCP server tools/silent.ts did not complete initialize + tools/list within 800 ms; it was stopped. " +
        "Make sure it calls server.connect(new StdioServerTransport()) and writes nothing else to stdout.\n" +
        "--- last 1 stderr line(s) ---\nsilent fixture: listening and never answering\n",
    );
  });

  test("without bun or node on PATH, servers run with the bun that runs the CLI", async () => {
    const empty = tempDir("empty-path");
    const run = await cli(["call", "fixture_env", "--target", "fixture", "--logs", logs, "--json"], { cwd: HOST, env: { PATH: empty } });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).result.structuredContent).toMatchObject({ runtime: "bun" });
  });

  test("the node + tsx fallback runs the same server", async () => {
    const session = await startSession({ target: "fixture" }, { TRAILBLAZE_RUNTIME: "node" });
    const result = await session.dispatcher.dispatch("fixture_env");
    expect(result.structuredContent).toMatchObject({ runtime: "node", platform: "ANDROID" });
    expect(await session.dispatcher.dispatch("fixture_echo", { text: "via tsx" })).toMatchObject({ message: "echo: via tsx" });
    await session.close();
  });
});

describe("CLI as a subprocess", () => {
  test("call --json prints one JSON document and exits 1 for an error variant", async () => {
    const run = await cliProcess(
      ["call", "fixture_variant", "--target", "fixture", "--args", '{"kind":"fatal"}', "--json", "--logs", logs],
      { cwd: HOST },
    );
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      tool: "fixture_variant",
      result: { status: "error", variant: "FatalError", message: "device is disconnected" },
    });
  });

  test("call prints a success and exits 0; its log folder holds calls.jsonl only when no server wrote to stderr", async () => {
    const run = await cliProcess(
      ["call", "fixture_echo", "--target", "fixture", "--args", '{"text":"hi"}', "--session-id", "cli-ok", "--logs", logs],
      { cwd: HOST },
    );
    expect(run).toEqual({ code: 0, stdout: "✓ fixture_echo: echo: hi\n", stderr: expect.any(String) });
    expect(readdirSync(join(logs, "cli-ok"))).toEqual(["calls.jsonl"]);
  });
});

describe("the node runtime", () => {
  test("runs ESM TypeScript with top-level await in a folder whose package.json says CommonJS", async () => {
    const dir = join(REPO, "fixtures/cjs-folder");
    const run = await cli(["call", "cjs_greet", "--json", "--logs", logs], { cwd: dir, env: { TRAILBLAZE_RUNTIME: "node" } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).result).toMatchObject({ status: "success", message: "hello from a commonjs folder" });
  });
});

describe("call of a tool the session does not register", () => {
  test("explains the filter, as run does, and exits 2", async () => {
    const filtered = await cli(["call", "fixture_iosOnly", "--target", "fixture", "--logs", logs], { cwd: HOST });
    expect(filtered.code).toBe(2);
    expect(filtered.stderr).toContain(
      'error: call: fixture_iosOnly is not registered in this session: _meta["trailblaze/supportedPlatforms"] of tools/primary.ts excluded it (supports platforms [ios], session platform is android)\n',
    );
  });
});
