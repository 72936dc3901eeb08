// The framework's built-in tools, available in every session (platform- and
// driver-specific ones carry `_meta` gates, like any MCP tool), grouped by concern.

import type { RegisteredTool } from "../registry/registry.ts";
import { assertionTools } from "./assertions.ts";
import { composeTools } from "./compose-tools.ts";
import { deviceActionTools } from "./device-actions.ts";
import { elementActionTools } from "./element-actions.ts";
import { memoryTools } from "./memory-tools.ts";
import { mobilePrimitiveTools } from "./mobile-primitives.ts";
import { screenAssertionTools } from "./screen-assertions.ts";
import { movesTheScreen } from "./screen-checks.ts";
import { SimulatedDevice, type SimulatedDeviceOptions } from "./simulated-device.ts";
import { webTools } from "./web-tools.ts";
import { browserWebTools } from "./web-browser-tools.ts";
import type { WebPage } from "../browser/web-page.ts";

export { SimulatedDevice } from "./simulated-device.ts";

/** Every built-in, acting on `device`; with a real page, the web_* tools that can act on it do. */
export function frameworkTools(device: SimulatedDevice, web?: WebPage): RegisteredTool[] {
  const real = new Map((web ? browserWebTools(web) : []).map((tool) => [tool.name, tool]));
  const tools = [
    ...assertionTools(device),
    ...memoryTools(device),
    ...deviceActionTools(device),
    ...elementActionTools(device),
    ...screenAssertionTools(device),
    ...mobilePrimitiveTools(device),
    ...webTools(device).map((tool) => real.get(tool.name) ?? tool),
    ...composeTools(device),
  ];
  return tools.map((tool) => movesTheScreen(device, tool));
}

/** A fresh set per session: the simulated device keeps per-session state, and `web` is the session's page. */
export function builtinTools(options: SimulatedDeviceOptions & { web?: WebPage } = {}): RegisteredTool[] {
  const { web, ...device } = options;
  return frameworkTools(new SimulatedDevice(device), web);
}
