// `command:` entries against a real third-party MCP server installed from npm: the reference
// "everything" server (@modelcontextprotocol/server-everything), run with `node <file>` and
// through `npx --no-install`, listed, called, with progress, log messages and the env contract.

import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ToolProgress } from "../src/core/server-kinds.ts";
import { cliProcess, TEST_PATH } from "./support/cli.ts";
import { eventually } from "./support/eventually.ts";
import { closeFaultSessions, FAULTS, faultLogs, firstText, startFaultSession, survivors, treeOf } from "./support/faults.ts";
import { rejection } from "./support/rejection.ts";

afterAll(closeFaultSessions);

const SOURCE = "node ../../node_modules/@modelcontextprotocol/server-everything/dist/index.js stdio";
const TOOLS = [
  "echo",
  "get-annotated-message",
  "get-env",
  "get-resource-links",
  "get-resource-reference",
  "get-structured-content",
  "get-sum",
  "get-tiny-image",
  "gzip-file-as-resource",
  "toggle-simulated-logging",
  "toggle-subscriber-updates",
  "trigger-long-running-operation",
  // Registered once the client is initialized: it may arrive through tools/list_changed.
  "simulate-research-query",
];

describe.concurrent("the everything server as a command: entry", () => {
  test("lists its tools under their advertised names and answers calls", async () => {
    const { session, reported } = await startFaultSession("everything");
    expect(await eventually(() => TOOLS.every((name) => session.registry.has(name)))).toBe(true);
    expect(
      session.registry
        .list()
        .filter((t) => t.source === SOURCE)
        .map((t) => t.name)
        .toSorted(),
    ).toEqual(TOOLS.toSorted());
    expect(session.registry.get("echo")).toMatchObject({ transport: "stdio", description: "Echoes back the input string" });

    expect(await session.dispatcher.dispatch("echo", { message: "through trailblaze" })).toMatchObject({
      variant: "Success",
      message: "Echo: through trailblaze",
    });
    expect(firstText(await session.dispatcher.dispatch("get-sum", { a: 2, b: 3 }))).toBe("The sum of 2 and 3 is 5.");
    const invalid = await session.dispatcher.dispatch("get-sum", { a: "two" });
    expect(invalid.variant).toBe("ExceptionThrown");
    expect(reported.warnings).toEqual([]);
    expect(reported.fatal).toEqual([]);

    const tree = treeOf(session.pids());
    await session.close();
    expect(await survivors(session.pids(), tree)).toEqual([]);
  });

  test("env: the allow-listed parent env + TRAILBLAZE_* contract + the entry's env with ${VAR:-default}; nothing else of the parent's", async () => {
    const run = async (env: Record<string, string>) => {
      const { session } = await startFaultSession("everything", { "session-id": `everything-env-${Object.keys(env).length}` }, env);
      const vars = JSON.parse(firstText(await session.dispatcher.dispatch("get-env"))) as Record<string, string>;
      await session.close();
      expect(await survivors(session.pids())).toEqual([]);
      return vars;
    };
    const defaults = await run({ COMMAND_SENTINEL: "from-parent" });
    expect(defaults.COMMAND_SENTINEL).toBeUndefined();
    expect(defaults).toMatchObject({
      PATH: TEST_PATH,
      EVERYTHING_GREETING: "hello from the default",
      TRAILBLAZE_DEVICE_PLATFORM: "ANDROID",
      TRAILBLAZE_DEVICE_DRIVER: "android-ondevice-accessibility",
      TRAILBLAZE_DEVICE_WIDTH_PX: "1080",
      TRAILBLAZE_DEVICE_HEIGHT_PX: "2400",
      TRAILBLAZE_SESSION_ID: "everything-env-1",
    });
    expect(defaults.TRAILBLAZE_TOOLSET_FILE).toBeUndefined();
    expect((await run({ GREETING: "hi", COMMAND_SENTINEL: "x" })).EVERYTHING_GREETING).toBe("hi");
  });

  test("progress from a long-running tool reaches onProgress; log messages reach the session log", async () => {
    const { session, reported } = await startFaultSession("everything", { "session-id": "everything-features" });
    const progress: ToolProgress[] = [];
    const done = await session.dispatcher.dispatch(
      "trigger-long-running-operation",
      { duration: 1, steps: 4 },
      { onProgress: (p) => progress.push(p) },
    );
    expect(done).toMatchObject({ variant: "Success", message: "Long running operation completed. Duration: 1 seconds, Steps: 4." });
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
      [4, 4],
    ]);

    await session.dispatcher.dispatch("toggle-simulated-logging");
    expect(await eventually(() => reported.logs.length > 0)).toBe(true);
    // It stops sending on the second toggle.
    await session.dispatcher.dispatch("toggle-simulated-logging");
    const [first] = reported.logs;
    expect(first?.server).toBe(SOURCE);
    expect(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]).toContain(first!.level);
    expect(String(first!.data)).toMatch(/message/i);
    // Closed whichever way it has to be (stdin EOF, else the signals): what counts is that nothing survives.
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
    const log = await Bun.file(
      join(
        faultLogs,
        "everything-features",
        `server_log_node_.._.._node_modules_modelcontextprotocol_server-everything_dist_index.js_stdio.jsonl`,
      ),
    ).text();
    expect(JSON.parse(log.split("\n")[0]!)).toMatchObject({ server: SOURCE, level: first!.level });
  });

  test("through npx --no-install: the wrapper and the server it starts are all stopped", async () => {
    const { session } = await startFaultSession("everythingNpx");
    expect(await session.dispatcher.dispatch("echo", { message: "via npx" })).toMatchObject({
      variant: "Success",
      message: "Echo: via npx",
    });
    const tree = treeOf(session.pids());
    // npx (npm exec) runs the bin in a child: more than one process to stop.
    expect(tree.length).toBeGreaterThanOrEqual(2);
    await session.close();
    expect(await survivors(session.pids(), tree)).toEqual([]);
  });

  test("in an on-device session command: entries are skipped with a notice", async () => {
    const { session, reported } = await startFaultSession("everything", { agent: "on-device" });
    expect(reported.notices).toEqual([`${SOURCE}: command: servers run only with the host agent; skipped in this on-device session`]);
    expect(session.registry.has("echo")).toBe(false);
    expect(session.pids()).toEqual([]);
    await session.close();
  });

  test("a command that is not on PATH, or an unset ${VAR}, fails the session start with the fix", async () => {
    const missing = await rejection(startFaultSession("missingCommand"));
    expect(missing.message).toBe(
      "Cannot start MCP server trailblaze-no-such-mcp-server --stdio: trailblaze-no-such-mcp-server was not found (ENOENT); install it or put it on PATH",
    );
    const unset = await rejection(startFaultSession("unsetVar"));
    expect(unset.message).toBe(
      "trailblaze-config/targets/unsetVar.yaml:3:5 mcp_servers[0].env.API_TOKEN: ${FAULTS_API_TOKEN} is not set in the environment; " +
        "set it, or give a default: ${FAULTS_API_TOKEN:-value}",
    );
    const { session } = await startFaultSession("unsetVar", {}, { FAULTS_API_TOKEN: "t0ken" });
    expect(session.registry.has("helpers_pids")).toBe(true);
    const tree = treeOf(session.pids());
    await session.close();
    expect(await survivors(session.pids(), tree)).toEqual([]);
  });

  test("the CLI calls it end to end", async () => {
    const run = await cliProcess(["call", "echo", "--target", "everything", "--args", '{"message":"from the CLI"}', "--logs", faultLogs], {
      cwd: FAULTS,
    });
    expect(run.stdout).toBe("✓ echo: Echo: from the CLI\n");
    expect(run.code).toBe(0);
  });
});
