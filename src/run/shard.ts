// `--shard I/N`: a deterministic slice of the sorted trail list, so CI machines
// can split one suite between them (each runs the same command with its own I).

import { UsageError } from "../errors.ts";

export interface Shard {
  /** 1-based index of this slice. */
  index: number;
  /** Number of slices. */
  total: number;
}

export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(match?.[1]);
  const total = Number(match?.[2]);
  if (!match || total < 1 || index < 1 || index > total) {
    throw new UsageError(`run: --shard expects I/N with 1 <= I <= N (e.g. --shard 2/4), got "${text}"`);
  }
  return { index, total };
}

/**
 * The `shard.index`-th of `shard.total` contiguous slices of `items` sorted by
 * `key` (code-unit order, independent of locale). Slice sizes differ by at most
 * one, the larger ones first; together the slices hold every item exactly once.
 */
export function shardSlice<T>(items: readonly T[], shard: Shard, key: (item: T) => string): T[] {
  const sorted = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const base = Math.floor(sorted.length / shard.total);
  const extra = sorted.length % shard.total;
  const i = shard.index - 1;
  const start = i * base + Math.min(i, extra);
  const size = base + (i < extra ? 1 : 0);
  return sorted.slice(start, start + size);
}
