// Signals and liveness of a whole process group (a child spawned with `detached: true` leads its own),
// and of a server's descendants that left the group.

import { procPids, procStat } from "./proc.ts";

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
  for (const entry of procPids()) {
    const stat = procStat(entry);
    if (stat && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") return true;
  }
  return false;
}

/** A process as seen at one moment: its pid plus its start time, so a later signal never hits a reused pid. */
export interface ProcessIdentity {
  pid: number;
  /** Clock ticks after boot (/proc/<pid>/stat field 22). */
  startTime: number;
}

/**
 * Every live descendant of `pid` (children, grandchildren…), whatever their process group: a
 * helper that called setsid() or was spawned `detached` escapes a group signal, but is still in
 * the tree while its parent lives. Linux only (reads /proc); elsewhere an empty list.
 */
export function descendants(pid: number): ProcessIdentity[] {
  if (process.platform !== "linux") return [];
  const children = new Map<number, ProcessIdentity[]>();
  for (const entry of procPids()) {
    const stat = procStat(entry);
    if (!stat || stat.state === "Z" || stat.state === "X") continue;
    const list = children.get(stat.ppid) ?? [];
    list.push({ pid: entry, startTime: stat.startTime });
    children.set(stat.ppid, list);
  }
  const found: ProcessIdentity[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const child of children.get(next) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}

/** Whether the process seen as `who` still runs (same pid and start time, not a zombie). */
export function identityAlive(who: ProcessIdentity): boolean {
  const stat = procStat(who.pid);
  return stat !== undefined && stat.startTime === who.startTime && stat.state !== "Z" && stat.state !== "X";
}

/** Sends `signal` to `who` if it is still that process; whether it was sent. */
export function signalIdentity(who: ProcessIdentity, signal: NodeJS.Signals): boolean {
  if (!identityAlive(who)) return false;
  try {
    process.kill(who.pid, signal);
    return true;
  } catch {
    return false;
  }
}
