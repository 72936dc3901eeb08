// The framework's built-in tools, available in every session.

import type { RegisteredTool } from "../registry/registry.ts";
import { coreTools } from "./core-tools.ts";

export function builtinTools(): RegisteredTool[] {
  return [...coreTools()];
}
