// `captureViewHierarchy(client, selectors)`: upstream's synchronous snapshot of the screen for a
// declared list of selectors. Each selector is resolved once through the session's `findMatches`
// (in parallel); `visible` / `find` / `findAll` then answer from those matches without another
// call, and a selector that was not declared throws. On the simulated device the matches come
// from the loaded screen; with none loaded, capturing fails and says so.

import type { TrailblazeClient } from "./client.ts";
import type { MatchDescriptor, TrailblazeNodeSelector } from "./selectors.ts";

/** A captured snapshot, queried synchronously (e.g. in a ConditionalAction's predicates). */
export interface ViewHierarchy {
  /** Whether at least one node matches `selector`. */
  visible(selector: TrailblazeNodeSelector): boolean;
  /** The first node `selector` matches, or null. */
  find(selector: TrailblazeNodeSelector): MatchDescriptor | null;
  /** Every node `selector` matches (a copy). */
  findAll(selector: TrailblazeNodeSelector): MatchDescriptor[];
}

const SELECTORS = Symbol("trailblaze.viewHierarchy.selectors");

interface Captured extends ViewHierarchy {
  [SELECTORS]: readonly TrailblazeNodeSelector[];
}

const keyOf = (selector: TrailblazeNodeSelector) => JSON.stringify(selector);

/** `findMatches`' answer as a list: upstream's array, or our structured `{ kind, nodeIds, matches }`. */
function matchesOf(answer: unknown, selector: TrailblazeNodeSelector): MatchDescriptor[] {
  if (Array.isArray(answer)) return answer as MatchDescriptor[];
  if (typeof answer === "object" && answer !== null && Array.isArray((answer as { matches?: unknown }).matches)) {
    return (answer as { matches: MatchDescriptor[] }).matches;
  }
  if (typeof answer === "string" && /no screen loaded/.test(answer)) {
    throw new Error(
      `captureViewHierarchy: no view hierarchy to capture for ${keyOf(selector)}: the simulated device has no screen loaded (findMatches was unverified); give it one (--capture FILE, or --map DIR --start WAYPOINT_ID)`,
    );
  }
  const said = typeof answer === "string" ? `"${answer}"` : JSON.stringify(answer);
  throw new Error(`captureViewHierarchy: findMatches answered ${said} for ${keyOf(selector)}, not a list of matches`);
}

function snapshot(resolved: Map<string, MatchDescriptor[]>, selectors: readonly TrailblazeNodeSelector[]): Captured {
  const matchesFor = (selector: TrailblazeNodeSelector) => {
    const found = resolved.get(keyOf(selector));
    if (!found) {
      throw new Error(
        `ViewHierarchy: selector ${keyOf(selector)} was not pre-resolved. Add it to the selectors list passed to captureViewHierarchy(client, [...]).`,
      );
    }
    return found;
  };
  return {
    visible: (selector) => matchesFor(selector).length > 0,
    find: (selector) => matchesFor(selector)[0] ?? null,
    findAll: (selector) => matchesFor(selector).slice(),
    [SELECTORS]: selectors,
  };
}

/**
 * Resolves each of `selectors` with `client.tools.findMatches({ selector })` and returns the
 * snapshot. Rejects when a findMatches call fails or gives no list of matches (no screen loaded).
 */
export async function captureViewHierarchy(client: TrailblazeClient, selectors: readonly TrailblazeNodeSelector[]): Promise<ViewHierarchy> {
  const owned = selectors.slice();
  // Typed by TrailblazeToolMap once a client is generated: read as a plain map here.
  const tools = client.tools as unknown as Record<string, (args: Record<string, unknown>) => Promise<unknown>>;
  const entries = await Promise.all(
    owned.map(async (selector) => [keyOf(selector), matchesOf(await tools.findMatches!({ selector }), selector)] as const),
  );
  return snapshot(new Map(entries), owned);
}

/** A fresh snapshot for the selectors `base` was captured with (used after a ConditionalAction's action). */
export async function reCaptureViewHierarchy(client: TrailblazeClient, base: ViewHierarchy): Promise<ViewHierarchy> {
  const selectors = (base as Partial<Captured>)[SELECTORS];
  if (!selectors) {
    throw new Error(
      "reCaptureViewHierarchy: cannot refresh this snapshot — it wasn't built via captureViewHierarchy(). Build it with captureViewHierarchy(client, [...selectors]) so it can be refreshed, or give the entry no postcondition.",
    );
  }
  return captureViewHierarchy(client, selectors);
}
