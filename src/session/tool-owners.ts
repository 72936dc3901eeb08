// Which other targets of a workspace have a tool a session lacks, known from the config alone: a
// target's per-file tools and its toolsets' lists, else the `<targetId>_` prefix its servers'
// tools are named with. No other target's server is started to find out.

import type { TargetConfig, Workspace } from "../config/workspace.ts";
import { splitScopedName } from "../core/tool-names.ts";
import { declaredTools } from "./session-spec.ts";

interface ToolOwners {
  /** The targets, by id. */
  targets: string[];
  /** `shop_greet is a tool of target shop`, with how it is known when only the name says so. */
  text: string;
}

/**
 * The other targets that have `name`, or undefined when none is known to. The prefix alone says
 * nothing when the session's own tools (`sessionTools`) use it too: the name is then more likely a
 * typo of one of them.
 */
export function toolOwners(
  workspace: Workspace,
  current: TargetConfig,
  name: string,
  sessionTools: readonly string[],
): ToolOwners | undefined {
  const others = [...workspace.targets.values()].filter((target) => target.id !== current.id);
  const declaring = others.filter((target) => declaredTools(workspace, target).has(name)).map((target) => target.id);
  if (declaring.length > 0)
    return { targets: declaring, text: `${name} is a tool of target${declaring.length === 1 ? "" : "s"} ${declaring.join(", ")}` };
  const prefix = splitScopedName(name)?.trailmap;
  if (prefix === undefined || sessionTools.some((tool) => splitScopedName(tool)?.trailmap === prefix)) return undefined;
  const named = others.find((target) => target.id === prefix && target.mcpServers.length > 0);
  return named && { targets: [named.id], text: `${name} is a tool of target ${named.id}, by its name (${named.id}_…)` };
}

/** `--target shop`, or `--target shop or --target wiki`. */
export function targetFlags(owners: ToolOwners): string {
  return owners.targets.map((id) => `--target ${id}`).join(" or ");
}
