// Protocol features the lifecycle relies on, pushed to their limits: progress that keeps a call
// alive up to the overall cap, server log messages into the session log, and tools/list_changed
// re-registered through the same filters and collision checks.

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ToolCollisionError, ToolNotFoundError } from "../src/errors.ts";
import type { ToolProgress } from "../src/core/server-kinds.ts";
import { eventually } from "./support/eventually.ts";
import { closeFaultSessions, faultLogs, startFaultSession, survivors } from "./support/faults.ts";
import { rejection } from "./support/rejection.ts";

afterAll(closeFaultSessions);

describe.concurrent("progress", () => {
  test("progress notifications reach onProgress and reset the call timeout", async () => {
    const { session } = await startFaultSession("features");
    const seen: ToolProgress[] = [];
    // 4 × 600 ms = 2.4 s of work against a 1500 ms timeout.
    const result = await session.dispatcher.dispatch(
      "features_progress",
      { steps: 4, intervalMs: 600 },
      { onProgress: (p) => seen.push(p) },
    );
    expect(result).toMatchObject({ variant: "Success", message: "done after 4 steps" });
    expect(seen).toEqual([1, 2, 3, 4].map((step) => ({ progress: step, total: 4, message: `step ${step} of 4` })));
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });

  test("without progress the call timeout applies; with endless progress the overall cap does (server value, per-call override)", async () => {
    const { session } = await startFaultSession("features");
    const silent = await session.dispatcher.dispatch("features_progress", { steps: 1, intervalMs: 2500 });
    expect(silent).toEqual({ variant: "ExceptionThrown", message: "timed out after 1500 ms", content: [], code: -32001 });
    const capped = (ms: number) => ({
      variant: "ExceptionThrown",
      message: `timed out after ${ms} ms overall (progress notifications extend the 1500 ms call timeout up to max_total_timeout_ms)`,
      content: [],
      code: -32001,
    });
    // 50 steps of 300 ms would end in 15 s with "done": the cap's message says it ended the call first.
    expect(await session.dispatcher.dispatch("features_progress", { steps: 50, intervalMs: 300 })).toEqual(capped(4000));
    expect(await session.dispatcher.dispatch("features_progress", { steps: 50, intervalMs: 300 }, { maxTotalTimeoutMs: 2000 })).toEqual(
      capped(2000),
    );
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });
});

describe.concurrent("server log messages", () => {
  test("notifications/message go to onServerLog and server_log_<server>.jsonl with their level", async () => {
    const { session, reported } = await startFaultSession("features", { "session-id": "fault-logging" });
    expect(await session.dispatcher.dispatch("features_log")).toMatchObject({ variant: "Success", message: "logged 3 messages" });
    const server = "servers/protocol-features.ts";
    const expected = [
      { server, level: "info", logger: "features", data: "starting" },
      { server, level: "warning", data: { detail: "disk almost full", freeMb: 12 } },
      { server, level: "error", logger: "features", data: "could not reach the backend" },
    ];
    expect(reported.logs.map(({ time: _time, ...rest }) => rest)).toEqual(expected);
    expect(reported.logs.every((entry) => entry.time instanceof Date)).toBe(true);
    await session.close();
    const lines = readFileSync(join(faultLogs, "fault-logging", "server_log_servers_protocol-features.jsonl"), "utf8")
      .trim()
      .split("\n");
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map(({ time: _time, ...rest }) => rest)).toEqual(expected);
    expect(parsed.every((entry) => typeof entry.time === "string" && !Number.isNaN(Date.parse(entry.time)))).toBe(true);
  });
});

describe.concurrent("tools/list_changed", () => {
  test("added and removed tools are re-registered through the filters", async () => {
    const { session, reported } = await startFaultSession("dynamic");
    const { registry, dispatcher } = session;
    await dispatcher.dispatch("dynamic_add", { name: "dynamic_extra" });
    expect(await eventually(() => registry.has("dynamic_extra"))).toBe(true);
    expect(registry.get("dynamic_extra")?.source).toBe("servers/dynamic-tools.ts");
    expect(await dispatcher.dispatch("dynamic_extra")).toMatchObject({ variant: "Success", message: "dynamic_extra ran" });

    await dispatcher.dispatch("dynamic_add", { name: "dynamic_iosOnly", meta: { "trailblaze/supportedPlatforms": ["IOS"] } });
    expect(await eventually(() => registry.findSkipped("dynamic_iosOnly") !== undefined)).toBe(true);
    expect(registry.findSkipped("dynamic_iosOnly")).toEqual({
      name: "dynamic_iosOnly",
      source: "servers/dynamic-tools.ts",
      reason: "trailblaze/supportedPlatforms",
      detail: "supports platforms [ios], session platform is android",
    });

    await dispatcher.dispatch("dynamic_remove", { name: "dynamic_extra" });
    expect(await eventually(() => !registry.has("dynamic_extra"))).toBe(true);
    const missing = await rejection(dispatcher.dispatch("dynamic_extra"));
    expect(missing).toBeInstanceOf(ToolNotFoundError);
    // The other server's tools are untouched.
    expect(registry.has("betweenCalls_pid")).toBe(true);
    expect(reported.toolsChanged.every((source) => source === "servers/dynamic-tools.ts")).toBe(true);
    expect(reported.toolsChanged.length).toBeGreaterThanOrEqual(3);
    expect(reported.fatal).toEqual([]);
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });

  test("a tool added under a name another server has is a collision naming both, and aborts the session", async () => {
    const { session, reported } = await startFaultSession("dynamic");
    await session.dispatcher.dispatch("dynamic_add", { name: "betweenCalls_pid" });
    expect(await eventually(() => reported.fatal.length > 0)).toBe(true);
    expect(reported.fatal[0]).toBeInstanceOf(ToolCollisionError);
    expect(reported.fatal[0]!.message).toBe(
      'Tool name collision: "betweenCalls_pid" is advertised by both servers/crash-between-calls.ts and servers/dynamic-tools.ts. ' +
        "Tool names are global and registered exactly as advertised; rename the tool in one of the sources.",
    );
    expect(session.registry.get("betweenCalls_pid")?.source).toBe("servers/crash-between-calls.ts");
    expect(session.registry.has("dynamic_add")).toBe(false);
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });
});
