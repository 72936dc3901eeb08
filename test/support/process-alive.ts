// Whether a process runs, for the tests' checks that no process outlives its session (the runtime
// itself watches whole groups and descendants: src/transports/stdio/process-group.ts).

import { procStat } from "../../src/transports/stdio/proc.ts";

/** Whether process `pid` exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
  if (process.platform !== "linux") return true;
  const stat = procStat(pid);
  return stat === undefined ? false : stat.state !== "Z" && stat.state !== "X";
}
