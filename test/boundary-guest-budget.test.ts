// The on-device boundary through real trails and the CLI (fixtures/boundary-guest): a guest timer
// that busies the engine is cut and fails its trail, naming the server and what used the time;
// TRAILBLAZE_CALL_TIMEOUT_MS and Ctrl-C cut a busy call; a result over max_message_bytes is
// refused on both agents alike, at once even when the guest cannot make it; the guest console tail
// is cut to size. With the session on the CLI's main thread and on a run thread (`--workers 2`
// with TRAILBLAZE_RUN_THREADS=2, whatever the cores).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cliUnderTestEnv, REPO, TEST_PATH, tempDir } from "./support/cli.ts";
import { eventually } from "./support/eventually.ts";
import { processesMentioning } from "./support/faults.ts";

const WORKSPACE = join(REPO, "fixtures/boundary-guest");
const MAIN = join(REPO, "src/cli/main.ts");
type Json = Record<string, any>;

/** Where the sessions run: the CLI's main thread, or run threads. */
const WHERE = [
  ["on the CLI's main thread", { TRAILBLAZE_RUN_THREADS: "0" }],
  ["on a run thread (--workers 2)", { TRAILBLAZE_RUN_THREADS: "2" }],
] as const;

/** `run` as a process of its own (the CLI under test), with what it printed and its exit code. */
function startRun(args: string[], env: Record<string, string> = {}) {
  const child = (async () => {
    const mode = await cliUnderTestEnv();
    const all = { ...process.env, PATH: TEST_PATH, NO_COLOR: "1", ...mode, ...env } as Record<string, string>;
    for (const key of ["npm_lifecycle_event", "npm_command", "npm_config_user_agent", "TRAILBLAZE_LAUNCHED_AS"]) delete all[key];
    return Bun.spawn([process.execPath, "--no-install", MAIN, "run", ...args, "--workers", "2"], {
      cwd: WORKSPACE,
      env: all,
      stdout: "pipe",
      stderr: "pipe",
    });
  })();
  const done = child.then(async (proc) => {
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr };
  });
  return { child, done };
}

const jsonRun = async (args: string[], env: Record<string, string> = {}) => {
  const run = await startRun([...args, "--reporter", "json", "--no-logging"], env).done;
  return { ...run, doc: JSON.parse(run.stdout) as Json };
};

/** The same trails with the host agent, once (where on-device servers run does not matter to it). */
let hostRun: ReturnType<typeof jsonRun> | undefined;
const onHost = () => (hostRun ??= jsonRun(["trails/big.trail.yaml", "trails/big-small-limit.trail.yaml", "--agent", "host"]));

/**
 * The budget outside calls, a third of the defaults (2000 ms at once, 1000 ms a delivery) set as
 * users set it: the guest spins through it, so a smaller one spends less of the machine.
 */
const IDLE_BUDGET = { TRAILBLAZE_QUICKJS_IDLE_CPU_MS: "700", TRAILBLAZE_QUICKJS_IDLE_DELIVERY_MS: "350" };

const BUDGET_MESSAGE =
  /^QuickJS server "tools\/guest\.ts" used more CPU outside its calls than it may: a timer callback \(setInterval, armed by tools\/call "guest_busyInterval"\) used \d+\.\d s of CPU outside any call; the last call was tools\/call "guest_(busyInterval|ok)"\. Outside calls a server may use 700 ms at once, regained at 700 ms per 10000 ms \(idleCpuMs, TRAILBLAZE_QUICKJS_IDLE_CPU_MS\), and 350 ms per timer callback or other delivery \(idleDeliveryMs, TRAILBLAZE_QUICKJS_IDLE_DELIVERY_MS\); the server was stopped\. Do long work inside a tool call, and clear timers that are no longer needed/;

describe.each(WHERE)("a guest %s", (_where, env) => {
  test("a setInterval that busies the engine 9 s a tick is cut at idleDeliveryMs a tick and fails its trail once it spent the budget, naming the server, the timer, the call that armed it", async () => {
    const { code, doc } = await jsonRun(["trails/busy-interval.trail.yaml", "--agent", "on-device"], { ...env, ...IDLE_BUDGET });
    const trail = doc.trails[0];
    // The server was stopped: the session is broken, the trail an error (before: it passed, after ~60 s).
    expect(trail.status).toBe("error");
    expect(trail.error).toMatch(/^step 2 failed: (wait|guest_ok): /);
    const failure = trail.steps[1].failure;
    expect(failure.message).toMatch(BUDGET_MESSAGE);
    // Each tick was cut at idleDeliveryMs (350 ms): what the guest's own budget counted is a few
    // such cuts, not one whole 9 s tick (before: the ticks ran whole, and the trail passed ~60 s later).
    const used = Number(/used (\d+\.\d) s of CPU/.exec(failure.message)![1]);
    expect(used).toBeLessThan(9);
    expect(code).toBe(1);
  }, 90_000);

  test("a server stopped during the trail's last call still fails the trail, with why", async () => {
    const { code, doc } = await jsonRun(["trails/busy-last.trail.yaml", "--agent", "on-device"], { ...env, ...IDLE_BUDGET });
    const trail = doc.trails[0];
    expect(trail.status).toBe("error");
    expect(trail.error).toStartWith("the session failed after its last call: ");
    expect(trail.error.slice("the session failed after its last call: ".length)).toMatch(BUDGET_MESSAGE);
    expect(code).toBe(1);
  }, 90_000);

  test("TRAILBLAZE_CALL_TIMEOUT_MS cuts a busy call then, not at the runtime's own 10 s deadline", async () => {
    const { code, doc } = await jsonRun(["trails/spin.trail.yaml", "--agent", "on-device"], {
      ...env,
      TRAILBLAZE_CALL_TIMEOUT_MS: "1000",
    });
    const trail = doc.trails[0];
    expect(trail.status).toBe("failed");
    // The runtime's deadline cut the guest, and says which deadline: 1000 ms, the call timeout. The
    // call's own timer cannot answer first: it fires on the thread the guest held, after the
    // runtime's answer (a microtask) is in. Before, the guest ran to the runtime's own deadline and
    // the step said "interrupted after 10000 ms"; with the guest cut, nothing after the trail has
    // a guest left to wait for.
    expect(trail.error).toBe(
      'step 2 failed: guest_spin: QuickJS server "tools/guest.ts": handling tools/call "guest_spin" was interrupted after 1000 ms (callDeadlineMs)',
    );
    expect(code).toBe(1);
  }, 60_000);

  test("a result over max_message_bytes is refused as the host agent refuses it, at once, whatever its size: the server is stopped, the 20 MB are nowhere in the report, nothing raw on stderr", async () => {
    const run = await jsonRun(
      [
        "trails/big.trail.yaml",
        "trails/big-small-limit.trail.yaml",
        "trails/big-12mb.trail.yaml",
        "trails/big-30mib.trail.yaml",
        "--agent",
        "on-device",
      ],
      env,
    );
    const host = await onHost();
    const messages = (doc: Json) => doc.trails.map((t: Json) => t.steps[0].failure?.message);
    const [big, small, twelve, thirty] = messages(run.doc);
    expect(big).toBe(
      "MCP server tools/guest.ts wrote a message of more than 10485760 bytes to the host (at least 20000073 bytes; limit: max_message_bytes, default 10485760); the server was stopped. Return less (a summary, or where to find the data), or raise max_message_bytes on the server's entry in the target",
    );
    expect(small).toStartWith("MCP server tools/guest.ts wrote a message of more than 4096 bytes to the host (at least 10073 bytes; ");
    expect(twelve).toStartWith(
      "MCP server tools/guest.ts wrote a message of more than 10485760 bytes to the host (at least 12000073 bytes; ",
    );
    // 30 MiB never becomes JSON in a 64 MiB guest: its size is a lower bound the guest counted (before: "timed out after 60000 ms").
    expect(thirty).toMatch(
      /^MCP server tools\/guest\.ts wrote a message of more than 10485760 bytes to the host \(at least 314573\d\d bytes; /,
    );
    const advice =
      "the server was stopped. Return less (a summary, or where to find the data), or raise max_message_bytes on the server's entry in the target";
    expect(messages(host.doc)).toEqual([
      `MCP server tools/guest.ts wrote a message of more than 10485760 bytes to stdout (limit: max_message_bytes, default 10485760); ${advice}`,
      `MCP server tools/guest.ts wrote a message of more than 4096 bytes to stdout (limit: max_message_bytes, default 10485760); ${advice}`,
    ]);
    // The same words up to where the message went, and the same limit, outcome and advice.
    for (const [device, onHost] of [
      [big, messages(host.doc)[0]],
      [small, messages(host.doc)[1]],
      [twelve, messages(host.doc)[0]],
      [thirty, messages(host.doc)[0]],
    ]) {
      expect(device.split(" to the host ")[0]).toBe(onHost.split(" to stdout ")[0]);
      expect(device).toEndWith(`limit: max_message_bytes, default 10485760); ${advice}`);
    }
    for (const doc of [run.doc, host.doc]) {
      expect(doc.trails.map((t: Json) => [t.status, t.steps[0].tools[0].result.variant])).toEqual(
        doc.trails.map(() => ["error", "FatalError"]),
      );
    }
    expect(run.stdout.length).toBeLessThan(100_000);
    // Each server's runtime was freed without QuickJS's leak check failing (before: "Aborted(Assertion failed: list_empty(…)") raw on stderr).
    expect(
      run.stderr
        .split("\n")
        .filter(
          (line) => line !== "" && !line.startsWith("warning: [TrailmapScopingCheck]") && !line.includes(" id: [TrailmapScopingCheck] "),
        ),
    ).toEqual([]);
    expect(run.code).toBe(1);
  }, 90_000);

  test("the guest console tail a failed step shows is cut per line and marked, not kept whole (lines of 8 MiB)", async () => {
    const { doc } = await jsonRun(["trails/flood.trail.yaml", "--agent", "on-device"], env);
    const failure = doc.trails[0].steps[0].failure;
    expect(failure.message).toBe("flooded the console");
    const marked = `error ${"y".repeat(2000)} … [line cut at 2000 of 8388608 chars]`;
    expect(failure.stderr).toEqual({ source: "tools/guest.ts", lines: [marked, marked, marked] });
  }, 60_000);
});

describe.each(WHERE)("Ctrl-C during a busy on-device call %s", (where, env) => {
  // On the CLI's main thread nothing but the guest runs until its delivery ends: SIGINT is handled
  // then, so the call timeout cuts the guest. On a run thread the main thread cuts the guest at once.
  const threads = where !== "on the CLI's main thread";
  const cut = threads
    ? "interrupted"
    : 'QuickJS server "tools/guest.ts": handling tools/call "guest_spin" was interrupted after 3000 ms (callDeadlineMs)';
  test(`exits 130 with the spin cut ${threads ? "by the main thread" : "by TRAILBLAZE_CALL_TIMEOUT_MS 3000"}, no process left`, async () => {
    const logs = tempDir("boundary-sigint-logs");
    const out = tempDir("boundary-sigint-out");
    const reporters = `list,json=${join(out, "report.json")},${join(REPO, "fixtures/reporters/events.ts")}=${join(out, "events.jsonl")}`;
    const { child, done } = startRun(["trails/spin.trail.yaml", "--agent", "on-device", "--logs", logs, "--reporter", reporters], {
      ...env,
      ...(threads ? {} : { TRAILBLAZE_CALL_TIMEOUT_MS: "3000" }),
    });
    const proc = await child;
    // The reporters were told the first step ended (on the CLI's main thread): the spin is the next call.
    const firstStepEnded = () =>
      existsSync(join(out, "events.jsonl")) &&
      readFileSync(join(out, "events.jsonl"), "utf8").includes('"event":"onStepEnd","trail":"spin","step":1,"status":"passed"');
    expect(await eventually(firstStepEnded, 20_000)).toBe(true);
    proc.kill("SIGINT");
    const { code, stdout } = await done;
    expect(stdout).toContain("Interrupted (interrupted by SIGINT); the report is partial.");
    expect(code).toBe(130);
    // The signal came while the guest spun: the partial report holds the spin's call, cut as this
    // thread cuts it. Before, the guest held the CLI to the runtime's own deadline ("interrupted
    // after 10000 ms (callDeadlineMs)"); a signal before the spin began would leave no call there.
    const trail = JSON.parse(readFileSync(join(out, "report.json"), "utf8")).trails[0];
    expect(trail).toMatchObject({ status: "error", error: "interrupted by SIGINT" });
    expect(trail.steps[1].tools.map((t: Json) => [t.name, t.result.message])).toEqual([["guest_spin", cut]]);
    expect(processesMentioning(logs)).toEqual([]);
  }, 60_000);
});
