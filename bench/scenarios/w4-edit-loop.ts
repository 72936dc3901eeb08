// W4: the edit loop. `trailblaze run` of one trail on target `one` in a fresh process, right after
// its tool file was edited, so the run builds the server again: on-device (an esbuild bundle, its
// first evaluation in QuickJS and its images) against host (Bun's bundle, a bun subprocess; no
// bytecode, which waits for a server's 25th start in a process). The workspace is a copy of the bench target in a temporary folder without
// node_modules, as upstream's workspaces are checked out (trailblaze-ts supplies the SDK and zod),
// and each side edits the tool before its own run. The CLI starts through the package's bin.

import { appendFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIXTURE_DIR, interleaved, launchedRun, ratioResult, series, type ScenarioResult } from "../harness.ts";
import { median } from "../stats.ts";

const TRAIL = `config:
  id: edit-loop
  target: one
trail:
  - step: Call the tool just edited
    recording:
      tools:
        - bencha_echo: { text: "edited" }
`;

/** A workspace with target `one` and a trail; removed by the caller. */
function workspace(): string {
  const root = mkdtempSync(join(tmpdir(), "trailblaze-bench-edit-"));
  mkdirSync(join(root, "tools"));
  mkdirSync(join(root, "trailblaze-config/targets"), { recursive: true });
  for (const file of ["echo-a.ts", "echo-server.ts"]) cpSync(join(FIXTURE_DIR, "tools", file), join(root, "tools", file));
  cpSync(join(FIXTURE_DIR, "trailblaze-config/targets/one.yaml"), join(root, "trailblaze-config/targets/one.yaml"));
  mkdirSync(join(root, "trails"));
  writeFileSync(join(root, "trails/edit-loop.trail.yaml"), TRAIL);
  return root;
}

/** Wall time of one run, ms, after editing the tool when `edit` says so; throws unless the trail passed. */
function runMs(root: string, agent: "host" | "on-device", edit: string | undefined): number {
  if (edit !== undefined) appendFileSync(join(root, "tools/echo-a.ts"), `// ${edit}\n`);
  return launchedRun(["trails", "--agent", agent, "--config", "trailblaze-config", "--no-logging"], root, 1).ms;
}

export async function w4EditLoop(reps: number): Promise<ScenarioResult> {
  const root = workspace();
  let edits = 0;
  const edited = (agent: "host" | "on-device") => async () => runMs(root, agent, `${agent} edit ${++edits}`);
  try {
    const runs = await interleaved({ ours: edited("on-device"), baseline: edited("host") }, reps, 1);
    // The same on-device run once the caches hold the edited tool, for scale.
    const warm = Array.from({ length: reps }, () => runMs(root, "on-device", undefined));
    return ratioResult(
      {
        id: "W4",
        title: "whole process: run 1 trail right after editing its tool, on-device vs host",
        unit: "ms",
        goal: "<= 1.0x",
        limit: 1.0,
      },
      series("run --agent on-device, the tool just edited (fresh process)", runs.ours),
      series("run --agent host, the tool just edited (fresh process)", runs.baseline),
      { "the same on-device run with the edit already built (ms, median)": Math.round(median(warm)) },
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
