// The stderr logs the stdio transport keeps per server in the session's logs
// folder: the tail shown with a failing call, and masking secrets out of them.

import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { logLabel } from "../servers/stdio-launcher.ts";
import type { Memory } from "../session/memory.ts";

export function stderrLogFile(logsDir: string, source: string): string {
  return join(logsDir, `subprocess_stderr_${logLabel(source)}.log`);
}

/**
 * The last `lines` non-empty lines server `source` wrote to stderr, secrets
 * masked; empty when it wrote none (or has no log file, e.g. a built-in).
 * @param lines most lines returned; default 8
 */
export async function stderrTail(logsDir: string, source: string, memory: Memory, lines = 8): Promise<string[]> {
  const text = await readFile(stderrLogFile(logsDir, source), "utf8").catch(() => "");
  return text.split("\n").filter((l) => l.trim() !== "").slice(-lines).map((l) => memory.mask(l));
}

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
