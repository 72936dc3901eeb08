// Linux /proc readings, in one place: a process's stat fields, its command line, and the list of
// processes. Used by the process-group code, the tests' leak checks and the benchmark.

import { readdirSync, readFileSync } from "node:fs";

interface ProcStat {
  /** R, S, D, Z (zombie), X (dead), … */
  state: string;
  ppid: number;
  pgrp: number;
  /** Clock ticks after boot (field 22): with the pid, identifies one process across pid reuse. */
  startTime: number;
  /** CPU clock ticks: user and system time of the process, and of its reaped children. */
  utime: number;
  stime: number;
  cutime: number;
  cstime: number;
}

/** /proc/<pid>/stat parsed (the name, which may hold spaces, is skipped); undefined once it is gone. */
export function procStat(pid: number | "self"): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const [state, ppid, pgrp] = [fields[0], Number(fields[1]), Number(fields[2])];
  if (state === undefined || Number.isNaN(ppid) || Number.isNaN(pgrp)) return undefined;
  const number = (index: number) => Number(fields[index]);
  return { state, ppid, pgrp, startTime: number(19), utime: number(11), stime: number(12), cutime: number(13), cstime: number(14) };
}

/** The command line of `pid` as /proc holds it (each argument ends with "\0"); undefined once it is gone. */
export function procCmdline(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return undefined;
  }
}

/** Every process id in /proc (empty where there is no /proc). */
export function procPids(): number[] {
  try {
    return readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
}
