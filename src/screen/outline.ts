// A screen as text: one header line (file, format, node count, size), then one node a line,
// indented by depth. `trailblaze screen` prints it; `trailblaze mcp` shows it to a recording agent.

import { describeNode, type Screen } from "./screen-model.ts";

export function screenOutline(screen: Screen): string {
  const what =
    screen.format === "waypointCapture"
      ? `waypoint capture${screen.waypointId ? ` of ${screen.waypointId}` : ""}`
      : screen.format === "viewHierarchy"
        ? "view hierarchy"
        : "TrailblazeNode tree";
  const ids = screen.ids === "capture" ? "ids: the capture's nodeIds" : "ids: assigned in document order, as the capture's are not unique";
  const lines = [`${screen.file}: ${what}, ${screen.nodes.length} nodes, ${screen.width}x${screen.height} (${ids})`];
  for (const node of screen.nodes) lines.push(`${"  ".repeat(node.depth + 1)}${describeNode(node)}`);
  return `${lines.join("\n")}\n`;
}
