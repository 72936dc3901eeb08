// The process groups a run thread's sessions run now (script servers, its browser), in memory the
// thread shares with the main thread: the thread writes the list as sessions start and end, and
// the main thread reads it without asking, when it can no longer ask: on exit (the reaper kills
// what is left) and when the thread died.

/** Process groups one thread may list at once; more are left to the group sentinel, which stops them when the process exits. */
const SLOTS = 1024;

/** A table to share with one thread. */
export function newPidTable(): SharedArrayBuffer {
  return new SharedArrayBuffer((SLOTS + 1) * Int32Array.BYTES_PER_ELEMENT);
}

/** Writes `pids` as the thread's list (the first SLOTS of them). */
export function writePids(table: SharedArrayBuffer, pids: readonly number[]): void {
  const view = new Int32Array(table);
  const count = Math.min(pids.length, SLOTS);
  Atomics.store(view, 0, 0);
  for (let i = 0; i < count; i++) Atomics.store(view, i + 1, pids[i]!);
  Atomics.store(view, 0, count);
}

/** The thread's list as last written. */
export function readPids(table: SharedArrayBuffer): number[] {
  const view = new Int32Array(table);
  const count = Math.min(Atomics.load(view, 0), SLOTS);
  return Array.from({ length: count }, (_, i) => Atomics.load(view, i + 1)).filter((pid) => pid > 0);
}
