// The framework's built-in tools, available in every session (platform- and driver-specific ones
// carry `_meta` gates, like any MCP tool). Each is defined once, as data, in its concern's table
// (name → description, arguments, `_meta`); a backend's runs answer its calls: the simulated device
// for all of them, and for the web_* tools the session's real page where it has one.

import type { RegisteredTool } from "../registry/registry.ts";
import type { WebPage } from "../browser/web-page.ts";
import { ASSERTION_RUNS, ASSERTIONS } from "./assertions.ts";
import { COMPOSE_RUNS, COMPOSE_TOOLS } from "./compose-tools.ts";
import { bindBuiltin, bindBuiltins, type BuiltinRun, type BuiltinSpec } from "./define-builtin.ts";
import { DEVICE_ACTION_RUNS, DEVICE_ACTIONS } from "./device-actions.ts";
import { ELEMENT_ACTION_RUNS, ELEMENT_ACTIONS } from "./element-actions.ts";
import { MEMORY_RUNS, MEMORY_TOOLS } from "./memory-tools.ts";
import { MOBILE_PRIMITIVE_RUNS, MOBILE_PRIMITIVES } from "./mobile-primitives.ts";
import { SCREEN_ASSERTION_RUNS, SCREEN_ASSERTIONS } from "./screen-assertions.ts";
import { movesTheScreen } from "./screen-checks.ts";
import { SimulatedDevice, type SimulatedDeviceOptions } from "./simulated-device.ts";
import { BROWSER_WEB_RUNS } from "./web-browser-tools.ts";
import { SIMULATED_WEB_RUNS } from "./web-simulated.ts";
import { WEB_TOOLS } from "./web-tool-definitions.ts";

export { SimulatedDevice } from "./simulated-device.ts";

/**
 * The web_* tools, defined once (WEB_TOOLS): with a real page, run by the browser where it has a
 * run for the tool, else by the simulated page. Either way the listing is the same.
 */
function webTools(device: SimulatedDevice, web: WebPage | undefined): RegisteredTool[] {
  return Object.entries(WEB_TOOLS).map(([name, spec]: [string, BuiltinSpec]) => {
    const key = name as keyof typeof WEB_TOOLS;
    const onPage = BROWSER_WEB_RUNS[key] as BuiltinRun<unknown, WebPage> | undefined;
    if (web && onPage) return bindBuiltin(name, spec, onPage, web);
    return bindBuiltin(name, spec, SIMULATED_WEB_RUNS[key] as BuiltinRun<unknown, SimulatedDevice>, device);
  });
}

/** Every built-in, in the order of BUILTIN_TOOLS (core/builtin-tools.ts), acting on `device`; with a real page, the web_* tools that can act on it do. */
export function frameworkTools(device: SimulatedDevice, web?: WebPage): RegisteredTool[] {
  const tools = [
    ...bindBuiltins(ASSERTIONS, ASSERTION_RUNS, device),
    ...bindBuiltins(MEMORY_TOOLS, MEMORY_RUNS, device),
    ...bindBuiltins(DEVICE_ACTIONS, DEVICE_ACTION_RUNS, device),
    ...bindBuiltins(ELEMENT_ACTIONS, ELEMENT_ACTION_RUNS, device),
    ...bindBuiltins(SCREEN_ASSERTIONS, SCREEN_ASSERTION_RUNS, device),
    ...bindBuiltins(MOBILE_PRIMITIVES, MOBILE_PRIMITIVE_RUNS, device),
    ...webTools(device, web),
    ...bindBuiltins(COMPOSE_TOOLS, COMPOSE_RUNS, device),
  ];
  return tools.map((tool) => movesTheScreen(device, tool));
}

/** A fresh set per session: the simulated device keeps per-session state, and `web` is the session's page. */
export function builtinTools(options: SimulatedDeviceOptions & { web?: WebPage } = {}): RegisteredTool[] {
  const { web, ...device } = options;
  return frameworkTools(new SimulatedDevice({ ...device, realPage: web !== undefined }), web);
}
