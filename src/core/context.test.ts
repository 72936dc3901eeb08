import { describe, expect, test } from "bun:test";
import { buildContext, resolveTargetInfo } from "./context.ts";

describe("resolveTargetInfo: the envelope's target block", () => {
  test("a mobile session: what the target declares, and the first declared app id installed on the device", () => {
    const declared = { id: "shop", displayName: "Shop", appIds: ["com.example.shop.dev", "com.example.shop"] };
    expect(resolveTargetInfo(declared, { platform: "ANDROID" })).toEqual({
      id: "shop",
      displayName: "Shop",
      appIds: ["com.example.shop.dev", "com.example.shop"],
      appId: "com.example.shop.dev",
    });
    expect(resolveTargetInfo(declared, { platform: "ANDROID", installedAppIds: ["com.example.shop", "com.other"] }).appId).toBe(
      "com.example.shop",
    );
  });

  test("no app id when none is declared, none is installed, or the declared one is empty; the fields are left out, not undefined", () => {
    for (const info of [
      resolveTargetInfo({ id: "web", appIds: [] }, { platform: "WEB" }),
      resolveTargetInfo({ id: "web", appIds: ["com.a"] }, { platform: "IOS", installedAppIds: [] }),
      resolveTargetInfo({ id: "web", appIds: [""] }, { platform: "IOS" }),
    ]) {
      expect(Object.keys(info).sort()).toEqual(["appIds", "id"]);
    }
  });

  test("base URLs: declared ones on any platform, the resolved one (the first) on web only", () => {
    const declared = { id: "wiki", appIds: [], baseUrls: ["https://en.wikipedia.org", "https://en.m.wikipedia.org"] };
    expect(resolveTargetInfo(declared, { platform: "WEB" })).toEqual({
      id: "wiki",
      appIds: [],
      baseUrls: ["https://en.wikipedia.org", "https://en.m.wikipedia.org"],
      resolvedBaseUrl: "https://en.wikipedia.org",
    });
    expect(resolveTargetInfo(declared, { platform: "ANDROID" })).toEqual({ id: "wiki", appIds: [], baseUrls: declared.baseUrls });
    expect(resolveTargetInfo({ ...declared, baseUrls: [""] }, { platform: "WEB" })).toEqual({ id: "wiki", appIds: [] });
  });
});

describe("buildContext", () => {
  test("copies the target's lists, so a tool call cannot change the session's", () => {
    const target = resolveTargetInfo(
      { id: "wiki", appIds: ["org.wikipedia"], baseUrls: ["https://en.wikipedia.org"] },
      { platform: "WEB" },
    );
    const context = buildContext(
      { sessionId: "context", invocationId: "call-1" },
      { platform: "WEB", widthPixels: 1280, heightPixels: 800, driverType: "playwright-native" },
      {},
      target,
    );
    expect(context.target).toEqual(target);
    context.target!.appIds.push("x");
    context.target!.baseUrls!.push("y");
    expect(target).toEqual({
      id: "wiki",
      appIds: ["org.wikipedia"],
      appId: "org.wikipedia",
      baseUrls: ["https://en.wikipedia.org"],
      resolvedBaseUrl: "https://en.wikipedia.org",
    });
  });

  test("no target key without a target", () => {
    expect(
      "target" in
        buildContext(
          { sessionId: "context", invocationId: "call-1" },
          { platform: "IOS", widthPixels: 1, heightPixels: 1, driverType: "ios-host" },
          {},
        ),
    ).toBe(false);
  });
});
