// Linux /proc readings for the process-level scenarios: CPU time, a process tree's resident
// memory, and the processes that survive a run.

import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { procCmdline, procPids, procStat } from "../src/transports/stdio/proc.ts";

const PAGE_BYTES = 4096;
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

const ticksToMs = (ticks: number) => (ticks * 1000) / CLOCK_TICKS;

/** CPU time (user + system) a live process has used so far, in ms (10 ms resolution); 0 once it is gone. */
export function cpuMs(pid: number): number {
  const stat = procStat(pid);
  return stat ? ticksToMs(stat.utime + stat.stime) : 0;
}

/** CPU time a live process has spent running so far, in ms, from /proc/<pid>/schedstat (ns resolution); 0 once it is gone. */
export function runMs(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return 0;
  }
}

/**
 * CPU used on the whole machine (user, nice, system, irq, softirq; not idle, iowait or steal), by
 * this process's tree (itself, its live descendants, and everything they reaped), and taken by the
 * hypervisor (steal), in ms. Between two snapshots, the machine's delta minus ours is what other
 * processes used meanwhile.
 */
export function cpuSnapshot(): { machineMs: number; oursMs: number; stealMs: number } {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields as [number, number, number, number, number, number, number, number];
  let oursTicks = 0;
  for (const pid of processTree(process.pid)) {
    const stat = procStat(pid);
    if (stat) oursTicks += stat.utime + stat.stime + stat.cutime + stat.cstime;
  }
  return { machineMs: ticksToMs(user + nice + system + irq + softirq), oursMs: ticksToMs(oursTicks), stealMs: ticksToMs(steal) };
}

/** CPU time of this process's children that have exited and been waited for, and of theirs, in ms. */
export function reapedChildrenCpuMs(): number {
  const stat = procStat("self")!;
  return ticksToMs(stat.cutime + stat.cstime);
}

interface ProcInfo {
  pid: number;
  ppid: number;
  state: string;
}

function allProcesses(): ProcInfo[] {
  return procPids().flatMap((pid) => {
    const stat = procStat(pid);
    return stat ? [{ pid, ppid: stat.ppid, state: stat.state }] : [];
  });
}

/** Live (non-zombie) processes of the tree rooted at `root`, root included. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const proc of allProcesses()) {
    if (proc.state === "Z") continue;
    children.set(proc.ppid, [...(children.get(proc.ppid) ?? []), proc.pid]);
  }
  const tree: number[] = [];
  for (const queue = [root]; queue.length > 0; ) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** Resident bytes of one process (0 once it is gone). */
export function rssBytes(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/** Live (non-zombie) processes whose command line contains `needle`, as `pid command line`. */
export function processesMatching(needle: string): string[] {
  const found: string[] = [];
  for (const proc of allProcesses()) {
    if (proc.state === "Z" || proc.pid === process.pid) continue;
    const cmdline = procCmdline(proc.pid)?.replaceAll("\0", " ").trim();
    if (cmdline?.includes(needle)) found.push(`${proc.pid} ${cmdline}`);
  }
  return found;
}

/** Proportional set size of one process (shared pages split among their users), in bytes; 0 once it is gone. */
export function pssBytes(pid: number): number {
  try {
    const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** A process's own peak RSS so far (VmHWM), in bytes; 0 once it is gone. */
export function peakRssBytes(pid: number): number {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export interface TreePeak {
  /** Largest sum of RSS over the tree's processes seen in one sample (shared pages count once per process). */
  treeBytes: number;
  /** Largest sum of PSS over the tree (shared pages split), sampled every fifth time: it costs ~0.4 ms a process. */
  treePssBytes: number;
  /** Most processes in the tree at once. */
  processes: number;
  /** The root process's own peak RSS (VmHWM), as last seen. */
  rootBytes: number;
  /** The root process's own CPU time, as last seen (ms). */
  rootCpuMs: number;
}

/** Samples the tree rooted at `root` every `intervalMs` until stopped. */
export function sampleTree(root: number, intervalMs = 100): { stop(): TreePeak } {
  const peak: TreePeak = { treeBytes: 0, treePssBytes: 0, processes: 0, rootBytes: 0, rootCpuMs: 0 };
  let samples = 0;
  const sample = () => {
    const tree = processTree(root);
    if (samples++ % 5 === 0)
      peak.treePssBytes = Math.max(
        peak.treePssBytes,
        tree.reduce((sum, pid) => sum + pssBytes(pid), 0),
      );
    peak.processes = Math.max(peak.processes, tree.length);
    peak.treeBytes = Math.max(
      peak.treeBytes,
      tree.reduce((sum, pid) => sum + rssBytes(pid), 0),
    );
    peak.rootBytes = Math.max(peak.rootBytes, peakRssBytes(root));
    peak.rootCpuMs = Math.max(peak.rootCpuMs, cpuMs(root));
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** One thread of a process as /proc/<pid>/task/<tid>/stat last showed it. */
export interface ThreadCpu {
  tid: number;
  /** The thread's name (`comm`): `bun` for the main thread and for worker threads, `JITWorker`, `HeapHelper`, … */
  name: string;
  /** User + system CPU time, ms (10 ms resolution). */
  cpuMs: number;
}

/** Every thread of `pid` now, with its CPU so far; empty once the process is gone. */
export function threadsOf(pid: number): ThreadCpu[] {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tids.flatMap((tid) => {
    try {
      const text = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const close = text.lastIndexOf(")");
      const fields = text.slice(close + 2).split(" ");
      return [
        { tid: Number(tid), name: text.slice(text.indexOf("(") + 1, close), cpuMs: ticksToMs(Number(fields[11]) + Number(fields[12])) },
      ];
    } catch {
      return []; // the thread ended between the listing and the read
    }
  });
}

export interface ThreadsSeen {
  /** Each thread the process ever had, with the CPU it had used when last seen. */
  threads: ThreadCpu[];
  /** The process's peak RSS (VmHWM) as last seen, bytes. */
  peakRssBytes: number;
}

/**
 * Samples the threads of `pid` every `intervalMs` until stopped: the CPU of each thread (one that
 * ended keeps its last reading) and the process's peak RSS. What a thread used after the last
 * sample before the process exited is not counted (at most one interval's worth).
 */
export function sampleThreads(pid: number, intervalMs = 20): { stop(): ThreadsSeen } {
  const seen = new Map<number, ThreadCpu>();
  let peakRss = 0;
  const sample = () => {
    for (const thread of threadsOf(pid)) seen.set(thread.tid, thread);
    peakRss = Math.max(peakRss, peakRssBytes(pid));
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return { threads: [...seen.values()], peakRssBytes: peakRss };
    },
  };
}
