// Bounded waits used by the shutdown escalation.

/** Whether `promise` settles within `ms`. The timer is unref'd: while we wait, the child's own handle keeps the loop alive. */
export function waitFor(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref?.();
  });
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Polls `done` every 25 ms for up to `ms`; whether it became true. These timers stay ref'd: once the
 * leader has exited nothing else may keep the event loop alive, and under Node an awaited close()
 * (e.g. `await using` at top level) would otherwise be abandoned mid-way (exit code 13).
 */
export async function pollUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    await new Promise<void>((resolve) => setTimeout(resolve, 25));
    if (done()) return true;
  }
  return done();
}
