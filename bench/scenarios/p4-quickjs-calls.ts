// P4: the same tools/call round trips through the dispatcher with the server in QuickJS (on-device
// session) against the server as a bun subprocess (host session). Two more sides run in the same
// blocks for the breakdown: the raw SDK Client driving the bundle in QuickJS and driving the bun
// subprocess; and the time inside the VM is taken from Sandbox.deliverMessage.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { DEFAULT_QUICKJS_ENGINE, startQuickJsServer, type QuickJsEngine } from "../../runtime-quickjs/index.ts";
import { Sandbox } from "../../runtime-quickjs/sandbox.ts";
import { bundleEntry } from "../../src/bundle/bundle-entry.ts";
import { ECHO_SCRIPT, FIXTURE_DIR, connectRawSdk, openBenchSession, ratioResult, series, type ScenarioResult } from "../harness.ts";
import { median } from "../stats.ts";
import { CALLS, dispatchCalls, interleavedCalls, rawCalls, type CallLoop } from "./call-loops.ts";

type Side = "ours" | "baseline" | "rawQuickJs" | "rawStdio";

/** Time inside `Sandbox.deliverMessage` per QuickJS side and measured repetition (ms over its CALLS calls). */
const inVm = new Map<Side, number[]>();
let active: { side: Side; rep: number } | undefined;

/**
 * Attributes VM time to `side` in repetition `rep` while the loop runs. The first run of each loop
 * is its warm-up (see interleavedCalls) and repetition 0 is discarded, so neither is counted.
 */
function tagged(side: Side, rep: number, loop: CallLoop): CallLoop {
  let warmedUp = false;
  return async (n) => {
    active = warmedUp && rep > 0 ? { side, rep } : undefined;
    warmedUp = true;
    try {
      await loop(n);
    } finally {
      active = undefined;
    }
  };
}

function instrumentSandbox(): () => void {
  const original = Sandbox.prototype.deliverMessage;
  Sandbox.prototype.deliverMessage = function (this: Sandbox, json: string) {
    const start = performance.now();
    try {
      return original.call(this, json);
    } finally {
      if (active) {
        const reps = inVm.get(active.side) ?? [];
        reps[active.rep - 1] = (reps[active.rep - 1] ?? 0) + performance.now() - start;
        inVm.set(active.side, reps);
      }
    }
  };
  return () => (Sandbox.prototype.deliverMessage = original);
}

export async function p4QuickJsCalls(reps: number, engine: QuickJsEngine = DEFAULT_QUICKJS_ENGINE): Promise<ScenarioResult> {
  const { code } = await bundleEntry(ECHO_SCRIPT, { cwd: FIXTURE_DIR });
  inVm.clear();
  const restore = instrumentSandbox();
  let runs: Record<Side, number[]>;
  let rep = -1;
  try {
    runs = await interleavedCalls(async () => {
      rep++;
      const onDevice = await openBenchSession("one", "on-device");
      const host = await openBenchSession("one", "host");
      const quickjs = await startQuickJsServer({ name: "bench", code, engine });
      const toQuickJs = new Client({ name: "bench-baseline", version: "1.0.0" });
      await toQuickJs.connect(quickjs.transport);
      const { client: toStdio } = await connectRawSdk();
      return {
        sides: {
          ours: tagged("ours", rep, dispatchCalls(onDevice)),
          baseline: dispatchCalls(host),
          rawQuickJs: tagged("rawQuickJs", rep, rawCalls(toQuickJs)),
          rawStdio: rawCalls(toStdio),
        },
        close: async () => void (await Promise.all([onDevice.close(), host.close(), toQuickJs.close(), toStdio.close()])),
      };
    }, reps);
  } finally {
    restore();
  }
  // Per repetition, in µs per call: time in the VM and on the host (total minus VM), then medians.
  const vm = (side: Side) => inVm.get(side)!.map((ms) => (ms * 1000) / CALLS);
  const hostSide = (side: Side) => runs[side].map((total, i) => total - vm(side)[i]!);
  const layer = hostSide("ours").map((ours, i) => ours - hostSide("rawQuickJs")[i]!);
  const us = (values: number[]) => Number(median(values).toFixed(1));
  return ratioResult(
    { id: "P4", title: `tools/call round trip in QuickJS (x${CALLS}, through the dispatcher)`, unit: "us", goal: "<= 1.0x", limit: 1.0 },
    series("on-device session: dispatcher -> QuickJS, per call", runs.ours),
    series("host session: dispatcher -> bun subprocess over stdio, per call", runs.baseline),
    {
      "QuickJS path, on-device session: total per call (us)": us(runs.ours),
      "  inside the VM (Sandbox.deliverMessage: JSON, SDK server, zod, handler, reply) (us)": us(vm("ours")),
      "  on the host (SDK Client, in-process transport, Trailblaze layer) (us)": us(hostSide("ours")),
      "QuickJS path, raw SDK Client without the envelope: total per call (us)": us(runs.rawQuickJs),
      "  inside the VM (us)": us(vm("rawQuickJs")),
      "  on the host (SDK Client, in-process transport) (us)": us(hostSide("rawQuickJs")),
      "Trailblaze layer on the host, paired (us)": us(layer),
      "stdio path, raw SDK Client -> bun subprocess: total per call (us)": us(runs.rawStdio),
    },
  );
}
