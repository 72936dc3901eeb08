// Explains why a server process could not be started: which input was wrong and how to fix it.

import { statSync } from "node:fs";
import { SpawnError } from "../../errors.ts";

/** A {@link SpawnError} for a failed `spawn(command, …, { cwd })` of MCP server `name`. */
export function spawnError(name: string, { command, cwd }: { command: string; cwd: string }, error: unknown): SpawnError {
  const code = (error as NodeJS.ErrnoException).code;
  const what = `Cannot start MCP server ${name}: `;
  // A missing cwd also reports ENOENT, naming the command: check the folder first.
  if (!isDirectory(cwd)) {
    return new SpawnError(`${what}working directory ${cwd} does not exist or is not a directory; check the server's path`, {
      cause: error,
    });
  }
  if (code === "ENOENT") {
    return new SpawnError(`${what}${command} was not found (ENOENT); install it or put it on PATH`, { cause: error });
  }
  if (code === "EACCES") {
    return new SpawnError(`${what}${command} is not executable (EACCES); fix its permissions (chmod +x) or use another runtime`, {
      cause: error,
    });
  }
  return new SpawnError(`${what}spawning ${command} failed: ${(error as Error).message}`, { cause: error });
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
