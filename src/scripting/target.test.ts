import { describe, expect, test } from "bun:test";
import type { TrailblazeTarget } from "./index.ts";
import { parseTarget, toolTarget } from "./target.ts";
import { createMockContext } from "./testing.ts";

describe("parseTarget: the envelope's target block, read leniently", () => {
  test("every field upstream sends is read, and absent optional fields stay absent", () => {
    const full = parseTarget({
      id: "wiki",
      displayName: "Wikipedia",
      appIds: ["org.wikipedia.dev", "org.wikipedia"],
      appId: "org.wikipedia",
      baseUrls: ["https://en.wikipedia.org", "https://en.m.wikipedia.org"],
      resolvedBaseUrl: "https://en.m.wikipedia.org",
    });
    expect(full).toMatchObject({
      id: "wiki",
      displayName: "Wikipedia",
      appIds: ["org.wikipedia.dev", "org.wikipedia"],
      appId: "org.wikipedia",
      baseUrls: ["https://en.wikipedia.org", "https://en.m.wikipedia.org"],
      resolvedBaseUrl: "https://en.m.wikipedia.org",
    });
    const bare = parseTarget({ id: "wiki", appIds: [] });
    expect(Object.keys(bare!).sort()).toEqual(["appIds", "id", "resolveAppId", "resolveBaseUrl"]);
  });

  test("absent, null, not an object, or without a string id and a list of string app ids: no target", () => {
    for (const raw of [
      undefined,
      null,
      "wiki",
      ["wiki"],
      {},
      { id: 7, appIds: [] },
      { id: "wiki" },
      { id: "wiki", appIds: "org.wikipedia" },
      { id: "wiki", appIds: ["org.wikipedia", null] },
    ]) {
      expect(parseTarget(raw)).toBeUndefined();
    }
  });

  test("an optional field of the wrong type is left out, the target kept", () => {
    const target = parseTarget({
      id: "wiki",
      appIds: ["org.wikipedia"],
      displayName: 3,
      appId: false,
      baseUrls: ["https://a.example", 4],
      resolvedBaseUrl: {},
    });
    expect(target).toBeDefined();
    expect(Object.keys(target!).sort()).toEqual(["appIds", "id", "resolveAppId", "resolveBaseUrl"]);
    expect(target!.resolveAppId()).toBe("org.wikipedia");
    expect(target!.resolveBaseUrl()).toBeUndefined();
  });

  test("the lists are copies: changing the envelope later does not change ctx.target", () => {
    const raw = { id: "wiki", appIds: ["org.wikipedia"], baseUrls: ["https://a.example"] };
    const target = parseTarget(raw)!;
    raw.appIds.push("x");
    raw.baseUrls.length = 0;
    expect(target.appIds).toEqual(["org.wikipedia"]);
    expect(target.resolveBaseUrl()).toBe("https://a.example");
  });
});

describe("resolveAppId and resolveBaseUrl", () => {
  test("resolveAppId: appId, else appIds[0], else the trimmed default, else undefined", () => {
    expect(toolTarget({ id: "t", appIds: ["a", "b"], appId: "b" }).resolveAppId({ defaultAppId: "d" })).toBe("b");
    expect(toolTarget({ id: "t", appIds: ["a", "b"] }).resolveAppId({ defaultAppId: "d" })).toBe("a");
    expect(toolTarget({ id: "t", appIds: ["a"], appId: "" }).resolveAppId()).toBe("a");
    expect(toolTarget({ id: "t", appIds: [] }).resolveAppId({ defaultAppId: "  com.fallback " })).toBe("com.fallback");
    expect(toolTarget({ id: "t", appIds: [""] }).resolveAppId({ defaultAppId: "d" })).toBe("d");
    expect(toolTarget({ id: "t", appIds: [] }).resolveAppId({ defaultAppId: "   " })).toBeUndefined();
    expect(toolTarget({ id: "t", appIds: [] }).resolveAppId()).toBeUndefined();
  });

  test("resolveBaseUrl: resolvedBaseUrl, else baseUrls[0], else the trimmed default, else undefined", () => {
    const urls = ["https://one.example", "https://two.example"];
    expect(toolTarget({ id: "t", appIds: [], baseUrls: urls, resolvedBaseUrl: "https://two.example" }).resolveBaseUrl()).toBe(
      "https://two.example",
    );
    expect(toolTarget({ id: "t", appIds: [], baseUrls: urls }).resolveBaseUrl({ defaultBaseUrl: "https://d.example" })).toBe(
      "https://one.example",
    );
    expect(toolTarget({ id: "t", appIds: [] }).resolveBaseUrl({ defaultBaseUrl: " https://d.example " })).toBe("https://d.example");
    expect(toolTarget({ id: "t", appIds: [], baseUrls: [] }).resolveBaseUrl()).toBeUndefined();
  });

  test("they are closures: destructured, passed around or called on another object, they still resolve", () => {
    const { resolveAppId, resolveBaseUrl } = parseTarget({ id: "t", appIds: ["com.example"], resolvedBaseUrl: "https://t.example" })!;
    expect(resolveAppId()).toBe("com.example");
    expect(resolveBaseUrl()).toBe("https://t.example");
    expect([undefined].map(() => resolveAppId())).toEqual(["com.example"]);
    expect(resolveAppId.call({ appId: "other" })).toBe("com.example");
  });

  test("they survive a spread copy of the target (a pure-JS handler's ctx is a copy)", () => {
    const copy = { ...parseTarget({ id: "t", appIds: ["com.example"] })! };
    expect(copy.resolveAppId()).toBe("com.example");
  });
});

describe("createMockContext's target resolves as a session's does", () => {
  test("resolvers are added when missing and kept when given", () => {
    const added = createMockContext({ platform: "web", target: { id: "t", appIds: [], baseUrls: ["https://t.example"] } }).target!;
    expect(added.resolveAppId({ defaultAppId: "d" })).toBe("d");
    expect(added.resolveBaseUrl()).toBe("https://t.example");
    const given = createMockContext({ platform: "android", target: { id: "t", appIds: ["a"], resolveAppId: () => "stub" } }).target!;
    expect(given.resolveAppId()).toBe("stub");
    expect(given.resolveBaseUrl({ defaultBaseUrl: "https://d.example" })).toBe("https://d.example");
  });

  test("a whole TrailblazeTarget (upstream's type name, as upstream's tool tests write one) is taken as is", () => {
    const target: TrailblazeTarget = {
      id: "sampleapp",
      appIds: ["com.example.custom"],
      appId: "com.example.custom",
      resolveAppId: () => "com.example.custom",
      resolveBaseUrl: () => "",
    };
    const ctx = createMockContext({ platform: "android", target });
    expect(ctx.target?.resolveAppId({ defaultAppId: "d" })).toBe("com.example.custom");
    expect(ctx.target?.resolveBaseUrl({ defaultBaseUrl: "https://d.example" })).toBe("");
  });
});
