// Fault suite, orphans: wrappers (`sh -c`), a server that forks helpers (in its group and
// outside it), and every way the process owning the session can end — signals, an uncaught
// exception, an unhandled rejection, process.exit(), SIGKILL — leave no process behind.

import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { descendants, type ProcessIdentity } from "../src/transports/stdio/process-group.ts";
import { REPO, TEST_PATH, tempDir } from "./support/cli.ts";
import { eventually } from "./support/eventually.ts";
import { closeFaultSessions, FAULTS, faultLogs, processesMentioning, startFaultSession, survivors, treeOf } from "./support/faults.ts";

afterAll(closeFaultSessions);

/** The sentinel process watching for `owner`'s death. */
const sentinelOf = (owner: number) => processesMentioning(`trailblaze-sentinel-${owner}\0`);

describe.concurrent("wrappers and helpers", () => {
  test("sh -c around a node server that forks helpers: env expanded, cwd is the working directory, the whole tree is stopped", async () => {
    const { session } = await startFaultSession("wrappers", { "session-id": "fault-wrappers" }, { HELPERS_DETACHED: "1" });
    const report = (await session.dispatcher.dispatch("helpers_pids")).structuredContent as Record<string, unknown>;
    expect(report).toMatchObject({ env: "hello from the default", cwd: FAULTS });
    const tree = treeOf(session.pids());
    const treePids = tree.map((p) => p.pid);
    for (const key of ["server", "grouped", "detached"]) expect(treePids).toContain(report[key] as number);
    // This process's sentinel is not its child: nothing but servers shows up in its tree.
    const sentinel = sentinelOf(process.pid);
    expect(sentinel).toHaveLength(1);
    expect(descendants(process.pid).map((p) => p.pid)).not.toContain(sentinel[0]);

    await session.close();
    expect(await survivors(session.pids(), tree, 0)).toEqual([]);
    const log = readFileSync(
      join(faultLogs, "fault-wrappers", "subprocess_stderr_sh_-c_node_._servers_forks-helpers.mjs_echo_wrapper-done_2.log"),
      "utf8",
    );
    expect(log).toBe(
      `wrapper-done\n[trailblaze] stopping 1 process(es) the server started outside its process group: ${report.detached}\n`,
    );
  });

  test("${VAR} in env takes the session's environment over the default", async () => {
    const { session } = await startFaultSession("wrappers", {}, { FAULTS_GREETING: "hi from the environment" });
    expect((await session.dispatcher.dispatch("helpers_pids")).structuredContent).toMatchObject({ env: "hi from the environment" });
    await session.close();
    expect(await survivors(session.pids())).toEqual([]);
  });
});

interface Held {
  code: number;
  stdout: string;
  stderr: string;
  pids: number[];
  tree: ProcessIdentity[];
}

/**
 * Runs fixtures/faults/hold-session.ts on `target`; once it printed its pids, `act` may signal it.
 * Resolves when it has exited.
 */
async function hold(target: string, mode: string, act?: (pid: number) => void): Promise<Held> {
  const child = Bun.spawn([process.execPath, join(FAULTS, "hold-session.ts"), target, mode, tempDir("hold-logs")], {
    cwd: REPO,
    env: { ...process.env, PATH: TEST_PATH },
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = child.stdout.getReader();
  let stdout = "";
  while (!stdout.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += new TextDecoder().decode(value);
  }
  const { pids, tree } = JSON.parse(stdout.slice(0, stdout.indexOf("\n"))) as { pids: number[]; tree: ProcessIdentity[] };
  act?.(child.pid);
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
  return { code, stdout, stderr, pids, tree };
}

describe.concurrent("the owning process ends", () => {
  test("SIGINT closes the session and exits 130", async () => {
    const held = await hold("mixed", "wait", (pid) => process.kill(pid, "SIGINT"));
    expect(held.code).toBe(130);
    expect(held.pids).toHaveLength(2);
    expect(await survivors(held.pids, held.tree, 0)).toEqual([]);
  });

  test("SIGTERM closes the session and exits 143", async () => {
    const held = await hold("mixed", "wait", (pid) => process.kill(pid, "SIGTERM"));
    expect(held.code).toBe(143);
    expect(await survivors(held.pids, held.tree, 0)).toEqual([]);
  });

  test("an uncaught exception is reported, the session is closed, exit code 1", async () => {
    const held = await hold("mixed", "throw");
    expect(held.code).toBe(1);
    expect(withoutWarnings(held.stderr)).toStartWith("internal error: Error: boom from hold-session\n");
    expect(await survivors(held.pids, held.tree, 0)).toEqual([]);
  });

  test("an unhandled rejection is reported, the session is closed, exit code 1", async () => {
    const held = await hold("mixed", "reject");
    expect(held.code).toBe(1);
    expect(withoutWarnings(held.stderr)).toStartWith("internal error: Error: rejected in hold-session\n");
    expect(await survivors(held.pids, held.tree, 0)).toEqual([]);
  });

  test("process.exit() with the session open kills the servers' groups on the way out", async () => {
    const held = await hold("mixed", "exit");
    expect(held.code).toBe(3);
    expect(await survivors(held.pids, held.tree)).toEqual([]);
  });

  test("SIGKILL: bun servers exit with their parent (--no-orphans); the sentinel stops the node server's group", async () => {
    let holder = 0;
    const held = await hold("mixed", "wait", (pid) => {
      holder = pid;
      expect(sentinelOf(pid)).toHaveLength(1);
      process.kill(pid, "SIGKILL");
    });
    expect(held.code).toBe(137);
    // The node server's helper is in its group; the sentinel takes the group down.
    expect(held.tree.length).toBeGreaterThanOrEqual(1);
    expect(await survivors(held.pids, held.tree, 5000)).toEqual([]);
    // Each sentinel exits once its group is gone (or after the SIGKILL step).
    expect(await eventually(() => sentinelOf(holder).length === 0, 4000)).toBe(true);
  });
});

/** Advisory warnings (e.g. [TrailmapScopingCheck]) printed before the part under test. */
function withoutWarnings(stderr: string): string {
  return stderr.replace(/^warning: .*\n/gm, "");
}
