// One watcher per process that stops every server process group still open if this process dies
// without closing them (SIGKILL, a crash of the runtime itself): no exit handler runs then, but
// the kernel still closes our end of the watcher's FIFO, and EOF is its cue.

import { spawnSync } from "node:child_process";
import { constants, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Reads `+<pgid>` (arm) and `-<pgid>` (disarm) lines; at EOF sends SIGTERM to every armed group,
 * waits up to `$2` tenths of a second for them to go, then SIGKILL. Shell builtins only while it
 * waits, so it is one small `sh` process.
 */
const WATCH = [
  'groups=""',
  "while read -r line; do",
  '  case "$line" in',
  '    +*) groups="$groups ${line#+}" ;;',
  '    -*) kept=""; for g in $groups; do [ "$g" = "${line#-}" ] || kept="$kept $g"; done; groups="$kept" ;;',
  "  esac",
  "done",
  '[ -n "$groups" ] || exit 0',
  'for g in $groups; do kill -TERM "-$g" 2>/dev/null; done',
  'n="$2"',
  'while [ "$n" -gt 0 ]; do',
  '  alive=""; for g in $groups; do kill -0 "-$g" 2>/dev/null && alive=1; done',
  '  [ -n "$alive" ] || exit 0',
  "  sleep 0.1; n=$((n - 1))",
  "done",
  'for g in $groups; do kill -KILL "-$g" 2>/dev/null; done',
].join("\n");

/**
 * `$1` is a FIFO path. The watcher runs as a background subshell, so it is re-parented at once
 * and never shows up among this process's children (whose exit would also close a plain pipe).
 * It ignores SIGINT and SIGHUP: a Ctrl-C or a closed terminal is for this process to handle.
 */
const LAUNCH = `mkfifo -m 600 "$1" || exit 1\n( trap '' INT HUP; exec <"$1"; rm -f "$1"\n${WATCH}\n) >/dev/null 2>&1 &`;

let fifo: number | undefined;
let unavailable = process.platform === "win32";

function watcher(termExitMs: number): number | undefined {
  if (fifo !== undefined || unavailable) return fifo;
  unavailable = true;
  const path = join(
    tmpdir(),
    `trailblaze-sentinel-${process.pid}-${Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString("hex")}`,
  );
  const tenths = String(Math.max(1, Math.ceil(termExitMs / 100)));
  const launched = spawnSync("/bin/sh", ["-c", LAUNCH, `trailblaze-sentinel-${process.pid}`, path, tenths], { stdio: "ignore" });
  if (launched.status !== 0) return undefined;
  // Non-blocking: ENXIO until the watcher has opened its end (a blocking open could hang forever).
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      fifo = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      unavailable = false;
      return fifo;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENXIO") break;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
  rmSync(path, { force: true });
  return undefined;
}

function send(line: string): void {
  if (fifo === undefined) return;
  try {
    writeSync(fifo, line);
  } catch {
    // The watcher is gone: nothing more to tell it.
    fifo = undefined;
  }
}

/**
 * Arms the watcher for group `pgid` (started on first use; `termExitMs` is its SIGTERM → SIGKILL
 * wait). Holds no handle that keeps the event loop alive; a no-op where there is no POSIX shell.
 */
export function armSentinel(pgid: number, termExitMs: number): void {
  if (watcher(termExitMs) !== undefined) send(`+${pgid}\n`);
}

/**
 * The watcher's FIFO (started now if it was not, `termExitMs` its SIGTERM → SIGKILL wait), for
 * this process's worker threads to write to (adoptSentinel): one watcher per process, whichever
 * thread spawns; undefined where there is none.
 */
export function sentinelFifo(termExitMs: number): number | undefined {
  return watcher(termExitMs);
}

/**
 * This thread tells the watcher behind `fd` (another thread's of this process: the descriptor is
 * the process's) instead of starting a watcher of its own, which would outlive the thread.
 */
export function adoptSentinel(fd: number): void {
  fifo = fd;
  unavailable = false;
}

/** The group is gone (or being stopped by us): the watcher forgets it. */
export function disarmSentinel(pgid: number): void {
  send(`-${pgid}\n`);
}
