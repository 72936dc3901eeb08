// Fault suite, crashes: a server that dies during initialize, during a call, or between calls.
// Each test asserts the exact error, that the session (or the next one) still works, and that
// no process of the test survives.

import { afterAll, describe, expect, test } from "bun:test";
import { ServerExitedError } from "../src/errors.ts";
import { eventually } from "./support/eventually.ts";
import { closeFaultSessions, firstText, processesMentioning, startFaultSession, survivors } from "./support/faults.ts";
import { rejection } from "./support/rejection.ts";

afterAll(closeFaultSessions);

describe.concurrent("crashes", () => {
  test("during initialize: the session does not start, the error has the exit code and stderr; the next session works", async () => {
    const error = await rejection(startFaultSession("crashInit"));
    expect(error).toBeInstanceOf(ServerExitedError);
    expect(error.message).toBe(
      "MCP server servers/crash-in-initialize.ts exited with code 5 during startup (initialize/tools/list)\n" +
        "--- last 1 stderr line(s) ---\n" +
        "crash-in-initialize: dying on initialize",
    );
    expect(processesMentioning("crash-in-initialize.ts")).toEqual([]);

    const { session } = await startFaultSession("crashCall");
    expect(firstText(await session.dispatcher.dispatch("crashInCall_echo", { text: "next" }))).toStartWith("echo next from ");
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });

  test("during a call: that call is a FatalError, the session is aborted, later calls fail fast; the next session works", async () => {
    const { session, reported } = await startFaultSession("crashCall");
    const pids = session.pids();
    const crashed =
      "MCP server servers/crash-in-call.ts exited with code 3 during the session\n" +
      "--- last 1 stderr line(s) ---\n" +
      "crash-in-call: fatal: database handle lost";
    expect(await session.dispatcher.dispatch("crashInCall_crash")).toEqual({ variant: "FatalError", message: crashed, content: [] });
    expect(reported.fatal.map((e) => e.message)).toEqual([crashed]);
    expect(session.fatal?.message).toBe(crashed);
    expect(await session.dispatcher.dispatch("crashInCall_echo", { text: "x" })).toEqual({
      variant: "FatalError",
      message: crashed,
      content: [],
    });
    await session.close();
    expect(await survivors(pids)).toEqual([]);

    const next = await startFaultSession("crashCall");
    expect(firstText(await next.session.dispatcher.dispatch("crashInCall_echo", { text: "again" }))).toStartWith("echo again from ");
    await next.session.close();
    expect(await survivors(next.session.pids())).toEqual([]);
  });

  test("between calls: the session is aborted as soon as the exit is seen, with no call in flight", async () => {
    const { session, reported } = await startFaultSession("crashBetween");
    const pids = session.pids();
    const answered = await session.dispatcher.dispatch("betweenCalls_exitSoon");
    expect(answered).toMatchObject({ variant: "Success", message: "answered; exiting in 100 ms" });
    expect(await eventually(() => reported.fatal.length > 0)).toBe(true);
    const crashed =
      "MCP server servers/crash-between-calls.ts exited with code 4 during the session\n" +
      "--- last 1 stderr line(s) ---\n" +
      "crash-between-calls: exiting after the answer";
    expect(reported.fatal.map((e) => e.message)).toEqual([crashed]);
    expect(await session.dispatcher.dispatch("betweenCalls_pid")).toEqual({ variant: "FatalError", message: crashed, content: [] });
    expect(reported.notices).toEqual([]);
    await session.close();
    expect(await survivors(pids)).toEqual([]);
  });
});
