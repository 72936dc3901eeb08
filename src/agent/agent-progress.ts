// Stuck detection, as upstream's runner does it (ProgressTracking.kt): each call the model makes is
// reduced to its signature (the tool and its arguments, less the reasoning that differs every
// time), and the last 30 are watched for the same call repeated, a cycle of two or three calls, or
// one call that takes most of the last 15. A warning goes into the next request (once); a loop long
// past any legitimate repetition (30 of one call, 15 rounds of two, 10 of three) ends the objective.

/** Arguments that say why, not what: left out of a signature. */
const ANALYSIS_ARGS = new Set(["reasoning", "reason"]);
/** How many signatures are watched: enough for the longest critical loop (30 entries each). */
export const STUCK_WINDOW = 30;
/** Full repeats at which a loop of 1, 2 or 3 calls ends the objective. */
const CRITICAL_REPEATS: Readonly<Record<number, number>> = { 1: 30, 2: 15, 3: 10 };
/** The dominant-call check: of the last 15 calls, at least 70 % the same. */
const DOMINANT_WINDOW = 15;
const DOMINANT_PERCENT = 70;

/** A call's signature: `tool:{"ref":"n2"}`, its arguments in key order and without its reasoning. */
export function signatureOf(tool: string, args: Record<string, unknown>): string {
  const kept = Object.keys(args)
    .filter((key) => !ANALYSIS_ARGS.has(key))
    .sort()
    .map((key) => [key, args[key]]);
  return `${tool}:${JSON.stringify(Object.fromEntries(kept))}`;
}

const toolOf = (signature: string) => signature.slice(0, signature.indexOf(":"));

interface StuckHint {
  /** `critical`: the objective ends; `warning`: the next request says so. */
  level: "warning" | "critical";
  message: string;
}

/** A loop at the end of `signatures` (the shortest cycle of 1–3 calls repeated at least twice), or one call that dominates the last 15. */
export function stuckHint(signatures: readonly string[]): StuckHint | undefined {
  for (let length = 1; length <= 3; length++) {
    if (signatures.length < length * 2) continue;
    const tail = signatures.slice(-length);
    let repeats = 1;
    for (let at = signatures.length - length * 2; at >= 0; at -= length) {
      if (signatures.slice(at, at + length).every((s, i) => s === tail[i])) repeats++;
      else break;
    }
    if (repeats < 2) continue;
    const level = repeats >= CRITICAL_REPEATS[length]! ? "critical" : "warning";
    if (length === 1) {
      const tool = toolOf(tail[0]!);
      return {
        level,
        message:
          level === "warning"
            ? `You called ${tool} with the same arguments ${repeats} times in a row, and it is not getting anywhere. Try another action or another way to reach the objective.`
            : `${tool} was called with the same arguments ${repeats} times in a row without progress.`,
      };
    }
    const cycle = tail.map((s) => toolOf(s)).join(" → ");
    return {
      level,
      message:
        level === "warning"
          ? `You went through the same ${length} calls (${cycle}) ${repeats} times: they undo each other or come back to the same screen. Try a different approach.`
          : `the same ${length} calls (${cycle}) were repeated ${repeats} times without progress.`,
    };
  }
  if (signatures.length < DOMINANT_WINDOW) return undefined;
  const window = signatures.slice(-DOMINANT_WINDOW);
  const counts = new Map<string, number>();
  for (const s of window) counts.set(s, (counts.get(s) ?? 0) + 1);
  const [dominant, count] = [...counts].reduce((best, next) => (next[1] > best[1] ? next : best));
  if (count * 100 < DOMINANT_WINDOW * DOMINANT_PERCENT) return undefined;
  return {
    level: "warning",
    message: `${toolOf(dominant)} was ${count} of your last ${DOMINANT_WINDOW} calls, with no visible progress; the calls in between did not change that. Try a different approach (another tool, another direction). If the objective cannot be reached from this screen, call objectiveStatus FAILED and say what is missing.`,
  };
}
