// The run's table of screens: each distinct screen a step ran on, stored once as a wireframe (with
// the capture's screenshot, embedded once here, when one is beside it) and named by a content
// hash, so a report holds hundreds of steps on a few screens without repeats (and shards name the
// same screen the same way).

import type { Screen } from "../screen/screen-model.ts";
import { wireframeId, wireframeOf, withScreenshot, type WireframeScreen } from "../screen/wireframe.ts";

export class ScreenTable {
  readonly #ids = new WeakMap<Screen, string>();
  readonly #screens = new Map<string, WireframeScreen>();

  /** The id of `screen` in the table (added on first sight, its texts through `mask`). */
  add(screen: Screen, mask: (text: string) => string): string {
    const known = this.#ids.get(screen);
    if (known !== undefined) return known;
    const wireframe = withScreenshot(wireframeOf(screen, mask), screen);
    const id = wireframeId(wireframe);
    if (!this.#screens.has(id)) this.#screens.set(id, wireframe);
    this.#ids.set(screen, id);
    return id;
  }

  /** Screens another table holds (a worker thread's), by their ids; an id already here is kept as is. */
  adopt(screens: Readonly<Record<string, WireframeScreen>>): void {
    for (const [id, wireframe] of Object.entries(screens)) if (!this.#screens.has(id)) this.#screens.set(id, wireframe);
  }

  /** The screens added since `seen` was last passed here (their ids are added to it): what another table lacks. */
  newSince(seen: Set<string>): Record<string, WireframeScreen> {
    const fresh: Record<string, WireframeScreen> = {};
    for (const [id, wireframe] of this.#screens) {
      if (seen.has(id)) continue;
      seen.add(id);
      fresh[id] = wireframe;
    }
    return fresh;
  }

  get size(): number {
    return this.#screens.size;
  }

  /** The table as `RunReport.screens`, in the order screens were first seen. */
  toJSON(): Record<string, WireframeScreen> {
    return Object.fromEntries(this.#screens);
  }
}
