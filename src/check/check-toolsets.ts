// `check`'s judgement of toolsets across every session: toolset entries no server advertises,
// tool_sets ids nothing defines, excluded_tools entries that exclude nothing.

import { didYouMean } from "../core/did-you-mean.ts";
import { unknownToolsetRefs, type TargetConfig, type ToolsetConfig } from "../config/workspace.ts";
import type { Findings } from "./check-findings.ts";

/**
 * Toolset entries that no session registered or skipped, target tool_sets ids nothing defines,
 * and excluded_tools entries no session saw advertised. `unstarted` names targets whose servers
 * did not run in this check (they failed to start, or `--target` left them out): their tools are
 * unknown, so a missing toolset entry is then only a warning.
 */
export function checkToolsets(
  checked: { targets: TargetConfig[]; toolsets: ToolsetConfig[] },
  seenTools: Set<string>,
  seenToolsets: Set<string>,
  unstarted: Set<string>,
  findings: Findings,
): void {
  const caveat =
    unstarted.size > 0 ? ` (not certain: ${[...unstarted].join(", ")} did not run in this check, so their tools are unknown)` : "";
  for (const toolset of checked.toolsets) {
    toolset.tools.forEach((name, i) => {
      if (seenTools.has(name)) return;
      const where = toolset.toolWheres[i] ?? toolset.where;
      findings.problem(caveat ? "warning" : "error", "toolset", {
        ...where,
        path: `tools[${i}]`,
        message: `toolset ${toolset.id} lists ${name}, which no server of any target advertises${didYouMean(name, seenTools)}${caveat}`,
      });
    });
  }
  for (const problem of unknownToolsetRefs(checked.targets, seenToolsets)) findings.problem("warning", "toolset", problem);
  for (const target of checked.targets) {
    for (const [platform, section] of Object.entries(target.platforms)) {
      section?.excludedTools?.forEach((name, i) => {
        if (seenTools.has(name)) return;
        findings.problem("warning", "toolset", {
          ...(section.excludedToolWheres?.[i] ?? section.where ?? target.where),
          // A trailmap's entry may be its own (target.platforms) or a dependency's (defaults): the location tells.
          path: target.trailmap === undefined ? `platforms.${platform}.excluded_tools` : "excluded_tools",
          message: `target ${target.id} excludes ${name} on ${platform}, but no source of any session advertises a tool of that name, so it excludes nothing${didYouMean(name, seenTools)}${caveat}`,
        });
      });
    }
  }
}
