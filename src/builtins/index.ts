// The framework's built-in tools, available in every session (platform- and
// driver-specific ones carry `_meta` gates, like any MCP tool), grouped by concern.

import type { RegisteredTool } from "../registry/registry.ts";
import { bindBuiltin, type BuiltinRun, type BuiltinSpec } from "./define-builtin.ts";
import { assertionTools } from "./assertions.ts";
import { composeTools } from "./compose-tools.ts";
import { deviceActionTools } from "./device-actions.ts";
import { elementActionTools } from "./element-actions.ts";
import { memoryTools } from "./memory-tools.ts";
import { mobilePrimitiveTools } from "./mobile-primitives.ts";
import { screenAssertionTools } from "./screen-assertions.ts";
import { movesTheScreen } from "./screen-checks.ts";
import { SimulatedDevice, type SimulatedDeviceOptions } from "./simulated-device.ts";
import { SIMULATED_WEB_RUNS } from "./web-simulated.ts";
import { BROWSER_WEB_RUNS } from "./web-browser-tools.ts";
import { WEB_TOOLS } from "./web-tool-definitions.ts";
import type { WebPage } from "../browser/web-page.ts";

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

/** Every built-in, acting on `device`; with a real page, the web_* tools that can act on it do. */
export function frameworkTools(device: SimulatedDevice, web?: WebPage): RegisteredTool[] {
  const tools = [
    ...assertionTools(device),
    ...memoryTools(device),
    ...deviceActionTools(device),
    ...elementActionTools(device),
    ...screenAssertionTools(device),
    ...mobilePrimitiveTools(device),
    ...webTools(device, web),
    ...composeTools(device),
  ];
  return tools.map((tool) => movesTheScreen(device, tool));
}

/** A fresh set per session: the simulated device keeps per-session state, and `web` is the session's page. */
export function builtinTools(options: SimulatedDeviceOptions & { web?: WebPage } = {}): RegisteredTool[] {
  const { web, ...device } = options;
  return frameworkTools(new SimulatedDevice(device), web);
}
