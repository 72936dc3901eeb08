// The QuickJS engine this test process runs (`TRAILBLAZE_QUICKJS`, default quickjs), and the
// expectations that differ between engines: stack columns, the stack-overflow error, and whether a
// guest can swallow an interrupt. `TRAILBLAZE_QUICKJS=quickjs-ng bun test` runs the suite on the other one.

import { DEFAULT_QUICKJS_ENGINE, type QuickJsEngine } from "../../runtime-quickjs/index.ts";

export const ENGINE: QuickJsEngine = DEFAULT_QUICKJS_ENGINE;

/** The expectation for the engine under test. */
export function byEngine<T>(expected: Record<QuickJsEngine, T>): T {
  return expected[ENGINE];
}
