// Masking secrets out of the server logs in a session's logs folder (servers may print what
// they were given).

import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Memory } from "../session/memory.ts";

/** Rewrites every `*.log` in `logsDir` with secrets masked (servers may print what they were given). */
export async function maskServerLogs(logsDir: string, memory: Memory): Promise<void> {
  const names = await readdir(logsDir).catch(() => [] as string[]);
  await Promise.all(
    names.filter((n) => n.endsWith(".log")).map(async (name) => {
      const path = join(logsDir, name);
      const text = await readFile(path, "utf8").catch(() => undefined);
      if (text === undefined) return;
      const masked = memory.mask(text);
      if (masked !== text) await writeFile(path, masked);
    }),
  );
}
