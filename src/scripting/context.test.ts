import { describe, expect, test } from "bun:test";
import { CONTEXT_KEY as RUNTIME_CONTEXT_KEY, type TrailblazeContext as RuntimeContext } from "../core/context.ts";
import { DRIVERS, PLATFORMS } from "../core/drivers.ts";
import { META_KEYS } from "../registry/tool-meta.ts";
import { fromMeta } from "./call-context.ts";
import { CONTEXT_KEY, contextOf, type TrailblazeContext } from "./context.ts";
import { trailblazeContextSchema, withTrailblazeContext } from "./context-schema.ts";
import { TRAILBLAZE_META_KEYS, type DriverKey, type Platform } from "./meta.ts";

const context: TrailblazeContext = {
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
    const ctx = fromMeta({ trailblaze: { ...context, target: { id: "shop", appIds: ["com.example.shop"] }, invocationId: "7" } });
    expect(ctx?.device).toEqual({ platform: "android", widthPixels: 1080, heightPixels: 2400, driverType: "android-ondevice-accessibility" });
    expect(ctx?.invocationId).toBe("7");
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
});

describe("the zod shape helper", () => {
  test("adds an optional _trailblazeContext that accepts the runtime's envelope and keeps unknown fields", () => {
    const shape = withTrailblazeContext({});
    expect(Object.keys(shape)).toEqual([CONTEXT_KEY]);
    const future = { ...context, trace: "t1", device: { ...context.device, density: 2.6 } };
    expect(trailblazeContextSchema.parse(future)).toEqual(future);
    expect(shape._trailblazeContext.parse(undefined)).toBeUndefined();
    expect(trailblazeContextSchema.safeParse({ memory: {}, device: { platform: "TV" } }).success).toBe(false);
  });

  test("refuses a shape that already declares the key", () => {
    expect(() => withTrailblazeContext({ [CONTEXT_KEY]: trailblazeContextSchema })).toThrow(
      "withTrailblazeContext: the shape already declares _trailblazeContext",
    );
  });
});

describe("the package agrees with the runtime", () => {
  test("same context key, envelope shape, meta keys, drivers and platforms", () => {
    expect(CONTEXT_KEY).toBe(RUNTIME_CONTEXT_KEY);
    const fromRuntime: TrailblazeContext = {} as RuntimeContext;
    const toRuntime: RuntimeContext = {} as TrailblazeContext;
    expect([fromRuntime, toRuntime]).toHaveLength(2);
    expect(TRAILBLAZE_META_KEYS).toEqual(META_KEYS);
    const drivers: DriverKey[] = ["android-ondevice-accessibility", "android-ondevice-instrumentation", "android-test", "revyl-android", "ios-host", "ios-axe", "revyl-ios", "playwright-native", "playwright-electron", "compose"];
    expect(drivers).toEqual(DRIVERS.map((d) => d.key) as DriverKey[]);
    const platforms: Platform[] = ["ANDROID", "IOS", "WEB"];
    expect(platforms).toEqual([...PLATFORMS]);
  });
});
