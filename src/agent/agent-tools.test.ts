import { describe, expect, test } from "bun:test";
import { builtinTools } from "../builtins/index.ts";
import { BUILTIN_TOOLS } from "../core/builtin-tools.ts";
import { findDriver } from "../core/drivers.ts";
import { frameworkToolsets } from "../config/framework.ts";
import { ToolRegistry, type RegisteredTool } from "../registry/registry.ts";
import { readToolMeta } from "../registry/tool-meta.ts";
import { success } from "../core/tool-result.ts";
import { offeredTools } from "./agent-tools.ts";

function registry(extra: RegisteredTool[] = []): ToolRegistry {
  const r = new ToolRegistry();
  for (const tool of [...builtinTools(), ...extra]) r.register(tool);
  return r;
}

const driver = (key: string) => findDriver(key)!;
const names = (tools: RegisteredTool[]) => tools.map((t) => t.name).sort();

function ownTool(name: string, meta: Record<string, unknown> = {}): RegisteredTool {
  return {
    name,
    description: name,
    inputSchema: { type: "object" },
    rawMeta: meta,
    meta: readToolMeta(meta).meta,
    source: "tools/own.ts",
    transport: "stdio",
    invoke: async () => success("ok"),
  };
}

// What upstream's agent is offered (snapshot 2026.07.21): every tool of the toolsets whose
// `drivers:` name the session's driver, less `@TrailblazeToolClass(surfaceToLlm = false)`;
// TrailblazeToolRepo.getToolDescriptorsForStep.
const UPSTREAM_ANDROID = [
  // core_interaction
  "clearText",
  "eraseText",
  "hideKeyboard",
  "inputText",
  "inputTextRandom",
  "launchApp",
  "networkConnection",
  "openUrl",
  "mobile_pasteClipboard",
  "pressKey",
  "scrollUntilTextIsVisible",
  "mobile_setClipboard",
  "swipe",
  "takeSnapshot",
  "tap",
  "longPress",
  "dragTo",
  "tapOnPoint",
  "wait",
  "waitForChange",
  // memory
  "assertEquals",
  "assertMath",
  "assertNotEquals",
  "assertWithAi",
  "dumpMemory",
  "rememberNumber",
  "rememberText",
  "rememberWithAi",
  // meta, navigation, verification, mobile_primitives, android_framework
  "objectiveStatus",
  "pressBack",
  "assertVisible",
  "assertNotVisibleWithText",
  "assertWaypoint",
  "mobile_listInstalledApps",
];
const UPSTREAM_WEB = [
  // web_core
  "web_click",
  "web_type",
  "web_navigate",
  "web_scroll",
  "web_hover",
  "web_pressKey",
  "web_selectOption",
  "web_wait",
  "web_snapshot",
  "web_requestDetails",
  "web_resize",
  "web_currentUrl",
  "web_waitForUrl",
  "web_applyCookies",
  "web_getStorageState",
  "web_fillSecret",
  // web_verification
  "web_verifyTextVisible",
  "web_verifyElementVisible",
  "web_verifyValue",
  "web_verifyListVisible",
  "web_assertNetworkEvent",
  "assertWaypoint",
  // memory, meta
  "assertEquals",
  "assertMath",
  "assertNotEquals",
  "assertWithAi",
  "dumpMemory",
  "rememberNumber",
  "rememberText",
  "rememberWithAi",
  "objectiveStatus",
];
/** Where ours differs, and why: the AI tools would always fail here (they need a model of their own, which built-ins do not have). */
const NOT_OFFERED_HERE = new Set(["assertWithAi", "rememberWithAi"]);
const expected = (upstream: string[]) => upstream.filter((name) => !NOT_OFFERED_HERE.has(name)).sort();

describe("the tools the agent offers, as upstream's agent is offered them", () => {
  test("an android step: the android drivers' toolsets, less the tools hidden from models", () => {
    const offered = offeredTools(registry(), { driver: driver("android-ondevice-accessibility"), verify: false });
    expect(names(offered)).toEqual(expected(UPSTREAM_ANDROID));
    // What upstream hides: the by-text and by-selector forms (a recording keeps them; the model acts by ref).
    for (const hidden of ["tapOnElementWithText", "assertVisibleWithText", "tapOnElementBySelector", "assertVisibleBySelector"])
      expect(offered.map((t) => t.name)).not.toContain(hidden);
    // objectiveStatus is offered last.
    expect(offered.at(-1)!.name).toBe("objectiveStatus");
  });

  test("a verify step: the driver's verification toolset and objectiveStatus, nothing else", () => {
    const own = ownTool("shop_checkBasket");
    const android = offeredTools(registry([own]), { driver: driver("android-ondevice-accessibility"), verify: true });
    expect(android.map((t) => t.name)).toEqual(["assertVisible", "assertNotVisibleWithText", "assertWaypoint", "objectiveStatus"]);
    const web = offeredTools(registry([own]), { driver: driver("playwright-native"), verify: true });
    expect(web.map((t) => t.name)).toEqual([
      "web_verifyTextVisible",
      "web_verifyElementVisible",
      "web_verifyValue",
      "web_verifyListVisible",
      "web_assertNetworkEvent",
      "assertWaypoint",
      "objectiveStatus",
    ]);
  });

  test("a web step: the web toolsets, no mobile tool", () => {
    const offered = offeredTools(registry(), { driver: driver("playwright-native"), verify: false });
    expect(names(offered)).toEqual(expected(UPSTREAM_WEB));
    expect(offered.some((t) => ["tap", "launchApp", "pressBack", "inputText"].includes(t.name))).toBe(false);
  });

  test("the target's own tools come first, unless they opt out of models", () => {
    const offered = offeredTools(registry([ownTool("shop_addItem"), ownTool("shop_internal", { "trailblaze/isForLlm": false })]), {
      driver: driver("android-ondevice-accessibility"),
      verify: false,
    });
    expect(offered[0]!.name).toBe("shop_addItem");
    expect(offered.some((t) => t.name === "shop_internal")).toBe(false);
  });

  test("a tool the target excludes is not offered (it is not registered)", () => {
    const r = new ToolRegistry();
    for (const tool of builtinTools()) if (tool.name !== "tapOnPoint") r.register(tool);
    const offered = offeredTools(r, { driver: driver("android-ondevice-accessibility"), verify: false });
    expect(offered.some((t) => t.name === "tapOnPoint")).toBe(false);
  });
});

describe("the framework toolsets (config/framework-toolsets/)", () => {
  test("name only built-in tools, each toolset once", () => {
    const ids = frameworkToolsets().map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const toolset of frameworkToolsets()) for (const tool of toolset.tools) expect(Object.hasOwn(BUILTIN_TOOLS, tool)).toBe(true);
  });
});
