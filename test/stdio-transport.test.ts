// ProcessTransport driven by the SDK Client against real fixture servers, under bun and node + tsx.
import { describe, expect, test } from "bun:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { ServerExitedError, SpawnError, type ProcessExit } from "../src/errors.ts";
import { processAlive } from "./support/process-alive.ts";
import { ProcessTransport, type ProcessTransportOptions } from "../src/transports/stdio/process-transport.ts";
import { detectRuntime, explainStartupFailure, findOnPath, type Runtime } from "../src/transports/stdio/runtime.ts";
import { rejection } from "./support/rejection.ts";

const FIXTURES = resolve(import.meta.dir, "../fixtures/stdio");
const root = mkdtempSync(join(tmpdir(), "stdio-transport-"));
const nodeBinary = await findOnPath("node", process.env.PATH ?? "");
if (!nodeBinary) throw new Error("these tests need node on PATH");

/** A PATH directory holding only `name`, so detection has exactly one choice. */
function onlyOnPath(name: string, target: string): string {
  const dir = join(root, `only-${name}`);
  mkdirSync(dir);
  symlinkSync(target, join(dir, name));
  return dir;
}
const runtimes: Record<"bun" | "node", Runtime> = {
  bun: await detectRuntime({ PATH: onlyOnPath("bun", process.execPath) }),
  node: await detectRuntime({ PATH: onlyOnPath("node", nodeBinary) }, { runningBun: null }),
};

function transportFor(fixture: string, runtime: Runtime, options: Partial<ProcessTransportOptions> = {}): ProcessTransport {
  const script = join(FIXTURES, fixture);
  return new ProcessTransport({
    name: fixture,
    command: runtime.command,
    args: runtime.argsFor(script),
    cwd: dirname(script),
    env: { ...process.env },
    ...options,
  });
}

async function connect(transport: ProcessTransport): Promise<Client> {
  const client = new Client({ name: "stdio-transport-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

function text(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const first = (result.content as { type: string; text?: string }[])[0];
  return first?.text ?? "";
}

/** The leader is reaped by its parent (us), so it must be ESRCH outright. */
function expectReaped(pid: number | undefined): void {
  let code: string | undefined;
  try {
    process.kill(pid!, 0);
  } catch (error) {
    code = (error as NodeJS.ErrnoException).code;
  }
  expect(code).toBe("ESRCH");
}

describe.concurrent.each(["bun", "node"] as const)("under %s", (kind) => {
  const runtime = runtimes[kind];

  test("connect, listTools and callTool; env, cwd and pid are the server's own", async () => {
    const transport = transportFor("echo.ts", runtime, { env: { ...process.env, STDIO_SENTINEL: "sentinel-42" } });
    const client = await connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["echo", "env"]);
    expect(text(await client.callTool({ name: "echo", arguments: { text: "hello" } }))).toBe("hello");
    const report = JSON.parse(text(await client.callTool({ name: "env", arguments: { name: "STDIO_SENTINEL" } })));
    expect(report.value).toBe("sentinel-42");
    expect(report.cwd).toBe(FIXTURES);
    expect(report.pid).toBe(transport.pid);
    if (kind === "bun") {
      expect(report.bun).toBe(Bun.version);
    } else {
      expect(report.bun).toBeNull();
      expect(report.execArgv).toEqual(runtime.argsFor("x.ts").slice(0, 2));
    }
    await transport.close();
    expectReaped(transport.pid);
    expect(await transport.exited).toEqual({ exitCode: 0, signal: null });
  });

  test("a missing package: the startup failure explains which install to run", async () => {
    const transport = transportFor("missing-package.ts", runtime);
    const error = await rejection(connect(transport));
    expect(error.message).toBe("MCP error -32000: Connection closed");
    expect((await transport.exited).exitCode).toBe(1);
    expect(explainStartupFailure(transport.stderrTail(), join(FIXTURES, "missing-package.ts"))).toBe(
      `Package "trailblaze-fixture-not-installed" is not installed: run \`bun install\` in ${resolve(FIXTURES, "../..")}`,
    );
    await transport.close();
  });
});

describe.concurrent("lifecycle (bun)", () => {
  const runtime = runtimes.bun;

  test("graceful close: stdin closes, the server exits, onclose fires once, no onexit", async () => {
    const transport = transportFor("echo.ts", runtime);
    let closes = 0;
    const exits: ProcessExit[] = [];
    transport.onexit = (exit) => exits.push(exit);
    const client = await connect(transport);
    client.onclose = () => closes++;
    const first = transport.close();
    expect(transport.close()).toBe(first);
    await first;
    await transport[Symbol.asyncDispose]();
    expect(closes).toBe(1);
    expect(exits).toEqual([]);
    expectReaped(transport.pid);
    const error = await rejection(client.callTool({ name: "echo", arguments: { text: "late" } }));
    expect(error.message).toBe("Not connected");
  });

  test("a server that ignores stdin EOF and SIGTERM gets SIGTERM after the grace period, then SIGKILL", async () => {
    // Short grace periods (the defaults are 5 s and 2 s): the sequence is what is checked, not the clock.
    const transport = transportFor("ignores-sigterm.ts", runtime, { gracefulExitMs: 300, termExitMs: 300 });
    await connect(transport);
    await transport.close();
    expect(await transport.exited).toEqual({ exitCode: null, signal: "SIGKILL" });
    expect(transport.stderrTail()).toContain("ignores-sigterm: got SIGTERM, staying up");
    expectReaped(transport.pid);
  });

  test("close stops the whole process group: a forked helper is gone too", async () => {
    const transport = transportFor("forks-helper.ts", runtime);
    const client = await connect(transport);
    const helper = Number(text(await client.callTool({ name: "helper_pid" })));
    expect(processAlive(helper)).toBe(true);
    await transport.close();
    expectReaped(transport.pid);
    // The orphaned helper may linger as a zombie where PID 1 does not reap; processAlive counts that as gone.
    expect(processAlive(helper)).toBe(false);
  });

  test("when the leader dies on its own, the rest of its group is stopped", async () => {
    const transport = transportFor("forks-helper.ts", runtime);
    const exits: ProcessExit[] = [];
    transport.onexit = (exit) => exits.push(exit);
    const client = await connect(transport);
    const closed = new Promise<void>((resolve) => (client.onclose = resolve));
    const helper = Number(text(await client.callTool({ name: "helper_pid" })));
    process.kill(transport.pid!, "SIGKILL");
    await closed;
    expect(exits).toEqual([{ exitCode: null, signal: "SIGKILL" }]);
    expect(processAlive(helper)).toBe(false);
    await transport.close();
  });

  test("a crash mid-call rejects the pending call; exit code and stderr are kept", async () => {
    const transport = transportFor("crashes-on-call.ts", runtime);
    const exits: ProcessExit[] = [];
    transport.onexit = (exit) => exits.push(exit);
    const client = await connect(transport);
    const error = await rejection(client.callTool({ name: "crash" }));
    expect(error.message).toBe("MCP error -32000: Connection closed");
    expect(await transport.exited).toEqual({ exitCode: 3, signal: null });
    expect(exits).toEqual([{ exitCode: 3, signal: null }]);
    expect(transport.stderrTail()).toContain("crashes-on-call: fatal: database handle lost");
    const late = await rejection(transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect(late).toBeInstanceOf(ServerExitedError);
    expect((late as ServerExitedError).shortMessage).toBe(
      "MCP server crashes-on-call.ts exited with code 3 before a message could be sent",
    );
    await transport.close();
    expectReaped(transport.pid);
  });

  test("non-JSON-RPC stdout lines are skipped and reported; calls still work", async () => {
    const logFile = join(root, "logs", "garbage-session", "subprocess_stderr_prints-garbage.log");
    const transport = transportFor("prints-garbage.ts", runtime, { stderrLogFile: logFile });
    const errors: string[] = [];
    const client = new Client({ name: "stdio-transport-test", version: "0.0.0" });
    client.onerror = (error) => errors.push(error.message);
    await client.connect(transport);
    expect(text(await client.callTool({ name: "shout", arguments: { text: "hi" } }))).toBe("HI");
    await transport.close();
    const skipped = (line: string) =>
      `MCP server prints-garbage.ts wrote a non-JSON-RPC line to stdout (skipped; servers must log to stderr): ${line}`;
    const expected = [skipped("prints-garbage: starting up"), skipped('{"not":"a JSON-RPC message"}'), skipped("garbage between messages")];
    expect(errors).toEqual(expected);
    expect(transport.stderrTail()).toEqual(expected.map((line) => `[trailblaze] ${line}`));
    expect(readFileSync(logFile, "utf8")).toBe(expected.map((line) => `[trailblaze] ${line}\n`).join(""));
  });

  test("stderr goes to the log file, whose folders are created", async () => {
    const logFile = join(root, "logs", "session-1", "subprocess_stderr_echo.log");
    const transport = transportFor("echo.ts", runtime, { stderrLogFile: logFile });
    await connect(transport);
    await transport.close();
    expect(readFileSync(logFile, "utf8")).toBe("echo fixture ready\n");
    expect(transport.stderrTail()).toEqual(["echo fixture ready"]);
  });

  test("await using closes the server", async () => {
    let pid: number | undefined;
    {
      await using transport = transportFor("echo.ts", runtime);
      await connect(transport);
      pid = transport.pid;
    }
    expectReaped(pid);
  });
});

describe.concurrent("spawn failures", () => {
  const base = { name: "broken.ts", args: [], cwd: FIXTURES, env: { ...process.env } };

  async function spawnFailure(options: ProcessTransportOptions): Promise<SpawnError> {
    const transport = new ProcessTransport(options);
    let closes = 0;
    transport.onclose = () => closes++;
    const error = await rejection(transport.start());
    expect(error).toBeInstanceOf(SpawnError);
    expect(await rejection(transport.exited)).toBe(error);
    await transport.close();
    expect(closes).toBe(1);
    expect(transport.pid).toBeUndefined();
    return error as SpawnError;
  }

  test("command not found", async () => {
    const error = await spawnFailure({ ...base, command: "/nonexistent/bin/bun" });
    expect(error.message).toBe(
      "Cannot start MCP server broken.ts: /nonexistent/bin/bun was not found (ENOENT); install it or put it on PATH",
    );
  });

  test("command not executable", async () => {
    const file = join(root, "not-executable");
    writeFileSync(file, "#!/bin/sh\n");
    chmodSync(file, 0o644);
    const error = await spawnFailure({ ...base, command: file });
    expect(error.message).toBe(
      `Cannot start MCP server broken.ts: ${file} is not executable (EACCES); fix its permissions (chmod +x) or use another runtime`,
    );
  });

  test("working directory missing", async () => {
    const error = await spawnFailure({ ...base, command: runtimes.bun.command, cwd: join(root, "no-such-dir") });
    expect(error.message).toBe(
      `Cannot start MCP server broken.ts: working directory ${join(root, "no-such-dir")} does not exist or is not a directory; check the server's path`,
    );
  });

  test("the SDK Client's connect rejects with the SpawnError", async () => {
    const transport = new ProcessTransport({ ...base, command: "/nonexistent/bin/bun" });
    const error = await rejection(connect(transport));
    expect(error).toBeInstanceOf(SpawnError);
    await transport.close();
  });
});
