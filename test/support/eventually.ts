// Waiting for something a test can observe (a line a server wrote, a process gone) instead of
// sleeping a fixed time: polls until it holds, and says whether it did before the limit.

/** Polls `check` every 50 ms until it is true or `ms` passed; whether it became true. */
export async function eventually(check: () => boolean, ms = 5000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await Bun.sleep(50);
  }
  return true;
}
