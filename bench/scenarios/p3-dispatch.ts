// P3: 1 000 sequential tools/call round trips through the session's dispatcher (context envelope,
// deadline, result mapping) against the raw SDK client calling the same tool of the same server file.

import { connectRawSdk, openBenchSession, ratioResult, series, type ScenarioResult } from "../harness.ts";
import { CALLS, dispatchCalls, interleavedCalls, rawCalls } from "./call-loops.ts";

export async function p3Dispatch(reps: number): Promise<ScenarioResult> {
  const runs = await interleavedCalls(async () => {
    const session = await openBenchSession("one");
    const { client } = await connectRawSdk();
    return {
      sides: { ours: dispatchCalls(session), baseline: rawCalls(client) },
      close: async () => void (await Promise.all([session.close(), client.close()])),
    };
  }, reps);
  return ratioResult(
    { id: "P3", title: `tools/call round trip through the dispatcher (x${CALLS}, stdio)`, unit: "us", goal: "<= 1.10x", limit: 1.1 },
    series("session.dispatcher.dispatch, per call", runs.ours),
    series("raw SDK client.callTool, per call", runs.baseline),
  );
}
