import { describe, expect, test } from "bun:test";
import { readToolMeta } from "./tool-meta.ts";
import { applyFilters } from "./filters.ts";

describe("readToolMeta", () => {
  test("absent keys give the permissive defaults", () => {
    expect(readToolMeta(undefined)).toEqual({
      meta: { isForLlm: true, isRecordable: true, requiresHost: false, requiresContext: false },
      warnings: [],
    });
  });

  test("reads every key and normalizes drivers and platforms", () => {
    const { meta, warnings } = readToolMeta({
      "trailblaze/isForLlm": false,
      "trailblaze/isRecordable": false,
      "trailblaze/requiresHost": true,
      "trailblaze/supportedDrivers": ["ANDROID_ONDEVICE_ACCESSIBILITY"],
      "trailblaze/supportedPlatforms": ["ios", "WEB"],
      "trailblaze/toolset": "auth",
      "trailblaze/requiresContext": true,
      "trailblaze/sensitiveArgs": ["password"],
      "other/key": 1,
    });
    expect(warnings).toEqual([]);
    expect(meta).toEqual({
      isForLlm: false,
      isRecordable: false,
      requiresHost: true,
      supportedDrivers: ["android-ondevice-accessibility"],
      supportedPlatforms: ["IOS", "WEB"],
      toolset: "auth",
      requiresContext: true,
      sensitiveArgs: ["password"],
    });
  });

  test("wrong-typed values warn and fall back to the permissive default", () => {
    const { meta, warnings } = readToolMeta({
      "trailblaze/requiresHost": "yes",
      "trailblaze/supportedPlatforms": "IOS",
      "trailblaze/toolset": 3,
      "trailblaze/requiresHots": true,
      "trailblaze/sensitiveArgs": "password",
    });
    expect(meta.requiresHost).toBe(false);
    expect(meta.supportedPlatforms).toBeUndefined();
    expect(meta.toolset).toBeUndefined();
    expect(meta.sensitiveArgs).toBeUndefined();
    expect(warnings).toEqual([
      `_meta["trailblaze/requiresHost"] should be a boolean, got a string ("yes"); using false`,
      `_meta["trailblaze/supportedPlatforms"] should be an array of strings, got a string ("IOS"); treating it as unrestricted`,
      `_meta["trailblaze/sensitiveArgs"] should be an array of strings, got a string ("password"); no argument may carry a secret`,
      `_meta["trailblaze/toolset"] should be a toolset id string, got a number (3); ignoring it`,
      `_meta["trailblaze/requiresHots"] is not a known trailblaze key (known: trailblaze/isForLlm, trailblaze/surfaceToLlm, trailblaze/isRecordable, trailblaze/requiresHost, trailblaze/supportedDrivers, trailblaze/supportedPlatforms, trailblaze/toolset, trailblaze/requiresContext, trailblaze/sensitiveArgs)`,
    ]);
  });
});

describe("applyFilters", () => {
  const android = { driver: "android-ondevice-accessibility", platform: "ANDROID" as const, agent: "host" as const };
  const meta = (raw: Record<string, unknown>) => readToolMeta(raw).meta;

  test("supportedDrivers is checked first, then platforms, then requiresHost", () => {
    const all = meta({
      "trailblaze/supportedDrivers": ["ios-host"],
      "trailblaze/supportedPlatforms": ["IOS"],
      "trailblaze/requiresHost": true,
    });
    expect(applyFilters(all, { ...android, agent: "on-device" })).toEqual({
      included: false,
      key: "trailblaze/supportedDrivers",
      reason: "supports drivers [ios-host], session driver is android-ondevice-accessibility",
    });
    const platformAndHost = meta({ "trailblaze/supportedPlatforms": ["IOS"], "trailblaze/requiresHost": true });
    expect(applyFilters(platformAndHost, { ...android, agent: "on-device" })).toMatchObject({ key: "trailblaze/supportedPlatforms" });
    expect(applyFilters(meta({ "trailblaze/requiresHost": true }), { ...android, agent: "on-device" })).toEqual({
      included: false,
      key: "trailblaze/requiresHost",
      reason: "host-only tool, session agent is on-device",
    });
  });

  test("the target's excluded_tools come last, by name, with the reason the session gave", () => {
    const excluded = new Map([["tapOnPoint", "target shop excludes it on android (excluded_tools entry at t.yaml:3:5)"]]);
    const facts = { ...android, excluded };
    expect(applyFilters(meta({}), facts, "tapOnPoint")).toEqual({
      included: false,
      key: "excluded_tools",
      reason: "target shop excludes it on android (excluded_tools entry at t.yaml:3:5)",
    });
    expect(applyFilters(meta({}), facts, "tap")).toEqual({ included: true });
    expect(applyFilters(meta({ "trailblaze/supportedPlatforms": ["IOS"] }), facts, "tapOnPoint")).toMatchObject({
      key: "trailblaze/supportedPlatforms",
    });
  });

  test("empty lists and host agent mean unrestricted", () => {
    expect(applyFilters(meta({ "trailblaze/supportedDrivers": [], "trailblaze/requiresHost": true }), android)).toEqual({ included: true });
  });

  test("both eras of _meta: surfaceToLlm is isForLlm; platforms in any case", () => {
    expect(readToolMeta({ "trailblaze/surfaceToLlm": false, "trailblaze/supportedPlatforms": ["android", "Ios"] })).toEqual({
      meta: { isForLlm: false, isRecordable: true, requiresHost: false, requiresContext: false, supportedPlatforms: ["ANDROID", "IOS"] },
      warnings: [],
    });
    expect(readToolMeta({ "trailblaze/surfaceToLlm": "no" }).warnings).toEqual([
      '_meta["trailblaze/surfaceToLlm"] should be a boolean, got a string ("no"); using true',
    ]);
    expect(readToolMeta({ "trailblaze/supportedPlatforms": ["tv"] }).warnings).toEqual([
      '_meta["trailblaze/supportedPlatforms"] names unknown platform "tv" (expected android, ios or web, in any case)',
    ]);
  });
});
