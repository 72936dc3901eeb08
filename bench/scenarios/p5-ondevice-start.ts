// P5: on-device session start with the bundle already cached (cache check + a fresh QuickJS VM
// evaluating the bundle + initialize + tools/list) against a host session with the same tools.

import { startQuickJsServer } from "../../runtime-quickjs/index.ts";
import { bundleEntry } from "../../src/bundle/bundle-entry.ts";
import { ECHO_SCRIPT, FIXTURE_DIR, interleaved, ratioResult, series, sessionStartMs, timed, type ScenarioResult } from "../harness.ts";
import { median } from "../stats.ts";

export async function p5OnDeviceStart(reps: number): Promise<ScenarioResult> {
  // The warm-up round builds the bundle cache and compiles the QuickJS wasm module once per process.
  const runs = await interleaved({ ours: () => sessionStartMs("one", "on-device"), baseline: () => sessionStartMs("one", "host") }, reps);

  const lookups: number[] = [];
  const boots: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 5; i++) {
    let code = "";
    lookups.push(await timed(async () => ({ code } = await bundleEntry(ECHO_SCRIPT, { cwd: FIXTURE_DIR }))));
    bytes = code.length;
    let server: Awaited<ReturnType<typeof startQuickJsServer>> | undefined;
    boots.push(await timed(async () => (server = await startQuickJsServer({ name: "bench", code }))));
    await server?.close();
  }
  const ms = (value: number) => Number(value.toFixed(1));
  return ratioResult(
    { id: "P5", title: "on-device session start (bundle cached)", unit: "ms", goal: "<= 0.5x", limit: 0.5 },
    series("session start, --agent on-device", runs.ours),
    series("session start, --agent host (bun subprocess)", runs.baseline),
    {
      "bundle cache check (hash every input, read the bundle) (ms, median)": ms(median(lookups)),
      "QuickJS VM + evaluate bundle until connected (ms, median)": ms(median(boots)),
      "bundle size (bytes)": bytes,
    },
  );
}
