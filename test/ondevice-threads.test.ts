// On-device sessions on worker threads (runtime-quickjs/thread/): many trails over several
// workers each start from a pristine server, the CLI exits once its trails are done and on SIGINT,
// and a thread that dies closes its servers with a typed error; execute and console cross threads.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  setQuickJsThreads,
  startQuickJsServerOnThread,
  stopQuickJsThreads,
  quickJsThreadLoad,
  warmQuickJsThreads,
} from "../runtime-quickjs/index.ts";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
import { SandboxError } from "../src/errors.ts";
import { McpConnection } from "../src/servers/mcp-connection.ts";
import { quickJsThreadsFor } from "../src/cli/commands/run.ts";
import { cli, REPO, TEST_PATH, tempDir } from "./support/cli.ts";

const WORKSPACE = join(REPO, "fixtures/ondevice-scale");
type Json = Record<string, any>;

function counterTrails(count: number): string {
  const dir = tempDir("counter-trails");
  for (let i = 1; i <= count; i++) {
    writeFileSync(
      join(dir, `c${String(i).padStart(2, "0")}.trail.yaml`),
      `config: { id: c${i}, target: counter }\ntrail:\n  - step: Bump\n    recording:\n      tools:\n        - counter_bump: { trail: "c${i}" }\n` +
        `        - assertEquals: { actual: "{{seen}}", expected: "1/1" }\n`,
    );
  }
  return dir;
}

const bundled = (fixture: string) => bundleEntry(join(REPO, "fixtures/bundle", fixture), { cwd: REPO }).then((b) => b.code);
const readIfThere = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");
const text = (result: unknown) => (result as { content: { text: string }[] }).content.map((c) => c.text).join("|");

afterAll(async () => {
  await stopQuickJsThreads();
  setQuickJsThreads(0);
});

describe("isolation across trails and threads", () => {
  test.each([
    ["on two worker threads", "2"],
    ["on the CLI's thread", "0"],
  ])(
    "24 trails on-device over 4 workers %s: every session's server starts pristine (module and global state at 0)",
    async (_where, threads) => {
      const run = await cli(
        ["run", counterTrails(24), "--agent", "on-device", "--workers", "4", "--reporter", "json", "--logs", tempDir("counter-logs")],
        {
          cwd: WORKSPACE,
          env: { TRAILBLAZE_QUICKJS_THREADS: threads },
        },
      );
      expect(run.stderr).toBe("");
      const doc = JSON.parse(run.stdout);
      expect(doc.summary).toMatchObject({ passed: 24, failed: 0, errors: 0 });
      expect(doc.trails.map((t: Json) => t.steps[0].tools[0].result.message)).toEqual(
        Array.from({ length: 24 }, (_, i) => `c${i + 1}: 1/1`),
      );
      expect(run.code).toBe(0);
    },
    60_000,
  );
});

describe("servers on worker threads", () => {
  test("trailblaze.execute and console output cross the thread; servers spread over the threads and leave them when closed", async () => {
    setQuickJsThreads(2);
    const logs: string[] = [];
    const calls: string[] = [];
    const code = await bundled("execute-server.ts");
    const servers = await Promise.all(
      [1, 2, 3, 4].map(() =>
        startQuickJsServerOnThread({
          name: "exec",
          code,
          onLog: (level, line) => logs.push(`${level} ${line}`),
          onExecute: async (name, args) => {
            calls.push(name);
            if (name === "missingTool") throw new Error("no tool named missingTool");
            return { ok: true, tool: name, args };
          },
        }),
      ),
    );
    expect(quickJsThreadLoad()).toEqual([2, 2]);
    const client = new Client({ name: "thread-test", version: "1.0.0" });
    await client.connect(servers[0]!.transport);
    const login = await client.callTool({ name: "login", arguments: { user: "bob" } });
    expect(JSON.parse(text(login))).toEqual({
      typed: { ok: true, tool: "inputText", args: { text: "bob" } },
      tapped: { ok: true, tool: "tapOnElement", args: { id: "submit" } },
    });
    expect(text(await client.callTool({ name: "try_missing", arguments: {} }))).toBe("caught Error: no tool named missingTool");
    expect(calls).toEqual(["inputText", "tapOnElement", "missingTool"]);
    await client.close();
    await Promise.all(servers.map((server) => server.close()));
    expect(quickJsThreadLoad()).toEqual([0, 0]);
  });

  test("a bundle crosses to a thread once and is sent again after the thread forgot it (more than 32 bundles)", async () => {
    setQuickJsThreads(2);
    const echo = await bundled("echo-server.ts");
    // 34 distinct bundles, then the first again: by then both threads were told to forget it.
    const codes = Array.from({ length: 34 }, (_, i) => `${echo}\n// variant ${i}\n`);
    for (const code of [...codes, codes[0]!, codes[0]!]) {
      const server = await startQuickJsServerOnThread({ name: "echo", code });
      const client = new Client({ name: "thread-test", version: "1.0.0" });
      await client.connect(server.transport);
      expect(text(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
      await client.close();
    }
  });

  test("warming starts the threads before any server (only when threads are on); the first servers go to them", async () => {
    await stopQuickJsThreads();
    setQuickJsThreads(1);
    warmQuickJsThreads();
    expect(quickJsThreadLoad()).toEqual([]);
    setQuickJsThreads(2);
    warmQuickJsThreads();
    expect(quickJsThreadLoad()).toEqual([0, 0]);
    const code = await bundled("echo-server.ts");
    const servers = await Promise.all([1, 2].map(() => startQuickJsServerOnThread({ name: "warm", code })));
    expect(quickJsThreadLoad()).toEqual([1, 1]);
    await Promise.all(servers.map((server) => server.close()));
  });

  test("a thread that dies closes its servers: calls end as FatalError naming the thread, the death is a SandboxError of kind thread", async () => {
    setQuickJsThreads(2);
    const server = await startQuickJsServerOnThread({ name: "doomed", code: await bundled("echo-server.ts") });
    const { connection } = await McpConnection.open({
      name: "doomed",
      transport: server.transport,
      handshakeTimeoutMs: 10_000,
      callTimeoutMs: 5000,
    });
    const died = new Promise<Error>((resolve) => connection.onDeath(resolve));
    await stopQuickJsThreads();
    const death = await died;
    expect(death).toBeInstanceOf(SandboxError);
    expect((death as SandboxError).kind).toBe("thread");
    expect(death.message).toMatch(/^QuickJS server "doomed" stopped: its worker thread exited with code \d+/);
    expect(await connection.call("echo", { text: "x" }, { memory: {} } as never)).toMatchObject({ variant: "FatalError" });
    await server.close();
  });
});

describe("how many threads a run's on-device sessions get", () => {
  test("one per session at once, up to the cores the CLI's thread leaves, and none unless that makes two", () => {
    expect(quickJsThreadsFor(4, 2, {})).toBe(0);
    expect(quickJsThreadsFor(4, 1, {})).toBe(0);
    expect(quickJsThreadsFor(4, 3, {})).toBe(2);
    expect(quickJsThreadsFor(4, 8, {})).toBe(4);
    expect(quickJsThreadsFor(8, 4, {})).toBe(3);
    expect(quickJsThreadsFor(1, 8, {})).toBe(0);
  });

  test("TRAILBLAZE_QUICKJS_THREADS sets the number; anything but a whole number from 0 to 64 is a usage error (exit 2) naming it", async () => {
    expect(quickJsThreadsFor(4, 2, { TRAILBLAZE_QUICKJS_THREADS: "3" })).toBe(3);
    expect(quickJsThreadsFor(4, 16, { TRAILBLAZE_QUICKJS_THREADS: "0" })).toBe(0);
    expect(quickJsThreadsFor(4, 16, { TRAILBLAZE_QUICKJS_THREADS: "" })).toBe(4);
    const run = await cli(["run", counterTrails(1), "--agent", "on-device"], {
      cwd: WORKSPACE,
      env: { TRAILBLAZE_QUICKJS_THREADS: "many" },
    });
    expect(run.stderr).toContain(
      'TRAILBLAZE_QUICKJS_THREADS expects a whole number of worker threads from 0 to 64 (0 or 1 keeps on-device sessions on the CLI\'s thread), got "many"',
    );
    expect(run.code).toBe(2);
  });
});

describe("the CLI's process", () => {
  test("SIGINT during an on-device run with workers: exits 130 promptly, no thread keeps it alive", async () => {
    const dir = tempDir("sleep-trails");
    for (let i = 1; i <= 4; i++) {
      writeFileSync(
        join(dir, `s${i}.trail.yaml`),
        `config: { id: s${i}, target: counter }\ntrail:\n  - step: Bump\n    recording:\n      tools:\n        - counter_bump: { trail: "s${i}" }\n        - counter_sleep: { ms: 60000 }\n`,
      );
    }
    const logs = tempDir("sleep-logs");
    const child = Bun.spawn(
      [process.execPath, join(REPO, "src/cli/main.ts"), "run", dir, "--agent", "on-device", "--workers", "2", "--logs", logs],
      {
        cwd: WORKSPACE,
        // On threads whatever the cores: a thread must not keep the process alive.
        env: { ...process.env, PATH: TEST_PATH, NO_COLOR: "1", TRAILBLAZE_QUICKJS_THREADS: "2" } as Record<string, string>,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    // Both workers are in counter_sleep once each session's call log holds its counter_bump.
    const bumped = () =>
      readdirSync(logs).filter((session) => readIfThere(join(logs, session, "calls.jsonl")).includes('"tool":"counter_bump"')).length;
    for (const deadline = Date.now() + 25_000; bumped() < 2 && Date.now() < deadline; ) await Bun.sleep(50);
    expect(bumped()).toBe(2);
    child.kill("SIGINT");
    // Each worker is 60 s into a sleep: a process a thread kept alive would not exit before the
    // guard (far longer than an exit takes, far shorter than the sleep), and is then killed.
    const exited = await Promise.race([child.exited, Bun.sleep(40_000).then(() => "still running after SIGINT")]);
    if (exited === "still running after SIGINT") child.kill("SIGKILL");
    expect(exited).toBe(130);
    expect(await new Response(child.stdout).text()).toContain("Interrupted (interrupted by SIGINT); the report is partial.");
  }, 90_000);

  test("the installed command gives every QuickJS memory of a run the fast kind: 12 sessions at once, where JavaScriptCore's default is 8", async () => {
    // JavaScriptCore aborts instead of falling back to a bounds-checked memory with this option.
    const child = Bun.spawn(
      [
        join(REPO, "src/cli/launcher.sh"),
        "run",
        counterTrails(24),
        "--agent",
        "on-device",
        "--workers",
        "12",
        "--reporter",
        "json",
        "--logs",
        tempDir("fast-logs"),
      ],
      {
        cwd: WORKSPACE,
        env: { ...process.env, PATH: TEST_PATH, NO_COLOR: "1", BUN_JSC_crashIfWasmCantFastMemory: "1" } as Record<string, string>,
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [code, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
    expect(stderr).toBe("");
    expect(JSON.parse(stdout).summary).toMatchObject({ passed: 24, failed: 0, errors: 0 });
    expect(code).toBe(0);
  }, 60_000);
});
