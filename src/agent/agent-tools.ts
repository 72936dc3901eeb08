// The tools the agent offers the model, as upstream's agent chooses them
// (TrailblazeToolRepo.getToolDescriptorsForStep): the built-ins of every framework toolset the
// session's driver has (config/framework-toolsets/, read as data), less those a built-in's row
// hides from models (core/builtin-tools.ts `llm: false`: the by-text and by-selector forms a
// recording keeps while the model acts by ref); then every tool of the target's servers and the
// app map's shortcuts, each with its JSON schema. A `- verify:` step is offered the driver's
// verification toolsets and objectiveStatus alone. A tool whose `_meta["trailblaze/isForLlm"]` is
// false is never offered.

import { surfacesToLlm } from "../core/builtin-tools.ts";
import { frameworkToolsets, isVerificationToolset, toolsetServesDriver } from "../config/framework.ts";
import type { OfferedTool } from "../llm/ask-model.ts";
import type { RegisteredTool, ToolRegistry } from "../registry/registry.ts";
import type { ScreenState } from "../screen/screen-state.ts";

/** The tool that ends an objective. */
export const OBJECTIVE_STATUS = "objectiveStatus";

/** Whether a call checks the screen or a value (a step that verifies must end with one). */
export function asserts(tool: string): boolean {
  return /^(assert|web_verify|web_assert)/.test(tool);
}

interface OfferContext {
  /** The session's driver: its yaml key and platform (`SessionSpec.driver`). */
  driver: { key: string; platform: string };
  /** A `- verify:` step (or `trailblaze verify`): the verification toolsets and objectiveStatus alone. */
  verify: boolean;
  /** The simulated screen, for the app map's waypoint. */
  screen?: ScreenState | undefined;
}

/**
 * The framework tools offered on `driver`, in the toolsets' order (each once): every toolset that
 * serves the driver, or for a verify step its verification toolsets, with objectiveStatus last.
 */
export function frameworkToolNames(driver: OfferContext["driver"], verify: boolean): string[] {
  const names = new Set<string>();
  for (const toolset of frameworkToolsets()) {
    if (!toolsetServesDriver(toolset, driver) || (verify && !isVerificationToolset(toolset.id))) continue;
    for (const tool of toolset.tools) if (surfacesToLlm(tool)) names.add(tool);
  }
  names.delete(OBJECTIVE_STATUS);
  return [...names, OBJECTIVE_STATUS];
}

/**
 * The tools offered now. On a simulated app map whose waypoint is known, a shortcut is offered only
 * from its own `from` waypoint (anywhere else it fails, and 60 of them would be most of a request).
 */
export function offeredTools(registry: ToolRegistry, context: OfferContext): RegisteredTool[] {
  const builtins: RegisteredTool[] = [];
  for (const name of frameworkToolNames(context.driver, context.verify)) {
    const tool = registry.get(name);
    if (tool?.source === "builtin" && tool.meta.isForLlm !== false) builtins.push(tool);
  }
  if (context.verify) return builtins;
  const here = context.screen?.waypoint;
  const elsewhere = new Set(
    here === undefined ? [] : (context.screen?.map?.shortcuts ?? []).filter((s) => s.from !== here).map((s) => s.id),
  );
  // The target's own tools and the map's shortcuts first: they say what this app can do.
  const own = registry.list().filter((tool) => tool.source !== "builtin" && tool.meta.isForLlm !== false && !elsewhere.has(tool.name));
  return [...own, ...builtins];
}

export function toOffered(tool: RegisteredTool): OfferedTool {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}
