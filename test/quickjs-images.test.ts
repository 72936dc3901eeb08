// Sessions restored from an image of an earlier session of the same server (runtime-quickjs/
// sandbox-image.ts), on instances reused from closed sessions (instance-pool.ts): each starts
// from the pristine server, whatever the sessions before it did.
import { describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { bundleEntry } from "../src/bundle/bundle-entry.ts";
import {
  DEFAULT_MEMORY_LIMIT_BYTES,
  DEFAULT_QUICKJS_ENGINE,
  startQuickJsServer,
  type QuickJsServer,
  type QuickJsServerOptions,
} from "../runtime-quickjs/index.ts";
import { acquireQuickJsInstance, recycleQuickJsInstance } from "../runtime-quickjs/instance-pool.ts";
import { newQuickJsInstance } from "../runtime-quickjs/quickjs-module.ts";

const REPO = resolve(import.meta.dir, "..");
const probeCode = (await bundleEntry("fixtures/bundle/image-probe.ts", { cwd: REPO })).code;

interface Seen {
  calls: number;
  loadedAt: number;
  global: number;
  ballast: boolean;
  random: [number, number];
  initialized: number;
}

/** A session on a probe server: `use` calls its probe tool. With `listAs`, a client of that name lists the tools first (as a session's McpConnection does), and they are returned. */
async function session(
  opts: Partial<QuickJsServerOptions> & { name: string },
  use: (call: (args?: Record<string, unknown>) => Promise<Seen>, server: QuickJsServer) => Promise<void>,
  listAs?: string,
): Promise<string[]> {
  const server = await startQuickJsServer({ code: probeCode, ...opts });
  const client = new Client({ name: listAs ?? "images-test", version: "1.0.0" });
  try {
    await client.connect(server.transport);
    const tools = listAs === undefined ? [] : (await client.listTools()).tools.map((tool) => tool.name);
    const call = async (args: Record<string, unknown> = {}) => {
      const result = (await client.callTool({ name: "probe", arguments: args })) as { content: { text: string }[] };
      return JSON.parse(result.content[0]!.text) as Seen;
    };
    await use(call, server);
    return tools;
  } finally {
    await client.close();
  }
}

describe("sessions restored from an image", () => {
  test("the second session of a server is restored; every session sees only its own calls, globals and memory", async () => {
    const seen: Seen[] = [];
    const restored: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      await session({ name: "probe-state" }, async (call, server) => {
        restored.push(server.restored);
        seen.push(await call({ fill: 200_000 }));
        seen.push(await call());
      });
    }
    expect(restored).toEqual([false, true, true, true, true, true]);
    // Each session: 1/1 then 2/2, and the ballast its first call left is seen by its second only.
    expect(seen.map((s) => `${s.calls}/${s.global}/${s.ballast}`)).toEqual(
      Array.from({ length: 6 }, () => ["1/1/false", "2/2/true"]).flat(),
    );
  });

  test("Math.random draws differently in every restored session", async () => {
    const draws: number[] = [];
    for (let i = 0; i < 4; i++) {
      await session({ name: "probe-random" }, async (call) => {
        draws.push(...(await call()).random);
      });
    }
    expect(new Set(draws).size).toBe(draws.length);
    for (const draw of draws) expect(draw >= 0 && draw < 1).toBe(true);
  });

  test("a restored session's log has the console lines the bundle wrote while it evaluated", async () => {
    for (let i = 0; i < 2; i++) {
      const lines: string[] = [];
      await session({ name: "probe-logs", onLog: (level, text) => lines.push(`${level} ${text}`) }, async (call, server) => {
        await call();
        expect(server.restored).toBe(i === 1);
      });
      expect(lines).toEqual(["info image-probe loaded"]);
    }
  });

  test("a server whose top-level code arms a timer or calls a tool is evaluated every time", async () => {
    for (const work of ["timer", "execute"]) {
      const code = `globalThis.__probeTopLevel = ${JSON.stringify(work)};\n${probeCode}`;
      const executed: string[] = [];
      const onExecute = async (name: string) => void executed.push(name);
      for (let i = 0; i < 2; i++) {
        await session({ name: `probe-${work}`, code, onExecute }, async (call, server) => {
          expect(server.restored).toBe(false);
          expect((await call()).calls).toBe(1);
        });
      }
      expect(executed).toEqual(work === "execute" ? ["inputText", "inputText"] : []);
    }
  });

  test("images are per server name, engine, limits and bundle text, and can be turned off", async () => {
    const restoredOf = async (opts: Partial<QuickJsServerOptions> & { name: string }) => {
      let restored = false;
      await session(opts, async (call, server) => {
        restored = server.restored;
        expect((await call()).calls).toBe(1);
      });
      return restored;
    };
    expect(await restoredOf({ name: "probe-keys" })).toBe(false);
    expect(await restoredOf({ name: "probe-keys" })).toBe(true);
    expect(await restoredOf({ name: "probe-keys-other" })).toBe(false);
    expect(await restoredOf({ name: "probe-keys", memoryLimitBytes: 48 * 1024 * 1024 })).toBe(false);
    expect(await restoredOf({ name: "probe-keys", engine: "quickjs-ng" })).toBe(false);
    expect(await restoredOf({ name: "probe-keys", engine: "quickjs-ng" })).toBe(true);
    expect(await restoredOf({ name: "probe-keys", images: false })).toBe(false);
    // Another bundle text under the same name is another server; an equal text built anew is the same one.
    expect(await restoredOf({ name: "probe-keys", code: `${probeCode}\n// changed` })).toBe(false);
    expect(await restoredOf({ name: "probe-keys", code: `${probeCode} `.slice(0, -1) })).toBe(true);
  });

  test("an instance given back to the pool keeps no trace of the runtimes of its sessions", async () => {
    // Closing a session leaves its runtime in the instance for the pool to wipe; quickjs-emscripten's own tables must forget it too.
    for (let i = 0; i < 5; i++) await session({ name: "probe-forget" }, async (call) => void (await call()));
    const module = await acquireQuickJsInstance({
      variant: "release",
      memoryLimitBytes: DEFAULT_MEMORY_LIMIT_BYTES,
      engine: DEFAULT_QUICKJS_ENGINE,
    });
    const { callbacks } = module as unknown as {
      callbacks: { runtimeCallbacks: Map<number, unknown>; contextCallbacks: Map<number, unknown> };
    };
    expect({ runtimes: callbacks.runtimeCallbacks.size, contexts: callbacks.contextCallbacks.size }).toEqual({ runtimes: 0, contexts: 0 });
    recycleQuickJsInstance(module);
  });

  test("an instance given back to the pool holds exactly a new instance's memory, however much its sessions wrote", async () => {
    for (let i = 0; i < 3; i++) await session({ name: "probe-reset" }, async (call) => void (await call({ fill: 2_000_000 })));
    const opts = { variant: "release", memoryLimitBytes: DEFAULT_MEMORY_LIMIT_BYTES, engine: DEFAULT_QUICKJS_ENGINE } as const;
    const reused = await acquireQuickJsInstance(opts);
    const fresh = await newQuickJsInstance(opts);
    const bytes = (module: typeof fresh) => new Uint8Array(module.getWasmMemory().buffer);
    const [a, b] = [bytes(reused), bytes(fresh)];
    const shared = Math.min(a.byteLength, b.byteLength);
    expect(Buffer.compare(a.subarray(0, shared), b.subarray(0, shared))).toBe(0);
    expect(a.subarray(shared).every((byte) => byte === 0)).toBe(true);
    recycleQuickJsInstance(reused);
  });

  test("after a server runs out of memory, the next sessions start pristine", async () => {
    const bomb = (await bundleEntry("fixtures/bundle/memory-bomb.ts", { cwd: REPO })).code;
    for (let i = 0; i < 2; i++) {
      const server = await startQuickJsServer({ name: "bomb", code: bomb, memoryLimitBytes: 24 * 1024 * 1024 });
      const client = new Client({ name: "images-test", version: "1.0.0" });
      await client.connect(server.transport);
      const { tools } = await client.listTools();
      expect(tools[0]!.name).toBe("bomb");
      await client.callTool({ name: "bomb", arguments: {} }).catch(() => undefined);
      expect(server.stopped?.kind).toBe("out-of-memory");
      await client.close();
      await session({ name: "probe-after-bomb", memoryLimitBytes: 24 * 1024 * 1024 }, async (call) => {
        expect((await call()).calls).toBe(1);
      });
    }
  });
});

/** A session as a session's McpConnection opens it, by a client named `client`: connect, tools/list, then calls. */
const listedSession = (
  opts: Partial<QuickJsServerOptions> & { name: string },
  client: string,
  use: (call: () => Promise<Seen>, server: QuickJsServer) => Promise<void>,
) => session(opts, use, client);

describe("sessions restored after their handshake", () => {
  test("later sessions get the handshake answered from the image taken after the first one's, and still start pristine", async () => {
    const replayed: boolean[] = [];
    const seen: Seen[] = [];
    for (let i = 0; i < 5; i++) {
      const tools = await listedSession({ name: "probe-handshake" }, "handshake-test", async (call, server) => {
        seen.push(await call(), await call());
        replayed.push(server.handshakeReplayed);
      });
      expect(tools).toEqual(["probe", "fail"]);
    }
    expect(replayed).toEqual([false, true, true, true, true]);
    // Each session saw its handshake once (the guest's own, or the image's), and its own calls only.
    expect(seen.map((s) => `${s.calls}/${s.global}/${s.initialized}`)).toEqual(Array.from({ length: 5 }, () => ["1/1/1", "2/2/1"]).flat());
    expect(new Set(seen.map((s) => s.random[0])).size).toBe(seen.length);
  });

  test("a client that opens differently gets the guest's own answers, and the server is not restored after a handshake again", async () => {
    const opts = { name: "probe-handshake-clients" };
    const run = (client: string) =>
      listedSession(opts, client, async (call, server) => {
        expect(await call()).toMatchObject({ calls: 1, global: 1, initialized: 1 });
        replayedBefore.push(server.handshakeReplayed);
      });
    const replayedBefore: boolean[] = [];
    await run("first-client");
    expect(await run("first-client")).toEqual(["probe", "fail"]);
    expect(await run("second-client")).toEqual(["probe", "fail"]);
    expect(replayedBefore).toEqual([false, true, false]);
    const replayed: boolean[] = [];
    for (const client of ["first-client", "second-client"]) {
      await listedSession(opts, client, async (call, server) => {
        expect((await call()).initialized).toBe(1);
        replayed.push(server.handshakeReplayed);
      });
    }
    expect(replayed).toEqual([false, false]);
  });

  test("a session that closes before its handshake is done leaves the recording to a later one", async () => {
    const opts = { name: "probe-handshake-unfinished" };
    const server = await startQuickJsServer({ code: probeCode, ...opts });
    const client = new Client({ name: "handshake-test", version: "1.0.0" });
    await client.connect(server.transport);
    await client.close();
    const replayed: boolean[] = [];
    for (let i = 0; i < 2; i++)
      await listedSession(opts, "handshake-test", async (_call, session) => void replayed.push(session.handshakeReplayed));
    expect(replayed).toEqual([false, true]);
  });

  test("a server that writes to its console during the handshake is not imaged after it; its lines reach every session", async () => {
    const code = `globalThis.__probeTopLevel = "log-on-initialized";\n${probeCode}`;
    for (let i = 0; i < 3; i++) {
      const lines: string[] = [];
      await listedSession(
        { name: "probe-handshake-logs", code, onLog: (_level, text) => lines.push(text) },
        "handshake-test",
        async (call, server) => {
          expect((await call()).initialized).toBe(1);
          expect(server.handshakeReplayed).toBe(false);
        },
      );
      expect(lines).toEqual(["image-probe loaded", "image-probe initialized"]);
    }
  });
});

describe("images on disk", () => {
  /**
   * One fresh `bun` process: `count` sessions of the probe one after another with `imageDir`, on
   * the main thread or on a worker thread; whether each was restored and had its handshake
   * answered from an image, and what its first
   * call saw. With `listAs`, a client of that name lists the tools first, as a session's
   * McpConnection does; else it only calls.
   */
  function sessionsInFreshProcess(
    dir: string,
    count: number,
    where: "main" | "thread",
    listAs?: string,
  ): { restored: boolean; replayed: boolean; seen: Seen }[] {
    const script = join(dir, `sessions-${where}.ts`);
    const sessions = join(dir, `sessions-${where}-loop.ts`);
    // The sessions, in a module that gives back what each saw: on the main thread, or in a worker thread (as `run`'s run threads run them).
    writeFileSync(
      sessions,
      `import { Client } from ${JSON.stringify(require.resolve("@modelcontextprotocol/sdk/client/index.js"))};
import { startQuickJsServer } from ${JSON.stringify(resolve(REPO, "runtime-quickjs/index.ts"))};
import { parentPort } from "node:worker_threads";
const code = await Bun.file(${JSON.stringify(join(dir, "probe.js"))}).text();
const sessions = [];
for (let i = 0; i < ${count}; i++) {
  const server = await startQuickJsServer({ name: "probe-disk", code, imageDir: ${JSON.stringify(join(dir, "images"))} });
  const client = new Client({ name: ${JSON.stringify(listAs ?? "disk")}, version: "1.0.0" });
  await client.connect(server.transport);
  ${listAs === undefined ? "" : "await client.listTools();"}
  const result = await client.callTool({ name: "probe", arguments: {} });
  sessions.push({ restored: server.restored, replayed: server.handshakeReplayed, seen: JSON.parse(result.content[0].text) });
  await client.close();
}
if (parentPort) parentPort.postMessage(sessions);
else { console.log(JSON.stringify(sessions)); process.exit(0); }
`,
    );
    writeFileSync(
      script,
      where === "main"
        ? `await import(${JSON.stringify(sessions)});\n`
        : `import { Worker } from "node:worker_threads";
const worker = new Worker(${JSON.stringify(sessions)});
worker.on("message", (sessions) => { console.log(JSON.stringify(sessions)); process.exit(0); });
worker.on("error", (error) => { console.error(error); process.exit(1); });
`,
    );
    const run = spawnSync(process.execPath, [script], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`the session process exited ${run.status}: ${run.stderr}`);
    return JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { restored: boolean; replayed: boolean; seen: Seen }[];
  }

  const freshProcess = (dir: string) => sessionsInFreshProcess(dir, 1, "main")[0]!;
  const threadSessions = (dir: string, count: number) => sessionsInFreshProcess(dir, count, "thread").map((session) => session.seen);

  test("a fresh process restores the image an earlier one wrote; a damaged file is ignored and written again", () => {
    const dir = mkdtempSync(join(tmpdir(), "quickjs-images-"));
    try {
      writeFileSync(join(dir, "probe.js"), probeCode);
      const first = freshProcess(dir);
      expect(first.restored).toBe(false);
      const [file, ...others] = readdirSync(join(dir, "images"));
      expect(others).toEqual([]);
      expect(file).toMatch(/^probe-disk-quickjs-main-[0-9a-f]{24}\.img$/);

      const second = freshProcess(dir);
      expect(second.restored).toBe(true);
      // Restored, not evaluated: the module-level time is the first process's; the state is pristine.
      expect(second.seen.loadedAt).toBe(first.seen.loadedAt);
      expect(second.seen.calls).toBe(1);
      expect(second.seen.random).not.toEqual(first.seen.random);

      truncateSync(join(dir, "images", file!), 1000);
      const third = freshProcess(dir);
      expect(third.restored).toBe(false);
      expect(third.seen.loadedAt).toBeGreaterThan(first.seen.loadedAt);
      expect(freshProcess(dir)).toMatchObject({ restored: true, seen: { loadedAt: third.seen.loadedAt, calls: 1 } });

      // On a worker thread the setup lands elsewhere: the main thread's image is refused there, and
      // the thread's first session images itself (a file of its own); its next session restores that.
      const onThread = threadSessions(dir, 3);
      expect(onThread[1]!.loadedAt).toBe(onThread[0]!.loadedAt);
      expect(onThread[2]!.loadedAt).toBe(onThread[0]!.loadedAt);
      expect(onThread[0]!.loadedAt).toBeGreaterThan(third.seen.loadedAt);
      expect(onThread.map((seen) => seen.calls)).toEqual([1, 1, 1]);
      expect(readdirSync(join(dir, "images")).sort()).toEqual([file!, file!.replace("-quickjs-main-", "-quickjs-thread-")]);

      // A new bundle replaces the server's image file.
      writeFileSync(join(dir, "probe.js"), `${probeCode}\n// edited\n`);
      expect(freshProcess(dir).restored).toBe(false);
      const after = readdirSync(join(dir, "images"));
      expect(after).toHaveLength(2);
      expect(after).not.toContain(file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a fresh process has its first handshake answered from the image an earlier one took after it; other clients, damaged files and other lineages get the guest", () => {
    const dir = mkdtempSync(join(tmpdir(), "quickjs-images-"));
    const listed = (client: string) => sessionsInFreshProcess(dir, 1, "main", client)[0]!;
    try {
      writeFileSync(join(dir, "probe.js"), probeCode);
      const first = listed("disk-client");
      expect(first).toMatchObject({ restored: false, replayed: false });
      const files = readdirSync(join(dir, "images")).sort();
      expect(files).toHaveLength(2);
      const [handshakeFile, imageFile] = files as [string, string];
      expect(imageFile).toMatch(/^probe-disk-quickjs-main-[0-9a-f]{24}\.img$/);
      expect(handshakeFile).toBe(imageFile.replace(/\.img$/, ".handshake.img"));

      // Restored past its handshake: the first process's module-level state, pristine, one handshake seen.
      const second = listed("disk-client");
      expect(second).toMatchObject({
        restored: true,
        replayed: true,
        seen: { loadedAt: first.seen.loadedAt, calls: 1, global: 1, initialized: 1 },
      });
      expect(second.seen.random).not.toEqual(first.seen.random);

      // Another client: rewound to the image before the handshake, the guest answers it; the file stays.
      expect(listed("other-client")).toMatchObject({
        restored: true,
        replayed: false,
        seen: { loadedAt: first.seen.loadedAt, calls: 1, initialized: 1 },
      });
      expect(readdirSync(join(dir, "images")).sort()).toEqual(files);

      // A damaged file is ignored, and the session's own handshake image replaces it.
      const handshakePath = join(dir, "images", handshakeFile);
      truncateSync(handshakePath, 1000);
      expect(listed("disk-client")).toMatchObject({ restored: true, replayed: false, seen: { calls: 1, initialized: 1 } });
      expect(listed("disk-client")).toMatchObject({ restored: true, replayed: true, seen: { calls: 1, initialized: 1 } });

      // One taken after another image of the server (its handles elsewhere) is not put with this one.
      const data = readFileSync(handshakePath);
      const newline = data.indexOf(10);
      const header = JSON.parse(data.subarray(0, newline).toString("utf8")) as { handles: { receive: number } };
      header.handles.receive += 8;
      writeFileSync(handshakePath, Buffer.concat([Buffer.from(JSON.stringify(header)), data.subarray(newline)]));
      expect(listed("disk-client")).toMatchObject({ restored: true, replayed: false, seen: { calls: 1, initialized: 1 } });
      expect(listed("disk-client")).toMatchObject({ restored: true, replayed: true, seen: { calls: 1, initialized: 1 } });

      // A new bundle's two files replace the old bundle's.
      writeFileSync(join(dir, "probe.js"), `${probeCode}\n// edited\n`);
      expect(listed("disk-client")).toMatchObject({ restored: false, replayed: false });
      const after = readdirSync(join(dir, "images"));
      expect(after).toHaveLength(2);
      expect(after.filter((name) => files.includes(name))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
