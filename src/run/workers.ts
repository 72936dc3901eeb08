// A small worker pool: runs tasks with at most N in flight, results in input order.

/**
 * Runs `task` over `items` with at most `workers` running at once. Items start
 * in order; results keep the input order whatever order tasks finish in. A task
 * that throws rejects the whole pool after the tasks already running settle.
 * @param workers most tasks in flight; values below 1 count as 1
 */
export async function runPool<T, R>(items: readonly T[], workers: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failure) {
      const index = next++;
      try {
        results[index] = await task(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(workers, items.length)) }, worker));
  if (failure) throw failure.error;
  return results;
}
