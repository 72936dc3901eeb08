// captureViewHierarchy and runConditionalActions with upstream's semantics, against a client whose
// findMatches answers from a screen the test changes: skips, failures and the errors they carry.

import { describe, expect, test } from "bun:test";
import { createClient } from "./client.ts";
import { ConditionalActionFailedError, runConditionalActions, type ConditionalAction } from "./conditional-action.ts";
import { selectors, type MatchDescriptor } from "./selectors.ts";
import { captureViewHierarchy } from "./view-hierarchy.ts";

const BANNER = selectors.web({ ariaRole: "button", ariaNameRegex: "Close" });
const OTHER = selectors.web({ ariaRole: "link" });

/** A client whose findMatches reads `screen` (selector key → matches) and counts its calls. */
function fakeDevice(screen: Map<string, MatchDescriptor[]>, answer?: unknown) {
  const calls: string[] = [];
  const client = createClient(async (name, args) => {
    calls.push(name);
    const matches = screen.get(JSON.stringify(args.selector)) ?? [];
    return {
      success: true,
      textContent: "",
      errorMessage: "",
      structuredContent: answer ?? { kind: matches.length ? "singleMatch" : "noMatch", nodeIds: [], matches },
    };
  });
  return { client, calls };
}

const shown = (): Map<string, MatchDescriptor[]> => new Map([[JSON.stringify(BANNER), [{ indexPath: [0, 2], matchedText: "Close" }]]]);

function closeBanner(screen: Map<string, MatchDescriptor[]>, overrides: Partial<ConditionalAction> = {}): ConditionalAction {
  return {
    id: "close-banner",
    description: "Close the banner",
    condition: (snap) => snap.visible(BANNER),
    action: async () => void screen.delete(JSON.stringify(BANNER)),
    postcondition: (snap) => !snap.visible(BANNER),
    ...overrides,
  };
}

describe("captureViewHierarchy", () => {
  test("answers visible/find/findAll from one findMatches per declared selector; an undeclared selector throws", async () => {
    const { client, calls } = fakeDevice(shown());
    const snap = await captureViewHierarchy(client, [BANNER, OTHER]);
    expect(calls).toEqual(["findMatches", "findMatches"]);
    expect(snap.visible(BANNER)).toBe(true);
    expect(snap.find(BANNER)).toEqual({ indexPath: [0, 2], matchedText: "Close" });
    expect(snap.find(OTHER)).toBeNull();
    expect(snap.findAll(OTHER)).toEqual([]);
    expect(() => snap.visible(selectors.web({ ariaRole: "heading" }))).toThrow(
      'ViewHierarchy: selector {"web":{"ariaRole":"heading"}} was not pre-resolved. Add it to the selectors list passed to captureViewHierarchy(client, [...]).',
    );
    expect(calls.length).toBe(2);
  });

  test("upstream's plain array answer is read as is; a text answer is an error", async () => {
    const array = fakeDevice(new Map(), [{ indexPath: [1] }]);
    expect((await captureViewHierarchy(array.client, [BANNER])).findAll(BANNER)).toEqual([{ indexPath: [1] }]);
    const text = createClient(async () => ({ success: true, textContent: "something else", errorMessage: "" }));
    expect(captureViewHierarchy(text, [BANNER])).rejects.toThrow(
      'captureViewHierarchy: findMatches answered "something else" for {"web":{"ariaRole":"button","ariaNameRegex":"Close"}}, not a list of matches',
    );
  });
});

describe("runConditionalActions", () => {
  test("runs an entry whose condition holds and verifies its postcondition on a fresh capture", async () => {
    const screen = shown();
    const { client, calls } = fakeDevice(screen);
    const snap = await captureViewHierarchy(client, [BANNER]);
    expect(await runConditionalActions(client, [closeBanner(screen)], snap)).toEqual({ handled: ["close-banner"] });
    expect(calls).toEqual(["findMatches", "findMatches"]);
  });

  test("skips an entry whose postcondition already holds or whose condition does not, without another call", async () => {
    const { client, calls } = fakeDevice(new Map());
    const snap = await captureViewHierarchy(client, [BANNER]);
    let ran = false;
    const entry = closeBanner(new Map(), { action: async () => void (ran = true) });
    expect(await runConditionalActions(client, [entry, { ...entry, id: "no-post", postcondition: undefined }], snap)).toEqual({
      handled: [],
    });
    expect(ran).toBe(false);
    expect(calls.length).toBe(1);
    expect(await runConditionalActions(client, [])).toEqual({ handled: [] });
  });

  test("failures are ConditionalActionFailedError carrying the entry id (and the cause when something threw)", async () => {
    const screen = shown();
    const { client } = fakeDevice(screen);
    const snap = await captureViewHierarchy(client, [BANNER]);
    const failure = async (entry: ConditionalAction) => {
      try {
        await runConditionalActions(client, [entry], snap);
      } catch (error) {
        return error as ConditionalActionFailedError;
      }
      throw new Error("expected a failure");
    };
    const stuck = await failure(closeBanner(screen, { action: async () => {} }));
    expect(stuck).toBeInstanceOf(ConditionalActionFailedError);
    expect([stuck.name, stuck.conditionalActionId, stuck.message, stuck.cause]).toEqual([
      "ConditionalActionFailedError",
      "close-banner",
      'postcondition not satisfied after action for conditional "close-banner" (Close the banner)',
      null,
    ]);
    const boom = new Error("tap failed");
    const thrown = await failure(closeBanner(screen, { action: async () => Promise.reject(boom) }));
    expect([thrown.message, thrown.cause]).toEqual(['action threw for conditional "close-banner" (Close the banner): tap failed', boom]);
    const predicate = await failure(
      closeBanner(screen, {
        condition: () => {
          throw new Error("bad predicate");
        },
        postcondition: undefined,
      }),
    );
    expect(predicate.message).toBe('condition predicate threw for conditional "close-banner" (Close the banner): bad predicate');
  });

  test("a catalog without a presnapshot is refused, saying how to capture one", async () => {
    const { client } = fakeDevice(shown());
    expect(runConditionalActions(client, [closeBanner(shown())])).rejects.toThrow(
      "runConditionalActions: no presnapshot given. Capture one first",
    );
  });
});
