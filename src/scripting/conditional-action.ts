// Upstream's ConditionalAction primitive: a catalog of "if condition then action, then verify
// postcondition" entries evaluated against one captured ViewHierarchy. An entry whose
// postcondition already holds is skipped; the others whose condition holds run in order, each
// verified against a fresh capture. Any failure is a ConditionalActionFailedError naming the entry.

import type { TrailblazeClient } from "./client.ts";
import { reCaptureViewHierarchy, type ViewHierarchy } from "./view-hierarchy.ts";

export interface ConditionalAction {
  /** Stable id, in `handled` and in errors (uniqueness is the catalog's job). */
  readonly id: string;
  readonly description: string;
  /** Pure predicate on the snapshot: true when the entry applies. */
  readonly condition: (snap: ViewHierarchy) => boolean;
  /** The work, closing over the tool's ctx / client. */
  readonly action: () => Promise<void>;
  /** Before the action: already true skips the entry; after it: must be true. */
  readonly postcondition?: (snap: ViewHierarchy) => boolean;
}

/** An entry failed: its predicate threw, its action threw, or its postcondition was false after the action (`cause` null). */
export class ConditionalActionFailedError extends Error {
  readonly conditionalActionId: string;
  override readonly cause: unknown;
  constructor(conditionalActionId: string, message: string, cause: unknown = null) {
    super(message);
    this.name = "ConditionalActionFailedError";
    this.conditionalActionId = conditionalActionId;
    this.cause = cause;
  }
}

const describeEntry = (c: ConditionalAction) => (c.description ? `conditional "${c.id}" (${c.description})` : `conditional "${c.id}"`);
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

function evaluate(c: ConditionalAction, which: "condition" | "postcondition", snap: ViewHierarchy): boolean {
  const predicate = c[which];
  if (!predicate) return false;
  try {
    return Boolean(predicate(snap));
  } catch (e) {
    throw new ConditionalActionFailedError(c.id, `${which} predicate threw for ${describeEntry(c)}: ${messageOf(e)}`, e);
  }
}

/**
 * Runs the entries of `conditionalActions` that apply to `presnapshot` (from captureViewHierarchy)
 * and resolves with their ids. Rejects with ConditionalActionFailedError when an entry fails, and
 * with an Error when entries are given without a snapshot (there is no automatic capture).
 */
export async function runConditionalActions(
  client: TrailblazeClient,
  conditionalActions: readonly ConditionalAction[],
  presnapshot?: ViewHierarchy,
): Promise<{ handled: string[] }> {
  if (conditionalActions.length === 0) return { handled: [] };
  if (!presnapshot) {
    throw new Error(
      "runConditionalActions: no presnapshot given. Capture one first: const snap = await captureViewHierarchy(client, [...selectors]); then runConditionalActions(client, conditionalActions, snap).",
    );
  }
  const applicable = conditionalActions.filter((c) => !evaluate(c, "postcondition", presnapshot) && evaluate(c, "condition", presnapshot));
  const handled: string[] = [];
  for (const c of applicable) {
    try {
      await c.action();
    } catch (e) {
      if (e instanceof ConditionalActionFailedError) throw e;
      throw new ConditionalActionFailedError(c.id, `action threw for ${describeEntry(c)}: ${messageOf(e)}`, e);
    }
    if (c.postcondition && !evaluate(c, "postcondition", await reCaptureViewHierarchy(client, presnapshot))) {
      throw new ConditionalActionFailedError(c.id, `postcondition not satisfied after action for ${describeEntry(c)}`);
    }
    handled.push(c.id);
  }
  return { handled };
}
