import { describe, expect, test } from "bun:test";
import {
  buildContext,
  CONTEXT_KEY as RUNTIME_CONTEXT_KEY,
  resolveTargetInfo,
  type TrailblazeContext as RuntimeContext,
} from "../core/context.ts";
import { DRIVERS, PLATFORMS } from "../core/drivers.ts";
import { fromMeta } from "./call-context.ts";
import { CONTEXT_KEY, contextOf, type TrailblazeContext } from "./context.ts";
import { trailblazeContextSchema, withTrailblazeContext } from "./context-schema.ts";
import type { DriverKey, Platform } from "./meta.ts";

const context: TrailblazeContext = {
  sessionId: "s-1",
  invocationId: "call-7",
  memory: { email: "a@b.c" },
  device: { platform: "ANDROID", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" },
};
const other: TrailblazeContext = { ...context, memory: {} };

describe("contextOf", () => {
  test("args._trailblazeContext wins over extra._meta.trailblaze", () => {
    expect(contextOf({ [CONTEXT_KEY]: context }, { _meta: { trailblaze: other } })).toBe(context);
  });

  test("a standard handler: the SDK stripped the key, the request _meta has it", () => {
    expect(contextOf({ sku: "X" }, { _meta: { trailblaze: context } })).toBe(context);
  });

  test("a tool without input schema passes only extra", () => {
    expect(contextOf({ _meta: { trailblaze: context } })).toBe(context);
  });

  test("undefined under a plain MCP client, and for malformed envelopes", () => {
    expect(contextOf({ sku: "X" }, { _meta: {} })).toBeUndefined();
    expect(contextOf({ sku: "X" }, {})).toBeUndefined();
    expect(contextOf(undefined)).toBeUndefined();
    expect(contextOf({ [CONTEXT_KEY]: "nope" }, { _meta: { trailblaze: { device: null, memory: {} } } })).toBeUndefined();
    expect(contextOf({ [CONTEXT_KEY]: { device: {} } })).toBeUndefined();
  });
});

describe("fromMeta (upstream's name, for an MCP handler's extra._meta)", () => {
  test("the call context: lower-case platform, target with resolveAppId, memory with get/set", () => {
    const ctx = fromMeta({ trailblaze: { ...context, target: { id: "shop", appIds: ["com.example.shop"] } } });
    expect(ctx?.device).toEqual({
      platform: "android",
      widthPixels: 1080,
      heightPixels: 2400,
      driverType: "android-ondevice-accessibility",
    });
    expect([ctx?.sessionId, ctx?.invocationId]).toEqual(["s-1", "call-7"]);
    expect(ctx?.target?.resolveAppId()).toBe("com.example.shop");
    expect(ctx?.memory.get("email")).toBe("a@b.c");
    ctx?.memory.set("email", "x@y.z");
    expect(ctx?.memory.get("email")).toBe("x@y.z");
  });

  test("undefined without an envelope (a plain MCP client) or with a malformed one", () => {
    expect(fromMeta(undefined)).toBeUndefined();
    expect(fromMeta({})).toBeUndefined();
    expect(fromMeta({ trailblaze: { device: null, memory: {} } })).toBeUndefined();
  });

  test("undefined without the session's or the call's id, as upstream's fromMeta (they name the call for its log lines)", () => {
    const { sessionId: _s, ...noSession } = context;
    const { invocationId: _i, ...noInvocation } = context;
    for (const envelope of [noSession, noInvocation, { ...context, sessionId: 1 }, { ...context, invocationId: null }]) {
      expect(fromMeta({ trailblaze: envelope })).toBeUndefined();
    }
  });

  test("memory that is not an object is empty; upstream's baseUrl and runtime 'ondevice' are kept, another runtime is not", () => {
    const { memory: _m, ...noMemory } = context;
    expect(fromMeta({ trailblaze: noMemory })?.memory.keys()).toEqual([]);
    expect(fromMeta({ trailblaze: { ...context, memory: ["a"] } })?.memory.keys()).toEqual([]);
    const upstream = fromMeta({ trailblaze: { ...context, baseUrl: "http://localhost:52525", runtime: "ondevice" } });
    expect(upstream).toMatchObject({ baseUrl: "http://localhost:52525", runtime: "ondevice" });
    const ours = fromMeta({ trailblaze: { ...context, runtime: "future" } })!;
    expect(["baseUrl" in ours, "runtime" in ours]).toEqual([false, false]);
  });

  test("the logger given is the context's; without one, a logger that writes nothing", () => {
    const lines: string[] = [];
    const logger = { debug: () => {}, info: (m: string) => void lines.push(m), warn: () => {}, error: () => {} };
    fromMeta({ trailblaze: context }, logger)?.logger.info("kept");
    expect(lines).toEqual(["kept"]);
    const silent = fromMeta({ trailblaze: context })!.logger;
    expect(Object.keys(silent)).toEqual(["debug", "info", "warn", "error"]);
  });

  test("undefined when the device lacks a required field or names no known platform", () => {
    const { platform: _p, ...noPlatform } = context.device;
    for (const device of [
      {},
      noPlatform,
      { ...context.device, platform: "TV" },
      { ...context.device, widthPixels: "1080" },
      { ...context.device, driverType: 1 },
    ]) {
      expect(fromMeta({ trailblaze: { ...context, device } })).toBeUndefined();
    }
  });

  test("the envelope the runtime builds: every target field, the session's resolved app id first", () => {
    const target = resolveTargetInfo(
      { id: "wiki", displayName: "Wikipedia", appIds: ["org.wikipedia.dev", "org.wikipedia"], baseUrls: ["https://en.wikipedia.org"] },
      { platform: "WEB", installedAppIds: ["org.wikipedia"] },
    );
    const envelope = buildContext(
      { sessionId: "scripting-context", invocationId: "call-1" },
      { platform: "WEB", widthPixels: 1280, heightPixels: 800, driverType: "playwright-native" },
      {},
      target,
    );
    const ctx = fromMeta({ trailblaze: JSON.parse(JSON.stringify(envelope)) });
    expect([ctx?.sessionId, ctx?.invocationId, ctx?.device.platform]).toEqual(["scripting-context", "call-1", "web"]);
    expect(ctx?.target).toMatchObject({
      id: "wiki",
      displayName: "Wikipedia",
      appIds: ["org.wikipedia.dev", "org.wikipedia"],
      appId: "org.wikipedia",
      baseUrls: ["https://en.wikipedia.org"],
      resolvedBaseUrl: "https://en.wikipedia.org",
    });
    expect(ctx?.target?.resolveAppId({ defaultAppId: "com.fallback" })).toBe("org.wikipedia");
    expect(ctx?.target?.resolveBaseUrl({ defaultBaseUrl: "https://fallback.example" })).toBe("https://en.wikipedia.org");
  });

  test("upstream's envelope (lower-case platform, sessionId, baseUrl): read the same way", () => {
    const ctx = fromMeta({
      trailblaze: {
        baseUrl: "http://localhost:52525",
        sessionId: "s-1",
        invocationId: "i-1",
        device: { platform: "ios", widthPixels: 1170, heightPixels: 2532, driverType: "ios-host", instanceId: "UDID-1" },
        target: { id: "clock", appIds: ["com.apple.mobiletimer"] },
        memory: {},
      },
    });
    expect(ctx).toMatchObject({
      sessionId: "s-1",
      invocationId: "i-1",
      device: { platform: "ios", instanceId: "UDID-1" },
      target: { id: "clock" },
    });
    expect(ctx?.target?.appId).toBeUndefined();
    expect(ctx?.target?.resolveAppId()).toBe("com.apple.mobiletimer");
  });

  test("a malformed target or instanceId is dropped; the rest of the context is kept", () => {
    const withTarget = (target: unknown, device: object = context.device) =>
      fromMeta({ trailblaze: { ...context, device, target, invocationId: "9", sessionId: "s" } });
    for (const target of [
      null,
      {},
      { id: 42, appIds: [] },
      { id: "shop", appIds: "com.example.shop" },
      { id: "shop", appIds: ["com.example.shop", 1] },
    ]) {
      const ctx = withTarget(target);
      expect(ctx).toBeDefined();
      expect(ctx?.target).toBeUndefined();
      expect([ctx?.sessionId, ctx?.invocationId, ctx?.device.platform, ctx?.memory.get("email")]).toEqual(["s", "9", "android", "a@b.c"]);
    }
    const ctx = withTarget({ id: "shop", appIds: [] }, { ...context.device, instanceId: 42 });
    expect(ctx?.device).toEqual({
      platform: "android",
      widthPixels: 1080,
      heightPixels: 2400,
      driverType: "android-ondevice-accessibility",
    });
    expect(ctx?.target?.resolveAppId({ defaultAppId: "com.fallback" })).toBe("com.fallback");
  });
});

describe("the zod shape helper", () => {
  test("adds an optional _trailblazeContext that accepts the runtime's envelope and keeps unknown fields", () => {
    const shape = withTrailblazeContext({});
    expect(Object.keys(shape)).toEqual([CONTEXT_KEY]);
    const future = { ...context, trace: "t1", device: { ...context.device, density: 2.6 } };
    expect(trailblazeContextSchema.parse(future)).toEqual(future);
    expect(shape._trailblazeContext.parse(undefined)).toBeUndefined();
    expect(trailblazeContextSchema.safeParse({ ...context, device: { ...context.device, platform: "TV" } }).success).toBe(false);
    const { invocationId: _i, ...noInvocation } = context;
    expect(trailblazeContextSchema.safeParse(noInvocation).success).toBe(false);
  });

  test("refuses a shape that already declares the key", () => {
    expect(() => withTrailblazeContext({ [CONTEXT_KEY]: trailblazeContextSchema })).toThrow(
      "withTrailblazeContext: the shape already declares _trailblazeContext",
    );
  });
});

describe("the package agrees with the runtime", () => {
  test("same context key, envelope shape, drivers and platforms (the meta keys are one table: meta.ts)", () => {
    expect(CONTEXT_KEY).toBe(RUNTIME_CONTEXT_KEY);
    const fromRuntime: TrailblazeContext = {} as RuntimeContext;
    const toRuntime: RuntimeContext = {} as TrailblazeContext;
    expect([fromRuntime, toRuntime]).toHaveLength(2);
    const drivers: DriverKey[] = [
      "android-ondevice-accessibility",
      "android-ondevice-instrumentation",
      "android-test",
      "revyl-android",
      "ios-host",
      "ios-axe",
      "revyl-ios",
      "playwright-native",
      "playwright-electron",
      "compose",
    ];
    expect(drivers).toEqual(DRIVERS.map((d) => d.key) as DriverKey[]);
    const platforms: Platform[] = ["ANDROID", "IOS", "WEB"];
    expect(platforms).toEqual([...PLATFORMS]);
  });
});
