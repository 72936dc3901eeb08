// W3: a web trail on a real Chromium, as a user runs it (`trailblaze run` in a fresh process) against
// a plain playwright-core script doing the same clicks and checks on the same page (bench/raw-browser.ts),
// whole process and per action after navigation. Both launch Debian's Chromium with the same switches.

import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { BUN, ENV, interleaved, ratioResult, series, type ScenarioResult } from "../harness.ts";
import { median, pairedRatios } from "../stats.ts";

const CLI = resolve(import.meta.dir, "../../src/cli/main.ts");
const RAW = resolve(import.meta.dir, "../raw-browser.ts");
const WEB = resolve(import.meta.dir, "../../fixtures/web");

/** Runs one process; its wall time, and the per-action time it reports, ms. */
function run(args: string[], perAction: (stdout: string) => number): { wall: number; action: number } {
  const started = performance.now();
  const child = spawnSync(BUN, args, { cwd: WEB, env: { ...ENV, NO_COLOR: "1" }, encoding: "utf8", maxBuffer: 64 << 20 });
  const wall = performance.now() - started;
  if (child.status !== 0) throw new Error(`bench: ${args.join(" ")} exited ${child.status}: ${child.stderr.slice(-1000)}`);
  return { wall, action: perAction(child.stdout) };
}

const ours = () =>
  run([CLI, "run", "bench/counter.trail.yaml", "--reporter", "json", "--no-logging"], (stdout) => {
    const tools = JSON.parse(stdout).trails[0].steps[1].tools as { durationMs: number }[];
    return tools.reduce((sum, t) => sum + t.durationMs, 0) / tools.length;
  });
const raw = () =>
  run([RAW], (stdout) => {
    const { actionsMs, actions } = JSON.parse(stdout) as { actionsMs: number; actions: number };
    return actionsMs / actions;
  });

export async function w3WebTrail(reps: number): Promise<ScenarioResult> {
  const perAction = { ours: [] as number[], baseline: [] as number[] };
  const runs = await interleaved(
    {
      ours: async () => {
        const r = ours();
        perAction.ours.push(r.action);
        return r.wall;
      },
      baseline: async () => {
        const r = raw();
        perAction.baseline.push(r.action);
        return r.wall;
      },
    },
    reps,
    1,
  );
  // The warm-up round's figures are left out, as its wall times are.
  const actionsOurs = perAction.ours.slice(1);
  const actionsRaw = perAction.baseline.slice(1);
  const perActionRatio = median(pairedRatios(actionsOurs, actionsRaw));
  const result = ratioResult(
    {
      id: "W3",
      title: "web trail on Chromium: CLI `run` vs a plain playwright-core script, whole process",
      unit: "ms",
      goal: "per action <= 1.2x",
      limit: Number.POSITIVE_INFINITY,
    },
    series("bun src/cli/main.ts run bench/counter.trail.yaml (fresh process)", runs.ours),
    series("bun bench/raw-browser.ts (fresh process)", runs.baseline),
    {
      "per action, ours (median ms)": Number(median(actionsOurs).toFixed(1)),
      "per action, plain script (median ms)": Number(median(actionsRaw).toFixed(1)),
      "per action, ours vs plain script": `${perActionRatio.toFixed(3)}x`,
    },
  );
  // The goal is per action (the whole process is mostly Chromium starting, in both).
  return { ...result, met: perActionRatio <= 1.2 };
}
