// Interleaved tools/call loops shared by P3 and P4: every repetition starts fresh servers (so no
// side keeps a lucky or unlucky process for the whole run), warms each side up, then runs CALLS
// calls per side as alternating blocks, so all sides see the same moments of machine load.

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { isSuccess } from "../../src/core/tool-result.ts";
import type { Session } from "../../src/session/session.ts";
import { timed } from "../harness.ts";

export const CALLS = 1000;
/** Calls per block; sides take turns block by block, the first side alternating. */
const BLOCK = 100;
/** Untimed calls per side after its servers start (JIT warm-up on both ends). */
const WARMUP_CALLS = 200;
export const TOOL = "bencha_echo";
export const ARGS = { text: "hello" };

/** Runs `n` calls one after the other; throws on a failed call. */
export type CallLoop = (n: number) => Promise<void>;

export function dispatchCalls(session: Session): CallLoop {
  return async (n) => {
    for (let i = 0; i < n; i++) {
      const result = await session.dispatcher.dispatch(TOOL, ARGS);
      if (!isSuccess(result)) throw new Error(`bench: ${TOOL} failed: ${result.message}`);
    }
  };
}

export function rawCalls(client: Client): CallLoop {
  return async (n) => {
    for (let i = 0; i < n; i++) {
      const result = await client.callTool({ name: TOOL, arguments: ARGS });
      if (result.isError) throw new Error(`bench: ${TOOL} failed over the raw client`);
    }
  };
}

export interface CallSides<K extends string> {
  sides: Record<K, CallLoop>;
  close(): Promise<void>;
}

/**
 * One discarded warm-up repetition, then `reps` repetitions; each opens fresh sides with `open`.
 * Returns microseconds per call, per repetition and side.
 */
export async function interleavedCalls<K extends string>(open: () => Promise<CallSides<K>>, reps: number): Promise<Record<K, number[]>> {
  const perCall = {} as Record<K, number[]>;
  for (let rep = 0; rep <= reps; rep++) {
    const { sides, close } = await open();
    try {
      const names = Object.keys(sides) as K[];
      for (const name of names) await sides[name](WARMUP_CALLS);
      const totals = new Map<K, number>(names.map((name) => [name, 0]));
      for (let block = 0; block < CALLS / BLOCK; block++) {
        const shift = (rep + block) % names.length;
        for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
          totals.set(name, totals.get(name)! + (await timed(() => sides[name](BLOCK))));
        }
      }
      if (rep === 0) continue;
      for (const name of names) (perCall[name] ??= []).push((totals.get(name)! * 1000) / CALLS);
    } finally {
      await close();
    }
  }
  return perCall;
}
