// A host call that times out while its handler runs on (ignoring the cancellation): the run does not
// wait out the server's stop grace (5 s of stdin closed) for a server it is abandoning, and still
// leaves no process behind.

import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliProcess, REPO, tempDir } from "./support/cli.ts";
import { processesMentioning } from "./support/faults.ts";

const WORKSPACE = join(REPO, "fixtures/ignores-timeout");

/**
 * What the server wrote to stderr in the one session under `logs`. It logs a SIGTERM, and a marker
 * 2.5 s after its stdin closed: a host that waited out the grace before signalling lets the marker
 * in first; one that abandons the server signals it at once. Order, not the run's time, says which.
 */
function stopLines(logs: string): string[] {
  const [session] = readdirSync(logs);
  const log = readFileSync(join(logs, session!, "subprocess_stderr_servers_ignores-timeout.log"), "utf8");
  return log.split("\n").filter((line) => line.startsWith("ignores-timeout:"));
}

describe("a host call that times out and ignores the cancellation", () => {
  test("run does not wait out the 5 s grace (the server is signalled at once), the step failed with the timeout, and no server process is left", async () => {
    const logs = tempDir("abandoned-run-logs");
    const run = await cliProcess(["run", "trails", "--logs", logs], { cwd: WORKSPACE });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("error:   ExceptionThrown: timed out after 500 ms");
    // Before, the run waited 5 s more for the server to exit once its stdin closed.
    expect(stopLines(logs)).toEqual(["ignores-timeout: got SIGTERM"]);
    expect(processesMentioning(WORKSPACE)).toEqual([]);
  });

  test("call: the same, and the server is stopped (reaped) before the CLI exits", async () => {
    const logs = tempDir("abandoned-call-logs");
    const call = await cliProcess(["call", "slow_sleep", "--logs", logs], { cwd: WORKSPACE });
    expect(call.stdout).toBe("✗ slow_sleep ExceptionThrown: timed out after 500 ms\n");
    expect(stopLines(logs)).toEqual(["ignores-timeout: got SIGTERM"]);
    expect(processesMentioning(WORKSPACE)).toEqual([]);
  });
});
