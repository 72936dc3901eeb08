// A host call that times out while its handler runs on (ignoring the cancellation): the run does not
// wait out the server's stop grace (5 s of stdin closed) for a server it is abandoning, and still
// leaves no process behind.

import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cliProcess, REPO } from "./support/cli.ts";
import { processesMentioning } from "./support/faults.ts";

const WORKSPACE = join(REPO, "fixtures/ignores-timeout");

describe("a host call that times out and ignores the cancellation", () => {
  test("run ends well under timeout_ms + the 5 s grace, the step failed with the timeout, and no server process is left", async () => {
    const started = performance.now();
    const run = await cliProcess(["run", "trails", "--no-logging"], { cwd: WORKSPACE });
    const elapsedMs = performance.now() - started;
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("error:   ExceptionThrown: timed out after 500 ms");
    // timeout_ms is 500; before, the run waited 5 s more for the server to exit once its stdin closed.
    expect(elapsedMs).toBeLessThan(4000);
    expect(processesMentioning("ignores-timeout")).toEqual([]);
  });

  test("call: the same, and the server is stopped (reaped) before the CLI exits", async () => {
    const started = performance.now();
    const call = await cliProcess(["call", "slow_sleep", "--no-logging"], { cwd: WORKSPACE });
    expect(performance.now() - started).toBeLessThan(4000);
    expect(call.stdout).toBe("✗ slow_sleep ExceptionThrown: timed out after 500 ms\n");
    expect(processesMentioning("ignores-timeout")).toEqual([]);
  });
});
