// Fault suite, opt-in restart (`restart: { max_attempts: N }`): a crash between calls relaunches
// the server and the session goes on; a call in flight at the crash fails and is never sent again;
// once the attempts are used up the session is aborted.

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./support/cli.ts";
import { eventually } from "./support/eventually.ts";
import { closeFaultSessions, firstText, startFaultSession, survivors } from "./support/faults.ts";

afterAll(closeFaultSessions);

describe.concurrent("restart", () => {
  test("a crash between calls relaunches the server; the next call goes to the new process; the last allowed crash aborts", async () => {
    const { session, reported } = await startFaultSession("restart");
    const pid = async () => (await session.dispatcher.dispatch("betweenCalls_pid")).structuredContent?.pid as number;
    const first = await pid();

    expect(await session.dispatcher.dispatch("betweenCalls_exitSoon")).toMatchObject({ variant: "Success" });
    expect(await eventually(() => reported.notices.length === 1)).toBe(true);
    expect(reported.notices).toEqual([
      "MCP server servers/crash-between-calls.ts exited with code 4 during the session; restarting it (restart 1 of 1; no call was in flight)",
    ]);
    // Dispatch waits for the relaunch instead of failing on the dead process.
    const second = await pid();
    expect(second).not.toBe(first);
    expect(reported.fatal).toEqual([]);
    expect(reported.toolsChanged).toEqual(["servers/crash-between-calls.ts"]);

    expect(await session.dispatcher.dispatch("betweenCalls_exitSoon")).toMatchObject({ variant: "Success" });
    expect(await eventually(() => reported.fatal.length === 1)).toBe(true);
    expect(reported.fatal[0]!.message).toBe(
      "MCP server servers/crash-between-calls.ts exited with code 4 during the session; not restarted: restart.max_attempts (1) used up\n" +
        "--- last 1 stderr line(s) ---\n" +
        "crash-between-calls: exiting after the answer",
    );
    expect(session.pids()).toHaveLength(3);
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });

  test("a crash during a call fails that call (FatalError, never retried) and relaunches the server for the next", async () => {
    const marks = join(tempDir("restart-marks"), "calls.log");
    const { session, reported } = await startFaultSession("restart", {}, { FAULT_MARKS: marks });
    const echo = () => session.dispatcher.dispatch("crashInCall_echo", { text: "hi" });
    const before = firstText(await echo());

    const crashed = await session.dispatcher.dispatch("crashInCall_crash");
    expect(crashed).toEqual({
      variant: "FatalError",
      message:
        "MCP server servers/crash-in-call.ts exited with code 3 during the session\n" +
        "--- last 1 stderr line(s) ---\n" +
        "crash-in-call: fatal: database handle lost",
      content: [],
    });
    expect(reported.notices).toEqual([
      "MCP server servers/crash-in-call.ts exited with code 3 during the session; restarting it (restart 1 of 2; the call in flight failed and is not retried)",
    ]);
    const after = firstText(await echo());
    expect(after).toStartWith("echo hi from ");
    expect(after).not.toBe(before);
    expect(reported.fatal).toEqual([]);
    expect(session.fatal).toBeUndefined();
    // One invocation only: the crashed call was not sent again to the new process.
    expect(readFileSync(marks, "utf8").trim().split("\n")).toHaveLength(1);
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });
});
