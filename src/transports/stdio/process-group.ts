// Signals and liveness of a whole process group (a child spawned with `detached: true` leads its own).

import { readdirSync, readFileSync } from "node:fs";

/** Sends `signal` to every process in group `pgid`; false if the group no longer exists (ESRCH). */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw error;
  }
}

/**
 * Whether any process of group `pgid` is still running. Zombies do not count: when an orphan's
 * new parent never reaps it (a container whose PID 1 is not an init), `kill(-pgid, 0)` keeps
 * succeeding for a process that is already dead, so on Linux the group is confirmed from /proc.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== "linux") return true;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") return true;
  }
  return false;
}

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

/** State letter and process group from /proc/<pid>/stat (fields 3 and 5; the name may hold spaces). */
function procStat(pid: number): { state: string; pgrp: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0];
  const pgrp = Number(fields[2]);
  return state === undefined || Number.isNaN(pgrp) ? undefined : { state, pgrp };
}
