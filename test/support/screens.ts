// Hand-written screen captures (fixtures/screens) and the demo app map, loaded for tests.

import { join, resolve } from "node:path";
import { loadCapture } from "../../src/screen/load-capture.ts";
import type { Screen } from "../../src/screen/screen-model.ts";

export const SCREENS = resolve(import.meta.dir, "../../fixtures/screens");
export const DEMO_MAP = resolve(import.meta.dir, "../../fixtures/demo/maps/myapp");

const loaded = new Map<string, Promise<Screen>>();

/** A capture from fixtures/screens, by file name (loaded once per test process). */
export function screenFixture(name: string): Promise<Screen> {
  let screen = loaded.get(name);
  if (!screen) loaded.set(name, (screen = loadCapture(join(SCREENS, name), name)));
  return screen;
}
