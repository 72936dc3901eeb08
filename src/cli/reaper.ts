// Process-wide safety net: every open session is tracked so SIGINT/SIGTERM (or
// a crash path) closes them all — no child outlives the CLI — then exits 130/143.

interface Closeable {
  close(): Promise<void>;
}

const open = new Set<Closeable>();
const interruptHooks = new Set<(signal: NodeJS.Signals) => void | Promise<void>>();
let installed = false;
let interrupted = false;

async function closeAll(): Promise<void> {
  await Promise.allSettled([...open].map((s) => s.close()));
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
