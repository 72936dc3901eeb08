// P2: a session with five script servers (started in parallel by Session.start) against the same
// session with one. Also records the CPU each server process burns to get through its handshake,
// and the CPU of the bench's own process (the session's side of five handshakes): together they
// bound how fast five can start on this many cores. For reference, the same pair with raw SDK
// clients: five precompiled servers connected and listed in parallel against one.

import { availableParallelism } from "node:os";
import { join } from "node:path";
import { hostBundle } from "../../src/bundle/host-bundle.ts";
import {
  FIXTURE_DIR,
  connectRawSdk,
  interleaved,
  openBenchSession,
  ratioResult,
  series,
  sessionStartMs,
  timed,
  type ScenarioResult,
} from "../harness.ts";
import { runMs } from "../proc.ts";
import { median } from "../stats.ts";

export async function p2FiveServers(reps: number): Promise<ScenarioResult> {
  const serverCpu: number[] = [];
  const sessionCpu: number[] = [];
  const fiveMs = async () => {
    let session: Awaited<ReturnType<typeof openBenchSession>> | undefined;
    const before = process.cpuUsage();
    const ms = await timed(async () => {
      session = await openBenchSession("five");
    });
    const own = process.cpuUsage(before);
    sessionCpu.push((own.user + own.system) / 1000);
    serverCpu.push(...session!.runningPids().map(runMs));
    await session!.close();
    return ms;
  };
  const runs = await interleaved({ ours: fiveMs, baseline: () => sessionStartMs("one") }, reps);
  const raw = await rawClients(reps);
  const cores = availableParallelism();
  const cpuPerServer = median(serverCpu);
  const cpuOfSession = median(sessionCpu);
  const oneServer = median(runs.baseline);
  const floor = Math.max(oneServer, (5 * cpuPerServer + cpuOfSession) / cores);
  return ratioResult(
    { id: "P2", title: "session with 5 script servers", unit: "ms", goal: "<= 2.0x", limit: 2.0 },
    series("session start, 5 servers in parallel", runs.ours),
    series("session start, 1 server", runs.baseline),
    {
      "CPU per server to finish its handshake (ms, median)": round(cpuPerServer, 1),
      "CPU of the session's own process while the five start (ms, median)": round(cpuOfSession, 1),
      cores,
      "CPU-bound floor: max(1-server start, (5 x server CPU + session CPU) / cores) (ms)": round(floor),
      "CPU-bound floor as a ratio": round(floor / oneServer, 2),
      "raw SDK clients, the same five precompiled servers in parallel (ms, median)": round(median(raw.ours), 1),
      "raw SDK client, one of them (ms, median)": round(median(raw.baseline), 1),
      "raw SDK clients, five vs one": round(median(raw.ours) / median(raw.baseline), 2),
    },
  );
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));

/** Five raw SDK clients connecting to (and listing) the five precompiled servers at once, against one. */
async function rawClients(reps: number): Promise<{ ours: number[]; baseline: number[] }> {
  const scripts = await Promise.all(
    ["a", "b", "c", "d", "e"].map(async (letter) => (await hostBundle(join(FIXTURE_DIR, `tools/echo-${letter}.ts`), FIXTURE_DIR)).file),
  );
  const connectAll = async (files: string[]) => {
    let clients: Awaited<ReturnType<typeof connectRawSdk>>[] = [];
    const ms = await timed(async () => {
      clients = await Promise.all(files.map((file) => connectRawSdk(file)));
    });
    await Promise.all(clients.map(({ client }) => client.close()));
    return ms;
  };
  return interleaved({ ours: () => connectAll(scripts), baseline: () => connectAll(scripts.slice(0, 1)) }, reps);
}
