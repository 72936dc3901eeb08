// The framework's built-in tools, available in every session.

import type { RegisteredTool } from "../registry/registry.ts";
import { coreTools } from "./core-tools.ts";
import { simulatedDeviceTools } from "./simulated-device.ts";

/** A fresh set per session: the simulated device keeps per-session state. */
export function builtinTools(): RegisteredTool[] {
  return [...coreTools(), ...simulatedDeviceTools()];
}
