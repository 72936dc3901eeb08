// W1 and W2: whole processes, as a user meets them. W1: `trailblaze tools --target one --json`
// (host) against bench/raw-client.ts, both fresh `bun` processes listing the same server's tools.
// W2: the same CLI command with `--agent on-device` against the host one. Caches (host bundle,
// on-device bundle, the precompiled CLI) are warm, as after a first run in a workspace. W1 also
// runs the CLI from its sources (`bun src/cli/cli.ts`, the path before the CLI was precompiled)
// against the same raw client, for its details.

import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { BUN, ECHO_SCRIPT, ENV, FIXTURE_DIR, interleaved, ratioResult, series, type ScenarioResult } from "../harness.ts";
import { median, pairedRatios } from "../stats.ts";

const CLI = resolve(import.meta.dir, "../../src/cli/main.ts");
const CLI_SOURCES = resolve(import.meta.dir, "../../src/cli/cli.ts");
const RAW_CLIENT = resolve(import.meta.dir, "../raw-client.ts");

/** Wall time of one process, ms; throws with its stderr when it fails. */
function processMs(args: string[]): number {
  const started = performance.now();
  const run = spawnSync(BUN, args, { cwd: FIXTURE_DIR, env: { ...ENV, NO_COLOR: "1" }, encoding: "utf8" });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`bench: ${args.join(" ")} exited ${run.status}: ${run.stderr.slice(-1000)}`);
  return ms;
}

const cliTools = (agent: string) => async () => processMs([CLI, "tools", "--target", "one", "--json", "--agent", agent]);

export async function w1CliVsRawClient(reps: number): Promise<ScenarioResult> {
  const rawClient = async () => processMs([RAW_CLIENT, ECHO_SCRIPT]);
  const runs = await interleaved({ ours: cliTools("host"), baseline: rawClient }, reps, 2);
  const fromSources = await interleaved(
    { ours: async () => processMs([CLI_SOURCES, "tools", "--target", "one", "--json"]), baseline: rawClient },
    reps,
    1,
  );
  const before = series("bun src/cli/cli.ts tools --target one --json (the CLI from its sources)", fromSources.ours);
  const beforeRatio = median(pairedRatios(fromSources.ours, fromSources.baseline));
  return ratioResult(
    {
      id: "W1",
      title: "whole process: CLI `tools` (host) vs a raw SDK client script, same server",
      unit: "ms",
      goal: "<= 1.10x",
      limit: 1.1,
    },
    series("bun src/cli/main.ts tools --target one --json (fresh process)", runs.ours),
    series("bun bench/raw-client.ts tools/echo-a.ts (fresh process)", runs.baseline),
    {
      "the CLI from its sources (not precompiled), median ms": Math.round(before.median),
      "the CLI from its sources vs the raw client, same run": `${beforeRatio.toFixed(3)}x`,
    },
  );
}

export async function w2OnDeviceVsHost(reps: number): Promise<ScenarioResult> {
  const runs = await interleaved({ ours: cliTools("on-device"), baseline: cliTools("host") }, reps, 2);
  return ratioResult(
    { id: "W2", title: "whole process: CLI `tools` on-device vs host", unit: "ms", goal: "<= 0.90x", limit: 0.9 },
    series("tools --agent on-device (fresh process)", runs.ours),
    series("tools --agent host (fresh process)", runs.baseline),
  );
}
