// Keeps a long run's memory where its first trails left it. Each trail leaves garbage that lives as
// long as the trail (its session, registry, calls), long enough to reach the old generation, and
// JavaScriptCore counts every QuickJS instance's WebAssembly memory (16 MiB or more each, mostly
// never touched) in the heap size it paces its full collections by, so it lets that garbage pile
// up: 500 on-device sessions in one thread took it from 120 to 600 MiB, 150 MiB after a full
// collection. Once the process has grown by `growthBytes` since the pacer last looked, the thread
// that ends a trail collects (a full collection, ~20-80 ms), so the peak follows the threads and
// their sessions, not the trails run. Each run thread has one, and the main thread, which gets
// their events and keeps the reports.

interface MemoryPacerOptions {
  /** Trails that end before the first reading: the run's set-up and warm-up are not garbage. Default 20. */
  warmupTrails?: number;
  /** Growth of the process's resident memory since the last reading that calls for a collection, in bytes. Default 16 MiB. */
  growthBytes?: number;
  /** The process's resident memory now, in bytes. Default: process.memoryUsage.rss(). */
  rss?: () => number;
  /** A full, synchronous collection of this thread's heap. Default: Bun.gc(true). */
  collect?: () => void;
}

const MIB = 2 ** 20;

export class MemoryPacer {
  readonly #warmupTrails: number;
  readonly #growthBytes: number;
  readonly #rss: () => number;
  readonly #collect: () => void;
  #ended = 0;
  /** The resident memory after the warm-up or the last collection. */
  #mark: number | undefined;
  /** Collections made so far. */
  collections = 0;

  constructor(options: MemoryPacerOptions = {}) {
    this.#warmupTrails = options.warmupTrails ?? 20;
    this.#growthBytes = options.growthBytes ?? 16 * MIB;
    this.#rss = options.rss ?? (() => process.memoryUsage.rss());
    this.#collect = options.collect ?? (() => Bun.gc(true));
  }

  /** A trail ended on this thread: collects when the process grew by growthBytes since the last mark. */
  trailEnded(): void {
    if (++this.#ended < this.#warmupTrails) return;
    const rss = this.#rss();
    if (this.#mark === undefined) {
      this.#mark = rss;
      return;
    }
    if (rss - this.#mark < this.#growthBytes) return;
    this.#collect();
    this.collections++;
    // Memory that stays after a collection is the run's (another thread's garbage, reports): the next mark.
    this.#mark = this.#rss();
  }
}
