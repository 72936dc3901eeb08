// P5: on-device session start with the bundle already cached (cache check + a QuickJS instance
// restored from the server's image, or evaluating the bundle + initialize + tools/list) against a
// host session with the same tools. The QuickJS side is split using the time spent in
// Sandbox.restore, Sandbox.installPrelude and Sandbox.evaluate during the measured sessions
// themselves; the same start without images is measured after them. The measured sessions run
// in a warm process (as in a `trailblaze run` or `mcp` process after a few sessions); the first
// session of a fresh process is reported beside them.

import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { Sandbox } from "../../runtime-quickjs/sandbox.ts";
import { bundleEntry } from "../../src/bundle/bundle-entry.ts";
import {
  BUN,
  ECHO_SCRIPT,
  ENV,
  FIXTURE_DIR,
  interleaved,
  ratioResult,
  series,
  sessionStartMs,
  timed,
  type ScenarioResult,
} from "../harness.ts";
import { median } from "../stats.ts";

/**
 * Warm-up rounds: QuickJS runs as WebAssembly, which the host's engine optimises only once it is
 * hot; on this kind of machine on-device starts settle after 15–20 sessions.
 */
const WARMUP = 20;
/** Fresh processes per agent for the first-session figure. */
const FRESH = 3;

/** Time to the first session of a fresh process, per run of p5-first-session.ts. */
function firstSessionMs(agent: "host" | "on-device", env: Record<string, string> = {}): number {
  const script = resolve(import.meta.dir, "p5-first-session.ts");
  const run = spawnSync(BUN, [script, agent], { env: { ...ENV, ...env }, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`bench: ${script} ${agent} failed: ${run.stderr.slice(-1000)}`);
  return (JSON.parse(run.stdout.trim().split("\n").at(-1)!) as { ms: number }).ms;
}

/** Wraps a Sandbox method so the time spent in it is added to `spent.ms`. */
function timeMethod<K extends "evaluate" | "installPrelude" | "restore">(name: K, spent: { ms: number }): () => void {
  const original = Sandbox.prototype[name];
  Sandbox.prototype[name] = function (this: Sandbox, ...args: Parameters<Sandbox[K]>) {
    const start = performance.now();
    try {
      return (original as (...a: Parameters<Sandbox[K]>) => ReturnType<Sandbox[K]>).apply(this, args);
    } finally {
      spent.ms += performance.now() - start;
    }
  } as Sandbox[K];
  return () => void (Sandbox.prototype[name] = original);
}

export async function p5OnDeviceStart(reps: number): Promise<ScenarioResult> {
  const evaluating = { ms: 0 };
  const prelude = { ms: 0 };
  const restoring = { ms: 0 };
  const split: { evaluate: number; prelude: number; restore: number; total: number }[] = [];
  const undoTimers = [timeMethod("evaluate", evaluating), timeMethod("installPrelude", prelude), timeMethod("restore", restoring)];
  let runs: { ours: number[]; baseline: number[] };
  const withoutImages: number[] = [];
  try {
    const onDevice = async () => {
      evaluating.ms = prelude.ms = restoring.ms = 0;
      const total = await sessionStartMs("one", "on-device");
      split.push({ evaluate: evaluating.ms, prelude: prelude.ms, restore: restoring.ms, total });
      return total;
    };
    // The warm-up builds the bundle cache, compiles the QuickJS wasm module once per process and gets it optimised.
    runs = await interleaved({ ours: onDevice, baseline: () => sessionStartMs("one", "host") }, reps, WARMUP);
    // The same start evaluating the bundle every time, as before images (TRAILBLAZE_QUICKJS_IMAGES=0).
    process.env.TRAILBLAZE_QUICKJS_IMAGES = "0";
    for (let i = 0; i < 5 + reps; i++) {
      const ms = await sessionStartMs("one", "on-device");
      if (i >= 5) withoutImages.push(ms);
    }
  } finally {
    delete process.env.TRAILBLAZE_QUICKJS_IMAGES;
    for (const undo of undoTimers) undo();
  }
  split.splice(0, WARMUP);
  const fresh = { onDevice: [] as number[], onDeviceNoImages: [] as number[], host: [] as number[] };
  for (let i = 0; i < FRESH; i++) {
    fresh.onDevice.push(firstSessionMs("on-device"));
    fresh.onDeviceNoImages.push(firstSessionMs("on-device", { TRAILBLAZE_QUICKJS_IMAGES: "0" }));
    fresh.host.push(firstSessionMs("host"));
  }

  const lookups: number[] = [];
  for (let i = 0; i < 5; i++) lookups.push(await timed(() => bundleEntry(ECHO_SCRIPT, { cwd: FIXTURE_DIR })));
  const ms = (values: number[]) => Number(median(values).toFixed(1));
  return ratioResult(
    { id: "P5", title: "on-device session start (bundle cached)", unit: "ms", goal: "<= 0.20x", limit: 0.2 },
    series("session start, --agent on-device", runs.ours),
    series("session start, --agent host (bun subprocess)", runs.baseline),
    {
      "on-device start: restoring the server's image (ms, median)": ms(split.map((s) => s.restore)),
      "on-device start: evaluating the bundle (QuickJS compile + top-level code; 0 when restored) (ms, median)": ms(
        split.map((s) => s.evaluate),
      ),
      "on-device start: the guest prelude (0 when restored) (ms, median)": ms(split.map((s) => s.prelude)),
      "on-device start: the rest (cache check, instance, initialize, tools/list, built-ins, registry) (ms, median)": ms(
        split.map((s) => s.total - s.evaluate - s.prelude - s.restore),
      ),
      [`on-device start without images, evaluating the bundle each time (TRAILBLAZE_QUICKJS_IMAGES=0) (ms, median of ${reps})`]:
        ms(withoutImages),
      "bundle cache check in a warm process: stat every input, read the bundle (ms, median of 5)": ms(lookups),
      [`first session of a fresh process, --agent on-device, image on disk (ms, median of ${FRESH})`]: ms(fresh.onDevice),
      [`first session of a fresh process, --agent on-device, images off (ms, median of ${FRESH})`]: ms(fresh.onDeviceNoImages),
      [`first session of a fresh process, --agent host (ms, median of ${FRESH})`]: ms(fresh.host),
      "bundle size (bytes)": (await bundleEntry(ECHO_SCRIPT, { cwd: FIXTURE_DIR })).bytes,
    },
  );
}
