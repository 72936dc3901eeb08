import { describe, expect, test } from "bun:test";
import { byCloseness, closest, didYouMean, editDistance, unknownNameMessage } from "./did-you-mean.ts";

describe("editDistance", () => {
  test("counts insertions, deletions, substitutions and neighbour swaps as one edit", () => {
    expect(editDistance("comand", "command")).toBe(1);
    expect(editDistance("command", "comand")).toBe(1);
    expect(editDistance("cat", "bat")).toBe(1);
    expect(editDistance("dispaly", "display")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("same", "same")).toBe(0);
  });
});

describe("closest", () => {
  const keys = ["script", "bundle", "command", "args", "env", "cwd", "timeout_ms"];

  test("suggests likely typos, closest first", () => {
    expect(closest("comand", keys)).toEqual(["command"]);
    expect(closest("bundel", keys)).toEqual(["bundle"]);
    expect(closest("timeoutMs", keys)).toEqual(["timeout_ms"]);
  });

  test("ignores case, - and _ when ranking", () => {
    expect(closest("ANDROID_ONDEVICE_ACESSIBILITY", ["android-ondevice-accessibility", "ios-host"])).toEqual([
      "android-ondevice-accessibility",
    ]);
  });

  test("returns nothing for unrelated names and never the name itself", () => {
    expect(closest("zzzzzz", keys)).toEqual([]);
    expect(closest("script", keys)).toEqual([]);
  });

  test("caps the number of suggestions", () => {
    expect(closest("ab", ["aa", "ab1", "ac", "ad", "ae"], 2)).toHaveLength(2);
  });
});

test("byCloseness orders every candidate", () => {
  expect(byCloseness("emial", ["greeting", "email", "name"])).toEqual(["email", "name", "greeting"]);
});

test("didYouMean formats one or several suggestions", () => {
  expect(didYouMean("comand", ["command"])).toBe('; did you mean "command"?');
  expect(didYouMean("tap", ["tapOn", "tab", "top"])).toBe('; did you mean "tab", "top" or "tapOn"?');
  expect(didYouMean("xyz", ["command"])).toBe("");
});

test("unknownNameMessage lists the known names", () => {
  expect(unknownNameMessage("platform", "andriod", ["android", "ios", "web"])).toBe(
    'unknown platform "andriod"; did you mean "android"? Known platforms: android, ios, web',
  );
  expect(unknownNameMessage("platform", "tv", ["android", "ios", "web"])).toBe('unknown platform "tv"; known platforms: android, ios, web');
});
