// Process-wide safety net: every open session is tracked so SIGINT/SIGTERM/SIGHUP, an
// uncaught exception or unhandled rejection (in the CLI process), or a bare process.exit()
// still stops every server it started, and the browser — no child outlives the CLI.

import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { signalGroup } from "../transports/stdio/process-group.ts";
import { closeSharedBrowser, sharedBrowserPid } from "../browser/chromium-browser.ts";

interface Closeable {
  close(): Promise<void>;
  /** Process ids of the session's running servers (each leads its own process group). */
  runningPids?(): number[];
}

const open = new Set<Closeable>();
const interruptHooks = new Set<(signal: NodeJS.Signals) => void | Promise<void>>();
let installed = false;
let interrupted = false;
let crashReaperInstalled = false;
let crashing = false;

async function closeAll(): Promise<void> {
  await Promise.allSettled([...open].map((s) => s.close()));
  // Sessions close their browser contexts first; the browser itself goes last.
  await closeSharedBrowser();
}

function install(): void {
  if (installed) return;
  installed = true;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      if (interrupted) return; // a second Ctrl-C while reaping changes nothing
      interrupted = true;
      void (async () => {
        await Promise.allSettled([...interruptHooks].map((hook) => hook(signal)));
        await closeAll();
        process.exit(signal === "SIGINT" ? 130 : 143);
      })();
    });
  }
  // Last resort when the process exits with sessions still open (process.exit() from anywhere):
  // exit handlers cannot wait, so the servers' process groups are killed outright.
  process.on("exit", () => {
    const browser = sharedBrowserPid();
    if (browser !== undefined) {
      try {
        signalGroup(browser, "SIGKILL");
      } catch {
        // gone already
      }
    }
    for (const session of open) {
      for (const pid of session.runningPids?.() ?? []) {
        try {
          signalGroup(pid, "SIGKILL");
        } catch {
          // EPERM: not ours any more
        }
      }
    }
  });
  if (isCliProcess()) reapOnCrash();
}

/** Whether this process was started as the trailblaze CLI (not a library user or a test runner). */
function isCliProcess(): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    const started = realpathSync(entry);
    return ["./main.ts", "./cli.ts"].some((file) => started === realpathSync(fileURLToPath(new URL(file, import.meta.url))));
  } catch {
    return false;
  }
}

/**
 * Makes an uncaught exception or unhandled rejection close every tracked session (with the
 * usual grace and escalation) before the process exits with code 1; by default the process would
 * die at once and leave servers behind. Installed automatically in the CLI process; programs that
 * embed sessions may call it themselves. Idempotent.
 */
export function reapOnCrash(): void {
  if (crashReaperInstalled) return;
  crashReaperInstalled = true;
  const crash = (error: unknown) => {
    if (crashing) return;
    crashing = true;
    process.stderr.write(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    void closeAll().finally(() => process.exit(1));
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
}

/** Tracks an open session until the returned function is called after its `close()`. */
export function track(session: Closeable): () => void {
  install();
  open.add(session);
  return () => void open.delete(session);
}

/** Runs before sessions are closed on an interrupt (e.g. to write a partial report). */
export function onInterrupt(hook: (signal: NodeJS.Signals) => void | Promise<void>): () => void {
  install();
  interruptHooks.add(hook);
  return () => interruptHooks.delete(hook);
}

/** Closes whatever is still open; used on the CLI's crash path. */
export function reapAll(): Promise<void> {
  return closeAll();
}
