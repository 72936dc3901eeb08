// Summary statistics for benchmark samples. Ratios are paired: repetition i of "ours" is divided
// by repetition i of its baseline (measured right next to it), then the ratios are summarised, so
// drift in machine load between repetitions cancels instead of skewing one side.

export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error("median of no samples");
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summarize(values: readonly number[]): Summary {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

/** ours_i / baseline_i for every repetition i. */
export function pairedRatios(ours: readonly number[], baseline: readonly number[]): number[] {
  if (ours.length !== baseline.length) throw new Error(`unpaired samples: ${ours.length} vs ${baseline.length}`);
  return ours.map((value, i) => value / baseline[i]!);
}
