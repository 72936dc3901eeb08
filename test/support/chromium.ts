// Whether this machine can run the real-browser tests. Without a Chromium they are skipped here with
// the reason and the fix shown as a skipped test; in CI (`CI` set) their file fails instead, since
// .ci/run installs Chromium and its absence there is a fault, not a choice.

import { test } from "bun:test";
import { findChromium } from "../../src/browser/find-chromium.ts";

/** Why the real-browser tests cannot run here (findChromium's message), or undefined when they can. */
function missingChromium(): string | undefined {
  try {
    findChromium();
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * For `describe.skipIf` / `test.skipIf` (and an early return in a file's own `beforeAll`) in a file
 * whose tests need Chromium: true when none is found, after registering a skipped test named with
 * the reason and the fix, so the run says why. In CI a missing Chromium throws instead.
 */
export function withoutChromium(): boolean {
  const missing = missingChromium();
  if (missing === undefined) return false;
  // Thrown while the file loads: the run names this file and the reason, not an "(unnamed)" hook.
  if (process.env.CI) throw new Error(`the real-browser tests need Chromium, which CI installs (.ci/run): ${missing}`);
  test.skip(`needs Chromium, skipped: ${missing}`, () => {});
  return true;
}
