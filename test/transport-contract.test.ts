// The transport contract (src/transports/transport.ts), one suite run against every
// implementation: the same author server as a bun subprocess and bundled into QuickJS, driven
// through McpConnection. Where the runtimes fail differently (a process exits, a VM runs out of
// memory) each case states both outcomes; variants agree unless the failure itself differs.
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { startQuickJsServer, type QuickJsServer } from "../runtime-quickjs/index.ts";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
import { HandshakeTimeoutError, SandboxError, ServerExitedError, type TrailblazeError } from "../src/errors.ts";
import { McpConnection } from "../src/servers/mcp-connection.ts";
import { detectRuntime } from "../src/transports/stdio/runtime.ts";
import { ProcessTransport } from "../src/transports/stdio/process-transport.ts";
import type { ManagedTransport } from "../src/transports/transport.ts";
import type { TrailblazeContext } from "../src/core/context.ts";
import { REPO, TEST_PATH } from "./support/cli.ts";
import { rejection } from "./support/rejection.ts";
import { ENGINE } from "./support/quickjs-engine.ts";
import { processAlive } from "./support/process-alive.ts";
import { eventually } from "./support/eventually.ts";

const FIXTURES = join(REPO, "fixtures/contract");
const CONTEXT: TrailblazeContext = {
  sessionId: "transport-contract",
  invocationId: "call-1",
  memory: {},
  device: { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" },
};
/** QuickJS's per-delivery deadline, well below the connection's call timeout so the two cannot be confused. */
const VM_DEADLINE_MS = 300;
const CALL_TIMEOUT_MS = 1500;
const MEMORY_LIMIT = 32 * 1024 * 1024;

type Kind = "stdio" | "quickjs";

interface Opened {
  transport: ManagedTransport;
  /** Everything the transport reported through onerror. */
  errors: string[];
  /** Processes to check after close (stdio). */
  pids: number[];
}

const quickJsServers: QuickJsServer[] = [];
const bundles = new Map<string, Promise<string>>();

async function openTransport(kind: Kind, fixture: string): Promise<Opened> {
  const script = join(FIXTURES, fixture);
  if (kind === "stdio") {
    const runtime = await detectRuntime({ PATH: TEST_PATH });
    const transport = new ProcessTransport({
      name: "contract",
      command: runtime.command,
      args: runtime.argsFor(script),
      cwd: FIXTURES,
      env: { ...process.env, PATH: TEST_PATH },
      gracefulExitMs: 500,
      termExitMs: 500,
    });
    return { transport, errors: [], pids: [] };
  }
  if (!bundles.has(script))
    bundles.set(
      script,
      bundleEntry(script, { cwd: REPO }).then((b) => b.code),
    );
  const server = await startQuickJsServer({
    name: "contract",
    code: await bundles.get(script)!,
    callDeadlineMs: VM_DEADLINE_MS,
    memoryLimitBytes: MEMORY_LIMIT,
  });
  quickJsServers.push(server);
  return { transport: server.transport, errors: [], pids: [] };
}

async function connect(kind: Kind, fixture = "contract-server.ts", handshakeTimeoutMs = 10_000) {
  const opened = await openTransport(kind, fixture);
  const open = McpConnection.open({ name: "contract", transport: opened.transport, handshakeTimeoutMs, callTimeoutMs: CALL_TIMEOUT_MS });
  const { connection } = await open;
  opened.transport.onerror = (error) => opened.errors.push(error.message);
  if (opened.transport.pid !== undefined) opened.pids.push(opened.transport.pid);
  return { ...opened, connection };
}

const label = {
  stdio: "MCP server contract",
  quickjs: 'QuickJS server "contract"',
} as const;

afterAll(async () => {
  await Promise.all(quickJsServers.map((server) => server.close().catch(() => {})));
});

describe.each(["stdio", "quickjs"] as const)("transport contract: %s", (kind) => {
  test("a call answers and the connection closes cleanly, twice", async () => {
    const { connection, transport, pids } = await connect(kind);
    let closes = 0;
    const onclose = transport.onclose;
    transport.onclose = () => {
      closes++;
      onclose?.();
    };
    expect(await connection.call("echo", { text: "hi" }, CONTEXT)).toMatchObject({ variant: "Success", message: "hi" });
    await connection.close();
    await connection.close();
    expect(closes).toBe(1);
    expect(connection.death).toBeUndefined();
    expect(pids.filter(processAlive)).toEqual([]);
  });

  test("a call after close is refused, and so is a send on the closed transport", async () => {
    const { connection, transport } = await connect(kind);
    await connection.close();
    expect(await connection.call("echo", { text: "late" }, CONTEXT)).toEqual({
      variant: "ExceptionThrown",
      message: "cancelled: MCP server contract is closing",
      content: [],
    });
    const refused = await rejection(transport.send({ jsonrpc: "2.0", id: 99, method: "tools/list" }));
    expect(refused.message).toBe(kind === "stdio" ? "MCP server contract is closed" : `${label.quickjs} is closed`);
  });

  test("a handler that throws is an ExceptionThrown with its message; the server keeps serving", async () => {
    const { connection } = await connect(kind);
    expect(await connection.call("throws", {}, CONTEXT)).toMatchObject({
      variant: "ExceptionThrown",
      message: "the handler gave up: no such order 42",
    });
    expect(await connection.call("echo", { text: "still here" }, CONTEXT)).toMatchObject({ variant: "Success", message: "still here" });
    await connection.close();
  });

  test("closing during a call cancels it with the reason", async () => {
    const { connection, transport } = await connect(kind);
    const pending = connection.call("sleeps", { ms: 5000 }, CONTEXT);
    // Closed once the server says the call is running in it.
    expect(await eventually(() => transport.diagnostics().some((line) => line.endsWith("sleeps: started")), 10_000)).toBe(true);
    await connection.close();
    expect(await pending).toMatchObject({
      variant: "ExceptionThrown",
      message: "cancelled: MCP server contract was closed while the call ran",
    });
  });

  test("the server dying during a call is a FatalError naming how it died (exit code / out of memory)", async () => {
    const { connection, pids } = await connect(kind);
    const result = await connection.call("dies", {}, CONTEXT);
    const head =
      kind === "stdio"
        ? "MCP server contract exited with code 3 during the session"
        : `${label.quickjs} ran out of memory while handling tools/call "dies": it reached memoryLimitBytes (${MEMORY_LIMIT} bytes); the server was stopped`;
    const tail =
      kind === "stdio"
        ? "--- last 1 stderr line(s) ---\ndies: about to stop mid-call"
        : "--- last 1 guest console line(s) ---\nerror dies: about to stop mid-call";
    expect(result).toEqual({ variant: "FatalError", message: `${head}\n${tail}`, content: [] });
    expect(connection.death).toBeInstanceOf(kind === "stdio" ? ServerExitedError : SandboxError);
    expect(await connection.call("echo", { text: "x" }, CONTEXT)).toMatchObject({ variant: "FatalError", message: `${head}\n${tail}` });
    expect(pids.filter(processAlive)).toEqual([]);
  });

  test("a crash (stdio) / out-of-memory (QuickJS) with no call in flight reaches onDeath as a typed error", async () => {
    const { connection } = await connect(kind);
    const died = new Promise<Error>((resolve) => connection.onDeath(resolve));
    expect(await connection.call("dies_later", {}, CONTEXT)).toMatchObject({ variant: "Success" });
    const death = (await died) as TrailblazeError;
    if (kind === "stdio") {
      expect(death).toBeInstanceOf(ServerExitedError);
      expect((death as ServerExitedError).exit).toEqual({ exitCode: 4, signal: null });
      expect(death.message).toBe(
        "MCP server contract exited with code 4 during the session\n--- last 1 stderr line(s) ---\ndies_later: stopping now",
      );
    } else {
      expect(death).toBeInstanceOf(SandboxError);
      expect((death as SandboxError).kind).toBe("out-of-memory");
      expect(death.message).toStartWith(`${label.quickjs} ran out of memory while running a timer callback`);
    }
  });

  test("a handler past its deadline: QuickJS's own message (not the host's call timeout); stdio's call timeout", async () => {
    const { connection } = await connect(kind);
    const result = await connection.call("spins", {}, CONTEXT);
    expect(result).toMatchObject({
      variant: "ExceptionThrown",
      code: -32001,
      message:
        kind === "stdio"
          ? `timed out after ${CALL_TIMEOUT_MS} ms`
          : `${label.quickjs}: handling tools/call "spins" was interrupted after ${VM_DEADLINE_MS} ms (callDeadlineMs)`,
    });
    await connection.close();
  });

  test("a handler that swallows its interrupt: QuickJS stops the server with the precise reason; stdio's call times out", async () => {
    const { connection } = await connect(kind);
    const result = await connection.call("swallows_interrupts", {}, CONTEXT);
    if (kind === "stdio") {
      expect(result).toMatchObject({ variant: "ExceptionThrown", message: `timed out after ${CALL_TIMEOUT_MS} ms` });
    } else if (ENGINE === "quickjs-ng") {
      // QuickJS-ng's interrupt cannot be caught: the handler ends like any handler past its deadline.
      expect(result).toMatchObject({
        variant: "ExceptionThrown",
        message: `${label.quickjs}: handling tools/call "swallows_interrupts" was interrupted after ${VM_DEADLINE_MS} ms (callDeadlineMs)`,
      });
      expect(connection.death).toBeUndefined();
    } else {
      const message = `${label.quickjs} kept running after being interrupted (callDeadlineMs ${VM_DEADLINE_MS} ms) while handling tools/call "swallows_interrupts"; the server was stopped`;
      expect(result).toEqual({ variant: "FatalError", message: `${message} (no guest console output)`, content: [] });
      expect((connection.death as SandboxError).kind).toBe("stuck");
    }
    await connection.close();
  });

  test("a handshake that never answers is a HandshakeTimeoutError with the server's output", async () => {
    // A subprocess must start (bun, the SDK) and print before the deadline: on a loaded machine that
    // takes more than 800 ms, so the stdio server gets a generous one; QuickJS starts in-process.
    const deadline = kind === "stdio" ? 4000 : 800;
    const error = await rejection(connect(kind, "silent-handshake.ts", deadline));
    expect(error).toBeInstanceOf(HandshakeTimeoutError);
    const tail =
      kind === "stdio"
        ? "--- last 1 stderr line(s) ---\nsilent-handshake: connected, will not answer initialize"
        : "--- last 1 guest console line(s) ---\nerror silent-handshake: connected, will not answer initialize";
    expect(error.message).toBe(
      `MCP server contract did not complete initialize + tools/list within ${deadline} ms; it was stopped. ` +
        `Make sure it calls server.connect(new StdioServerTransport()) and writes nothing else to stdout.\n${tail}`,
    );
  });
});
