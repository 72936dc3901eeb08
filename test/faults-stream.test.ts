// Fault suite, what a server writes: non-JSON lines on stdout (skipped and logged), a message
// over the size cap (fails that server only), a stderr flood (never blocks the child).

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ServerFailedError } from "../src/errors.ts";
import { closeFaultSessions, faultLogs, firstText, startFaultSession, survivors } from "./support/faults.ts";

afterAll(closeFaultSessions);

describe.concurrent("stdout and stderr", () => {
  test("non-JSON lines on stdout are skipped and logged; the session goes on", async () => {
    const { session, reported } = await startFaultSession("garbage", { "session-id": "fault-garbage" });
    expect(await session.dispatcher.dispatch("garbage_shout", { text: "still works" })).toMatchObject({
      variant: "Success",
      message: "STILL WORKS",
    });
    expect(firstText(await session.dispatcher.dispatch("garbage_shout", { text: "twice" }))).toBe("TWICE");
    expect(reported.fatal).toEqual([]);
    await session.close();
    const log = readFileSync(join(faultLogs, "fault-garbage", "subprocess_stderr_servers_prints-garbage.log"), "utf8");
    const skipped = (line: string) =>
      `[trailblaze] MCP server servers/prints-garbage.ts wrote a non-JSON-RPC line to stdout (skipped; servers must log to stderr): ${line}`;
    expect(log.split("\n").filter((l) => l.startsWith("[trailblaze]"))).toEqual([
      skipped("garbage: banner on stdout"),
      skipped("garbage: debug print in a handler"),
      skipped("garbage: debug print in a handler"),
    ]);
    expect(await survivors(session.pids())).toEqual([]);
  });

  test("a message over max_message_bytes fails that server only: the call is a FatalError, other servers keep answering", async () => {
    const { session, reported } = await startFaultSession("huge");
    const pids = session.pids();
    expect(firstText(await session.dispatcher.dispatch("huge_reply", { bytes: 90_000 }))).toHaveLength(90_000);
    const stopped =
      "MCP server servers/huge-message.ts wrote a message of more than 100000 bytes to stdout " +
      "(limit: max_message_bytes, default 10485760); the server was stopped. " +
      "Return less (a summary, or where to find the data), or raise max_message_bytes on the server's entry in the target";
    expect(await session.dispatcher.dispatch("huge_reply", { bytes: 150_000 })).toEqual({
      variant: "FatalError",
      message: stopped,
      content: [],
    });
    expect(reported.fatal).toHaveLength(1);
    expect(reported.fatal[0]).toBeInstanceOf(ServerFailedError);
    expect(reported.fatal[0]!.message).toBe(stopped);
    // The other server of the session is untouched.
    expect(await session.dispatcher.dispatch("betweenCalls_pid")).toMatchObject({
      variant: "Success",
      structuredContent: { pid: pids[1] },
    });
    await session.close();
    expect(await survivors(pids)).toEqual([]);
  });

  test("the default cap is 10 MiB: 9 MB passes, 11 MB fails the server", async () => {
    const { session } = await startFaultSession("hugeDefault");
    expect(firstText(await session.dispatcher.dispatch("huge_reply", { bytes: 9_000_000 }))).toHaveLength(9_000_000);
    expect(await session.dispatcher.dispatch("huge_reply", { bytes: 11_000_000 })).toMatchObject({
      variant: "FatalError",
      message:
        "MCP server servers/huge-message.ts wrote a message of more than 10485760 bytes to stdout " +
        "(limit: max_message_bytes, default 10485760); the server was stopped. " +
        "Return less (a summary, or where to find the data), or raise max_message_bytes on the server's entry in the target",
    });
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });

  test("a 32 MB stderr flood does not block the server; the log keeps its lines and the head of an endless one", async () => {
    const { session } = await startFaultSession("flood", { "session-id": "fault-flood" });
    // A host that stopped draining stderr would block the server's writes for good, and the call
    // would never answer: the outcome says it did; the test's timeout only guards against a hang.
    expect(await session.dispatcher.dispatch("flood_stderr", { megabytes: 32 })).toMatchObject({
      variant: "Success",
      message: "wrote 32 MB to stderr",
    });
    expect(firstText(await session.dispatcher.dispatch("flood_stderr", { megabytes: 1 }))).toBe("wrote 1 MB to stderr");
    await session.close();
    const log = join(faultLogs, "fault-flood", "subprocess_stderr_servers_stderr-flood.log");
    // 16 MB of lines, then one 16 MiB line kept to its first MiB in the file.
    const text = readFileSync(log, "utf8");
    expect(text).toContain(`\n${"y".repeat(1024 * 1024)} … [15728640 more bytes]\nflood: done\n`);
    expect(text.endsWith("flood: done\n")).toBe(true);
    expect(statSync(log).size).toBeGreaterThan(17 * 1024 * 1024);
    expect(await survivors(session.pids())).toEqual([]);
  });
});
