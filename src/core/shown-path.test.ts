import { expect, test } from "bun:test";
import { shownPath } from "./shown-path.ts";

test("relative inside the working directory, absolute once it would climb out of it", () => {
  expect(shownPath("/work/app", "/work/app/maps/shop")).toBe("maps/shop");
  expect(shownPath("/work/app", "/work/app")).toBe("/work/app");
  expect(shownPath("/work/app", "/no/such/dir")).toBe("/no/such/dir");
  expect(shownPath("/work/app", "/work")).toBe("/work");
  expect(shownPath("/work/app", "/work/app-other/map")).toBe("/work/app-other/map");
  expect(shownPath("/work/app", "/work/app/..map")).toBe("..map");
});
