// Faults inside QuickJS, with real bundles: handlers that never return, a handler that swallows
// interrupts, a memory bomb, answers too large or impossible to send, bundles that throw or never
// connect, and memory over many calls.
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
import { SandboxError } from "../src/errors.ts";
import { startQuickJsServer, type QuickJsServerOptions } from "../runtime-quickjs/index.ts";
import { eventually } from "./support/eventually.ts";
import { rejection } from "./support/rejection.ts";
import { byEngine, ENGINE } from "./support/quickjs-engine.ts";

const REPO = resolve(import.meta.dir, "..");

async function bundled(fixture: string): Promise<string> {
  return (await bundleEntry(`fixtures/bundle/${fixture}`, { cwd: REPO })).code;
}

async function connect(code: string, opts: Partial<QuickJsServerOptions> = {}) {
  const server = await startQuickJsServer({ name: "fixture", code, ...opts });
  const client = new Client({ name: "quickjs-test", version: "1.0.0" });
  const errors: string[] = [];
  client.onerror = (error) => errors.push(error.message);
  await client.connect(server.transport);
  return { server, client, errors };
}

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

/** The call deadline the spins below run into: short, as an echo between them is answered far sooner on any machine. */
const DEADLINE_MS = 400;

describe("a handler that runs past the deadline", () => {
  test("fails its request with 'interrupted after N ms'; the server keeps serving", async () => {
    const { client, errors } = await connect(await bundled("loop-server.ts"), {
      name: "loop",
      callDeadlineMs: DEADLINE_MS,
      onExecute: async () => "done",
    });
    const spin = await rejection(client.callTool({ name: "spin", arguments: {} }));
    expect(spin.message).toBe(
      `MCP error -32001: QuickJS server "loop": handling tools/call "spin" was interrupted after ${DEADLINE_MS} ms (callDeadlineMs)`,
    );
    expect(errors).toEqual([`QuickJS server "loop": handling tools/call "spin" was interrupted after ${DEADLINE_MS} ms (callDeadlineMs)`]);
    expect(text(await client.callTool({ name: "echo", arguments: { text: "still here" } }))).toBe("still here (spins so far: 1)");

    // The loop starts in a later delivery: resuming after trailblaze.execute.
    const late = await rejection(client.callTool({ name: "spin_after_execute", arguments: {} }));
    // QuickJS-ng runs the continuation in a delivery of its own; either way the message names it.
    const during = byEngine({
      quickjs: 'handling tools/call "spin_after_execute"',
      "quickjs-ng": 'resuming after trailblaze.execute("noop")',
    });
    expect(late.message).toBe(
      `MCP error -32001: QuickJS server "loop": ${during} was interrupted after ${DEADLINE_MS} ms (callDeadlineMs)`,
    );
    expect(text(await client.callTool({ name: "echo", arguments: { text: "again" } }))).toBe("again (spins so far: 1)");

    // A loop in a plain timer callback escapes to the host: the open request fails.
    const timer = await rejection(client.callTool({ name: "spin_in_timer", arguments: {} }));
    expect(timer.message).toBe(
      `MCP error -32001: QuickJS server "loop": running a timer callback was interrupted after ${DEADLINE_MS} ms (callDeadlineMs)`,
    );
    expect(text(await client.callTool({ name: "echo", arguments: { text: "and again" } }))).toBe("and again (spins so far: 1)");
    await client.close();
  });

  test("a handler that tries to swallow the interrupt: QuickJS stops the server, QuickJS-ng's interrupt cannot be caught", async () => {
    const { client } = await connect(await bundled("loop-server.ts"), { name: "loop", callDeadlineMs: DEADLINE_MS });
    const stuck = await rejection(client.callTool({ name: "stubborn", arguments: {} }));
    if (ENGINE === "quickjs") {
      expect(stuck.message).toBe(
        `MCP error -32000: QuickJS server "loop" kept running after being interrupted (callDeadlineMs ${DEADLINE_MS} ms) while handling tools/call "stubborn"; the server was stopped`,
      );
      expect((await rejection(client.callTool({ name: "echo", arguments: { text: "x" } }))).message).toBe("Not connected");
    } else {
      expect(stuck.message).toBe(
        `MCP error -32001: QuickJS server "loop": handling tools/call "stubborn" was interrupted after ${DEADLINE_MS} ms (callDeadlineMs)`,
      );
      expect(text(await client.callTool({ name: "echo", arguments: { text: "x" } }))).toBe("x (spins so far: 0)");
      await client.close();
    }
  });
});

describe("a memory bomb", () => {
  test("stops only its own server with a clear error; the host and other servers carry on", async () => {
    const bomb = await connect(await bundled("memory-bomb.ts"), { name: "bomb", memoryLimitBytes: 32 * 1024 * 1024 });
    const neighbour = await connect(await bundled("echo-server.ts"), { name: "neighbour" });
    const rssBefore = process.memoryUsage().rss;

    const error = await rejection(bomb.client.callTool({ name: "bomb", arguments: {} }));
    expect(error.message).toBe(
      'MCP error -32000: QuickJS server "bomb" ran out of memory while handling tools/call "bomb": it reached memoryLimitBytes (33554432 bytes); the server was stopped',
    );
    expect(bomb.errors).toEqual([
      'QuickJS server "bomb" ran out of memory while handling tools/call "bomb": it reached memoryLimitBytes (33554432 bytes); the server was stopped',
    ]);
    expect(bomb.server.memoryUsage()).toEqual({ bytes: 0, linearBytes: 0 });
    expect((await rejection(bomb.client.callTool({ name: "echo", arguments: { text: "x" } }))).message).toBe("Not connected");

    expect(text(await neighbour.client.callTool({ name: "echo", arguments: { text: "fine" } }))).toBe("fine");
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(256 * 1024 * 1024);
    await neighbour.client.close();
  });
});

describe("answers the guest cannot send", () => {
  const big = { name: "big" };
  test("one over maxMessageBytes fails its call at once with its size, whether the guest could make it or not; the runtime frees without a leak", async () => {
    const code = await bundled("unsendable-server.ts");
    const advice =
      "limit: max_message_bytes, default 10485760); the server was stopped. Return less (a summary, or where to find the data), or raise max_message_bytes on the server's entry in the target";
    // 3 MB is made and refused (a job that grew the memory, once what left QuickJS's leak check failing);
    // 30 MiB never becomes JSON in 64 MiB (JSON.stringify runs out of memory): the guest counts it.
    for (const [bytes, limit, shown] of [
      [3_000_000, 1_000_000, "at least 3000073"],
      [31_457_280, undefined, "at least 314573"],
    ] as const) {
      const { server, client, errors } = await connect(code, { ...big, ...(limit ? { maxMessageBytes: limit } : {}) });
      const error = await rejection(client.callTool({ name: "big", arguments: { bytes } }));
      expect(error.message).toStartWith(
        `MCP error -32000: MCP server big wrote a message of more than ${limit ?? 10485760} bytes to the host (${shown}`,
      );
      expect(error.message).toEndWith(advice);
      expect(errors).toEqual([error.message.slice("MCP error -32000: ".length)]);
      expect(server.stopped?.kind).toBe("message-too-large");
      // Freed inside the instance (a stopped server's is not reset): QuickJS's leak check passes.
      await server.close();
    }
  });

  test("one JSON.stringify refuses (a BigInt) fails its call at once, naming why; the server keeps serving", async () => {
    const { client, errors } = await connect(await bundled("unsendable-server.ts"), big);
    const error = await rejection(client.callTool({ name: "bigint", arguments: {} }));
    expect(error.message).toMatch(
      /^MCP error -32603: QuickJS server "big" failed serializing its answer to tools\/call "bigint" \(at least \d+ bytes\): TypeError: \S/,
    );
    expect(errors).toEqual([error.message.slice("MCP error -32603: ".length)]);
    expect(text(await client.callTool({ name: "echo", arguments: { text: "still here" } }))).toBe("still here");
    await client.close();
  });
});

describe("bundles that fail to start", () => {
  test("an exception while evaluating becomes a SandboxError with the guest's message and stack", async () => {
    const code = `function configure() { throw new RangeError("port must be positive"); }\nconfigure();`;
    const error = await rejection(startQuickJsServer({ name: "broken", code }));
    expect(error).toBeInstanceOf(SandboxError);
    expect(error.message).toBe(
      'QuickJS server "broken" threw while evaluating its bundle: RangeError: port must be positive\n' +
        byEngine({
          quickjs: "    at configure (broken.bundle.js:1:44)\n    at <eval> (broken.bundle.js:2:10)",
          "quickjs-ng": "    at configure (broken.bundle.js:1:33)\n    at <eval> (broken.bundle.js:2:1)",
        }),
    );
  });

  test("a source map that cannot be read (deleted since the bundle was checked) leaves the frames as they are", async () => {
    const code = `function configure() { throw new RangeError("port must be positive"); }\nconfigure();`;
    const sourceMap = {
      get map(): string {
        throw new Error("ENOENT: no such file or directory, open 'broken.js.map'");
      },
      shift: 0,
    };
    const error = await rejection(startQuickJsServer({ name: "broken", code, sourceMap }));
    expect(error).toBeInstanceOf(SandboxError);
    expect(error.message).toStartWith(
      'QuickJS server "broken" threw while evaluating its bundle: RangeError: port must be positive\n    at configure (broken.bundle.js:1:',
    );
  });

  test("a rejection in top-level async code before connecting is reported the same way", async () => {
    const code = `(async () => { await null; throw new Error("no config"); })();`;
    const error = await rejection(startQuickJsServer({ name: "async-broken", code }));
    expect(error.message).toStartWith(
      'QuickJS server "async-broken" threw while evaluating its bundle: Error: no config\n    at <anonymous> (async-broken.bundle.js:1',
    );
  });

  test("a bundle that never connects its transport", async () => {
    const error = await rejection(startQuickJsServer({ name: "quiet", code: "globalThis.x = 1;" }));
    expect(error.message).toBe(
      'QuickJS server "quiet" finished evaluating without connecting: the bundle must call server.connect(new StdioServerTransport()) (on-device bundles swap in the in-process transport)',
    );
  });

  test("top-level code that loops is interrupted", async () => {
    const error = await rejection(startQuickJsServer({ name: "spinner", code: "for (;;) {}", startDeadlineMs: 1000 }));
    expect(error.message).toBe('QuickJS server "spinner": evaluating its bundle was interrupted after 1000 ms (startDeadlineMs)');
  });

  test("deep recursion hits the stack limit inside the guest, not the host", async () => {
    const code = `function down(n) { return n === 0 ? 0 : 1 + down(n - 1); }\ndown(1e6);`;
    const error = await rejection(startQuickJsServer({ name: "deep", code }));
    const lines = error.message.split("\n");
    if (ENGINE === "quickjs") {
      expect(lines[0]).toBe('QuickJS server "deep" threw while evaluating its bundle: InternalError: stack overflow');
      expect(lines.slice(1, 3)).toEqual(["    at down (deep.bundle.js:1:49)", "    at down (deep.bundle.js:1:49)"]);
      expect(lines.length).toBe(12);
      expect(lines[11]).toMatch(/^ {4}\.\.\. \d+ more frame\(s\)$/);
    } else {
      // QuickJS-ng keeps 10 frames itself (Error.stackTraceLimit).
      expect(lines[0]).toBe('QuickJS server "deep" threw while evaluating its bundle: RangeError: Maximum call stack size exceeded');
      expect(lines.slice(1)).toEqual(Array(10).fill("    at down (deep.bundle.js:1:53)"));
    }
  });

  test("limits are checked up front", async () => {
    expect((await rejection(startQuickJsServer({ name: "x", code: "", stackLimitBytes: 1024 * 1024 }))).message).toBe(
      "stackLimitBytes must be between 1 and 262144 (got 1048576): larger QuickJS stacks break the host under Bun/Node",
    );
    expect((await rejection(startQuickJsServer({ name: "x", code: "", memoryLimitBytes: 1024 * 1024 }))).message).toBe(
      "memoryLimitBytes must be between 16777216 (the QuickJS module's initial memory) and 2147483648 (got 1048576)",
    );
  });
});

describe("resources over many calls", () => {
  test("guest memory stays flat over 2000 calls and the runtime frees cleanly", async () => {
    const { server, client } = await connect(await bundled("echo-server.ts"), { name: "steady" });
    const call = (i: number) => client.callTool({ name: "echo", arguments: { text: `call ${i}` } });
    for (let i = 0; i < 20; i++) await call(i);
    const before = server.memoryUsage();
    for (let i = 0; i < 2000; i++) await call(i);
    const after = server.memoryUsage();
    expect(after.bytes - before.bytes).toBeLessThan(32 * 1024);
    expect(after.linearBytes).toBe(before.linearBytes);
    await client.close();
    expect(server.memoryUsage()).toEqual({ bytes: 0, linearBytes: 0 });
  });

  test("closing stops guest timers and fails pending calls", async () => {
    const logs: string[] = [];
    const { server, client } = await connect(await bundled("execute-server.ts"), { name: "timers", onLog: (_, text) => logs.push(text) });
    const pending = rejection(client.callTool({ name: "wait", arguments: { ms: 60_000 } }));
    // Closed once the guest's timer is armed.
    expect(await eventually(() => logs.includes("wait: 60000 ms"))).toBe(true);
    await server.close();
    expect((await pending).message).toBe("MCP error -32000: Connection closed");
    await server.close();
  });
});

describe("with the debug build of QuickJS (assertions and leak checks)", () => {
  test("a server starts, serves and frees every handle", async () => {
    // The debug build runs many times slower than the release one: generous deadlines keep this test
    // about handles, not about speed on a loaded machine.
    const generous = { callDeadlineMs: 60_000, startDeadlineMs: 60_000 };
    const logs: string[] = [];
    const { server, client } = await connect(await bundled("execute-server.ts"), {
      name: "debug",
      variant: "debug",
      onExecute: async () => ({ ok: 1 }),
      onLog: (_, text) => logs.push(text),
      ...generous,
    });
    await client.callTool({ name: "login", arguments: { user: "u" } });
    await client.callTool({ name: "wait", arguments: { ms: 1 } });
    const pending = client.callTool({ name: "wait", arguments: { ms: 60_000 } }).catch(() => "closed");
    expect(await eventually(() => logs.includes("wait: 60000 ms"), 60_000)).toBe(true);
    await server.close();
    expect(await pending).toBe("closed");
  }, 120_000);
});
