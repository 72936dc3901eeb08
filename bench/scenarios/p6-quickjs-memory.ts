// P6: QuickJS heap of one on-device server after 10 000 tools/call round trips against the same
// server right after its first call. Driven through McpConnection with the Trailblaze envelope,
// as the on-device launcher wires it, because the heap figure lives on the QuickJsServer.

import { DEFAULT_QUICKJS_ENGINE, startQuickJsServer, type QuickJsEngine } from "../../runtime-quickjs/index.ts";
import { bundleEntry } from "../../src/bundle/bundle-entry.ts";
import { isSuccess } from "../../src/core/tool-result.ts";
import { McpConnection } from "../../src/servers/mcp-connection.ts";
import { buildContext } from "../../src/core/context.ts";
import { ECHO_SCRIPT, FIXTURE_DIR, ratioResult, series, type ScenarioResult } from "../harness.ts";

const CALLS = 10_000;
/**
 * "No growth": the heap after CALLS calls is within 1% of the heap after the first call. Not 0%:
 * the first call only reached one tool; the other two build their schemas' caches on their first
 * call. That the heap is flat is shown by the second half of the calls: see `midway` below.
 */
const GROWTH_LIMIT = 1.01;
const ABSOLUTE_LIMIT = 8 * 1024 * 1024;

/** The three fixture tools in turn, with arguments that differ per call. */
const CALL_MIX = [
  (i: number) => ["bencha_echo", { text: `hello ${i}` }] as const,
  (i: number) => ["bencha_add", { a: i, b: 0.5 }] as const,
  (i: number) => ["bencha_remember", { key: `k${i % 100}`, value: `v${i}` }] as const,
];

export async function p6QuickJsMemory(reps: number, engine: QuickJsEngine = DEFAULT_QUICKJS_ENGINE): Promise<ScenarioResult> {
  const { code } = await bundleEntry(ECHO_SCRIPT, { cwd: FIXTURE_DIR });
  const context = buildContext(
    { sessionId: "bench-p6", invocationId: "call-1" },
    { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" },
    { user: "ada" },
  );
  const first: number[] = [];
  const last: number[] = [];
  const linear: number[] = [];
  const midway: number[] = [];
  // Repetition 0 is the warm-up (first QuickJS instance of the process); its figures are dropped.
  for (let rep = 0; rep <= reps; rep++) {
    const server = await startQuickJsServer({ name: "bench", code, engine });
    const { connection } = await McpConnection.open({ name: "bench", transport: server.transport });
    try {
      for (let i = 0; i < CALLS; i++) {
        const [tool, args] = CALL_MIX[i % CALL_MIX.length]!(i);
        const result = await connection.call(tool, args, context);
        if (!isSuccess(result)) throw new Error(`bench: ${tool} failed in QuickJS: ${result.message}`);
        if (i === 0) first.push(server.memoryUsage().bytes);
        if (i === CALLS / 2 - 1) midway.push(server.memoryUsage().bytes);
      }
      last.push(server.memoryUsage().bytes);
      linear.push(server.memoryUsage().linearBytes);
    } finally {
      await connection.close();
    }
  }
  for (const list of [first, last, linear, midway]) list.shift();
  const result = ratioResult(
    {
      id: "P6",
      title: `QuickJS heap per session after ${CALLS.toLocaleString("en")} calls`,
      unit: "bytes",
      goal: "no growth; <= 8 MB",
      limit: GROWTH_LIMIT,
    },
    series(`heap after ${CALLS} calls`, last),
    series("heap after the first call", first),
    {
      "heap change from the first call to the last (bytes, max)": Math.max(...last.map((bytes, i) => bytes - first[i]!)),
      [`heap change over calls ${CALLS / 2 + 1}-${CALLS} (bytes, max)`]: Math.max(...last.map((bytes, i) => bytes - midway[i]!)),
      "WebAssembly linear memory after the calls (bytes, max)": Math.max(...linear),
      "heap limit for the goal (bytes)": ABSOLUTE_LIMIT,
    },
  );
  result.met = result.ratio!.max <= GROWTH_LIMIT && result.ours.max <= ABSOLUTE_LIMIT;
  return result;
}
