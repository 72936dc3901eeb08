// The on-device call path (src/bundle/call-path-plugin.ts: fast paths before the SDK's zod checks
// in QuickJS) answers every tools/call exactly as the unpatched SDK does: one fixture run as a bun
// subprocess and bundled in QuickJS, the same calls on both, replies compared, failures included.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { startQuickJsServer, type QuickJsServer } from "../runtime-quickjs/index.ts";
import { buildOnDevice, bundleEntry } from "../src/bundle/bundle-entry.ts";
import { REPO, TEST_PATH } from "./support/cli.ts";
import { ENGINE } from "./support/quickjs-engine.ts";

const FIXTURE = join(REPO, "fixtures/bundle/call-shapes-server.ts");
const CONTEXT = {
  memory: { seen: 1 },
  device: { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" },
};

type Call = { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> };

/** A reply or a failure, as a caller sees it. */
async function outcome(client: Client, call: Call): Promise<unknown> {
  try {
    return { result: await client.callTool(call) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const CALLS: Call[] = [
  { name: "echo", arguments: { text: "hi" } },
  { name: "echo", arguments: { text: "hi", _trailblazeContext: CONTEXT }, _meta: { trailblaze: CONTEXT, progressToken: "t-1" } },
  { name: "echo", arguments: { text: 5 } },
  { name: "echo", arguments: {} },
  { name: "echo" },
  { name: "missing", arguments: {} },
  {
    name: "seen",
    arguments: { text: "x", n: 3, extra: { deep: [1, 2] } },
    _meta: { trailblaze: CONTEXT, progressToken: 7, other: "kept" },
  },
  { name: "seen", arguments: { n: 1.5 } },
  { name: "seen", _meta: { "io.modelcontextprotocol/related-task": { taskId: "t" } } },
  ...["texts", "empty", "flagged", "annotated", "extraKeys", "image", "withMeta", "badBlock", "badText", "badFlag", "noContent"].map(
    (shape) => ({ name: "result", arguments: { shape } }),
  ),
  { name: "sum", arguments: { a: 1, b: 2 } },
  { name: "sum", arguments: { a: 1, b: "2" } },
  { name: "badSum", arguments: { a: 1 } },
  { name: "bare", arguments: { ignored: true }, _meta: { trailblaze: CONTEXT } },
  { name: "bare" },
  { name: "throws", arguments: { text: "x" } },
  { name: "throws", arguments: { text: 1 } },
  // The context as a session sends it (one object, last in the arguments): sent into QuickJS once, and back in place.
  { name: "context", arguments: { text: "x", _trailblazeContext: CONTEXT }, _meta: { trailblaze: CONTEXT, progressToken: 3 } },
  { name: "context", arguments: { _trailblazeContext: CONTEXT, text: "x" }, _meta: { trailblaze: CONTEXT } },
  { name: "context", arguments: { text: "x", _trailblazeContext: { ...CONTEXT } }, _meta: { trailblaze: CONTEXT } },
  { name: "context", arguments: { text: "", _trailblazeContext: CONTEXT }, _meta: { trailblaze: CONTEXT } },
  { name: "context", arguments: { _trailblazeContext: CONTEXT }, _meta: { trailblaze: CONTEXT } },
];

describe("a tools/call answers the same from QuickJS (fast paths) as from the SDK unpatched", () => {
  let quickjs: QuickJsServer;
  const onDevice = new Client({ name: "call-path-test", version: "1.0.0" });
  const onHost = new Client({ name: "call-path-test", version: "1.0.0" });

  beforeAll(async () => {
    const { code } = await bundleEntry(FIXTURE, { cwd: REPO });
    quickjs = await startQuickJsServer({ name: "call-shapes", code, engine: ENGINE });
    await onDevice.connect(quickjs.transport);
    const env = { ...(process.env as Record<string, string>), PATH: TEST_PATH };
    await onHost.connect(
      new StdioClientTransport({ command: join(REPO, "node_modules/.bin/bun"), args: [FIXTURE], cwd: REPO, env, stderr: "ignore" }),
    );
  }, 30_000);
  afterAll(async () => {
    await Promise.all([onDevice.close(), onHost.close()]);
  });

  test.each(CALLS.map((call) => [JSON.stringify(call).slice(0, 90), call] as const))("%s", async (_label, call) => {
    const [device, host] = await Promise.all([outcome(onDevice, call), outcome(onHost, call)]);
    expect(device).toEqual(host);
  });

  test("the bundle's SDK was patched (the fast paths are what ran in QuickJS)", async () => {
    const { patches } = await buildOnDevice(FIXTURE, REPO, true);
    expect(patches).toContain("protocolFastPaths");
    expect(patches).toContain("toolsCallOnce");
    expect(patches).toContain("toolCallFastPath");
  });
});
