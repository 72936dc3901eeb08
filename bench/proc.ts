// Linux /proc readings for the process-level scenarios: a process tree's resident memory and the
// processes that survive a run.

import { readdirSync, readFileSync } from "node:fs";

const PAGE_BYTES = 4096;

interface ProcInfo {
  pid: number;
  ppid: number;
  state: string;
}

function readProc(pid: number): ProcInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { pid, ppid: Number(fields[1]), state: fields[0]! };
  } catch {
    return undefined; // exited while we looked
  }
}

function allProcesses(): ProcInfo[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => readProc(Number(entry)) ?? []);
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
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${proc.pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
    } catch {
      continue;
    }
    if (cmdline.includes(needle)) found.push(`${proc.pid} ${cmdline}`);
  }
  return found;
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
  /** Most processes in the tree at once. */
  processes: number;
  /** The root process's own peak RSS (VmHWM), as last seen. */
  rootBytes: number;
}

/** Samples the tree rooted at `root` every `intervalMs` until stopped. */
export function sampleTree(root: number, intervalMs = 100): { stop(): TreePeak } {
  const peak: TreePeak = { treeBytes: 0, processes: 0, rootBytes: 0 };
  const sample = () => {
    const tree = processTree(root);
    peak.processes = Math.max(peak.processes, tree.length);
    peak.treeBytes = Math.max(peak.treeBytes, tree.reduce((sum, pid) => sum + rssBytes(pid), 0));
    peak.rootBytes = Math.max(peak.rootBytes, peakRssBytes(root));
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
