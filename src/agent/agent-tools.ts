// The tools the agent offers the model: the framework tools a step is written with (taps by text
// or selector rather than by snapshot ref or point, so a recording still replays when the layout
// moves), every tool of the target's servers and the app map's shortcuts, each with its JSON
// schema. A tool whose `_meta["trailblaze/isForLlm"]` is false is never offered, nor are the tools
// that need an agent of their own (assertWithAi, rememberWithAi).

import type { OfferedTool } from "../llm/ask-model.ts";
import type { RegisteredTool, ToolRegistry } from "../registry/registry.ts";
import type { ScreenState } from "../screen/screen-state.ts";

/** The framework tools offered, in the order the model reads them. */
export const AGENT_FRAMEWORK_TOOLS: readonly string[] = [
  // Mobile: act on what the screen shows.
  "tapOnElementWithText",
  "tapOnElementWithAccessibilityText",
  "tapOnElementBySelector",
  "longPressOnElementWithText",
  "tapOnPoint",
  "inputText",
  "eraseText",
  "clearText",
  "hideKeyboard",
  "pressBack",
  "pressKey",
  "swipe",
  "scrollUntilTextIsVisible",
  "launchApp",
  "openUrl",
  "wait",
  // Mobile: check it.
  "assertVisibleWithText",
  "assertNotVisibleWithText",
  "assertVisibleBySelector",
  "assertNotVisibleBySelector",
  "assertVisibleWithAccessibilityText",
  "assertWaypoint",
  // Web, on the real page or the simulated one.
  "web_navigate",
  "web_click",
  "web_type",
  "web_selectOption",
  "web_pressKey",
  "web_hover",
  "web_scroll",
  "web_wait",
  "web_waitForUrl",
  "web_verifyTextVisible",
  "web_verifyElementVisible",
  "web_verifyValue",
  "web_verifyListVisible",
  // Memory.
  "rememberText",
  "rememberNumber",
  "assertEquals",
  "assertNotEquals",
  // The end of an objective.
  "objectiveStatus",
];

/** The tool that ends an objective. */
export const OBJECTIVE_STATUS = "objectiveStatus";

/** Whether a call checks the screen or a value (a step that verifies must end with one). */
export function asserts(tool: string): boolean {
  return /^(assert|web_verify|web_assert)/.test(tool);
}

/**
 * The tools offered now. On a simulated app map whose waypoint is known, a shortcut is offered only
 * from its own `from` waypoint (anywhere else it fails, and 60 of them would be most of a request).
 */
export function offeredTools(registry: ToolRegistry, screen?: ScreenState): RegisteredTool[] {
  const framework = new Set(AGENT_FRAMEWORK_TOOLS);
  const here = screen?.waypoint;
  const elsewhere = new Set(here === undefined ? [] : (screen?.map?.shortcuts ?? []).filter((s) => s.from !== here).map((s) => s.id));
  const tools = registry
    .list()
    .filter((tool) => tool.meta.isForLlm !== false && (tool.source !== "builtin" || framework.has(tool.name)) && !elsewhere.has(tool.name));
  const rank = (tool: RegisteredTool) => (tool.source === "builtin" ? AGENT_FRAMEWORK_TOOLS.indexOf(tool.name) : -1);
  // The target's own tools and the map's shortcuts first: they say what this app can do.
  return tools.sort((a, b) => rank(a) - rank(b));
}

export function toOffered(tool: RegisteredTool): OfferedTool {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}
