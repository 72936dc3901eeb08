// Fault suite, servers that do not answer: a handshake that never completes, a call that never
// answers (per-call timeout → notifications/cancelled the server sees), calls in flight when the
// session closes, and a server that ignores SIGTERM (gone within the 7 s budget).

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { HandshakeTimeoutError } from "../src/errors.ts";
import { eventually } from "./support/eventually.ts";
import {
  closeFaultSessions,
  faultLogs,
  firstText,
  processesMentioning,
  startFaultSession,
  survivors,
  treeOf,
  type FaultSession,
} from "./support/faults.ts";
import { rejection } from "./support/rejection.ts";

afterAll(closeFaultSessions);

const HANG_SERVER = "servers/hangs-in-call.ts";

/** Until the server's hang_forever has started (it says so on stderr): only then can it see a cancellation. */
async function hanging(session: FaultSession["session"]): Promise<void> {
  expect(await eventually(() => session.diagnostics(HANG_SERVER).includes("hang_forever: started"), 20_000)).toBe(true);
}

describe.concurrent("no answer", () => {
  test("a handshake that never answers is bounded; the server is stopped; the next session works", async () => {
    const error = await rejection(startFaultSession("silent", {}, { TRAILBLAZE_HANDSHAKE_TIMEOUT_MS: "800" }));
    expect(error).toBeInstanceOf(HandshakeTimeoutError);
    expect(error.message).toBe(
      "MCP server servers/silent-handshake.ts did not complete initialize + tools/list within 800 ms; it was stopped. " +
        "Make sure it calls server.connect(new StdioServerTransport()) and writes nothing else to stdout.\n" +
        "--- last 1 stderr line(s) ---\n" +
        "silent-handshake: listening and never answering",
    );
    expect(processesMentioning("silent-handshake.ts")).toEqual([]);
    const { session } = await startFaultSession("garbage");
    expect(firstText(await session.dispatcher.dispatch("garbage_shout", { text: "ok" }))).toBe("OK");
    await session.close();
  });

  test("a call that never answers times out (server timeout_ms, per-call override), is cancelled, and the server sees it", async () => {
    const { session, reported } = await startFaultSession("hang");
    expect(session.spec.callTimeoutMs).toBe(60_000);
    const timedOut = (ms: number) => ({ variant: "ExceptionThrown", message: `timed out after ${ms} ms`, content: [], code: -32001 });
    expect(await session.dispatcher.dispatch("hang_forever")).toEqual(timedOut(1000));
    expect(await session.dispatcher.dispatch("hang_forever", {}, { timeoutMs: 300 })).toEqual(timedOut(300));
    const seen = await session.dispatcher.dispatch("hang_cancellations");
    expect(seen.structuredContent).toEqual({
      cancellations: ["timed out after 1000 ms", "timed out after 300 ms"],
    });
    expect(reported.fatal).toEqual([]);
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });

  test("a caller's abort cancels the call with its reason", async () => {
    const { session } = await startFaultSession("hang");
    const controller = new AbortController();
    const pending = session.dispatcher.dispatch("hang_forever", {}, { signal: controller.signal });
    await hanging(session);
    controller.abort("the trail was stopped");
    expect(await pending).toEqual({ variant: "ExceptionThrown", message: "cancelled: the trail was stopped", content: [] });
    const seen = await session.dispatcher.dispatch("hang_cancellations");
    expect(seen.structuredContent).toEqual({ cancellations: ["the trail was stopped"] });
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });

  test("closing the session cancels calls in flight; the server gets the cancellation before it is stopped", async () => {
    const { session } = await startFaultSession("hang", { "session-id": "fault-close-cancels" });
    const order: string[] = [];
    const pending = session.dispatcher.dispatch("hang_forever", {}, { timeoutMs: 30_000 }).finally(() => order.push("call settled"));
    await hanging(session);
    await session.close();
    order.push("session closed");
    const reason = "MCP server servers/hangs-in-call.ts was closed while the call ran";
    expect(await pending).toEqual({ variant: "ExceptionThrown", message: `cancelled: ${reason}`, content: [] });
    expect(order).toEqual(["call settled", "session closed"]);
    // The cancellation reached the server, which then exited on stdin EOF: no SIGTERM was needed
    // (the fixture logs one), which the clock used to stand for.
    const log = readFileSync(join(faultLogs, "fault-close-cancels", "subprocess_stderr_servers_hangs-in-call.log"), "utf8");
    expect(log).toBe(`hang_forever: started\nhang_forever: cancelled by the client: ${reason}\n`);
    expect(await survivors(session.pids())).toEqual([]);
  });

  test("a server (and a helper of its group) ignoring SIGTERM and stdin EOF is gone after close: stdin EOF, SIGTERM, then SIGKILL", async () => {
    const { session } = await startFaultSession("stubborn", { "session-id": "fault-stubborn" });
    const helper = (await session.dispatcher.dispatch("stubborn_helperPid")).structuredContent?.pid as number;
    const tree = treeOf(session.pids());
    expect(tree.map((p) => p.pid)).toContain(helper);
    // The real sequence a user meets (5 s after stdin closes, then SIGTERM, 2 s, then SIGKILL):
    // its order is checked by the log line below and by the survivors, not by the clock.
    await session.close();
    expect(await survivors(session.pids(), tree, 0)).toEqual([]);
    const log = readFileSync(join(faultLogs, "fault-stubborn", "subprocess_stderr_servers_ignores-sigterm.log"), "utf8");
    expect(log).toBe("ignores-sigterm: got SIGTERM, staying up\n");
  });
});
