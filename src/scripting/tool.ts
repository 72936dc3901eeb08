// TrailblazeTool: the MCP `Tool` (as listed by tools/list) with `_meta` typed for Trailblaze keys.

import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { TrailblazeToolMeta } from "./meta.ts";

export type TrailblazeTool = Omit<Tool, "_meta"> & { _meta?: TrailblazeToolMeta & Record<string, unknown> };
