// P2: a session with five script servers (started in parallel by Session.start) against the same
// session with one. Also records the CPU each server process burns to get through its handshake,
// which bounds how fast five can start on this many cores.

import { availableParallelism } from "node:os";
import { interleaved, openBenchSession, ratioResult, series, sessionStartMs, timed, type ScenarioResult } from "../harness.ts";
import { cpuMs } from "../proc.ts";
import { median } from "../stats.ts";

export async function p2FiveServers(reps: number): Promise<ScenarioResult> {
  const serverCpu: number[] = [];
  const fiveMs = async () => {
    let session: Awaited<ReturnType<typeof openBenchSession>> | undefined;
    const ms = await timed(async () => {
      session = await openBenchSession("five");
    });
    serverCpu.push(...session!.runningPids().map(cpuMs));
    await session!.close();
    return ms;
  };
  const runs = await interleaved({ ours: fiveMs, baseline: () => sessionStartMs("one") }, reps);
  const cores = availableParallelism();
  const cpuPerServer = median(serverCpu);
  const oneServer = median(runs.baseline);
  return ratioResult(
    { id: "P2", title: "session with 5 script servers", unit: "ms", goal: "<= 2.0x", limit: 2.0 },
    series("session start, 5 servers in parallel", runs.ours),
    series("session start, 1 server", runs.baseline),
    {
      "CPU per server to finish its handshake (ms, median)": round(cpuPerServer),
      cores,
      "CPU-bound floor: max(1-server start, 5 x CPU / cores) (ms)": round(Math.max(oneServer, (5 * cpuPerServer) / cores)),
      "CPU-bound floor as a ratio": round(Math.max(oneServer, (5 * cpuPerServer) / cores) / oneServer, 2),
    },
  );
}

const round = (value: number, digits = 0) => Number(value.toFixed(digits));
