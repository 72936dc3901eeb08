// P1: host session cold start with one bun script server (spawn + initialize + tools/list), against
// the raw SDK Client + StdioClientTransport spawning the same file with the same bun.

import { connectRawSdk, interleaved, ratioResult, series, sessionStartMs, type ScenarioResult } from "../harness.ts";

async function rawSdkStartMs(): Promise<number> {
  const { client, ms } = await connectRawSdk();
  await client.close();
  return ms;
}

export async function p1ColdStart(reps: number): Promise<ScenarioResult> {
  const runs = await interleaved({ ours: () => sessionStartMs("one"), baseline: rawSdkStartMs }, reps);
  return ratioResult(
    { id: "P1", title: "host session cold start, 1 bun script server", unit: "ms", goal: "<= 0.80x", limit: 0.8 },
    series("session start: spawn + initialize + tools/list + registry", runs.ours),
    series("raw SDK Client + StdioClientTransport, same server", runs.baseline),
  );
}
