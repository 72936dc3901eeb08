// `trailblaze tools`: start a session, list its registered and skipped
// tools, tear it down.

import { UsageError } from "../../errors.ts";
import type { Session } from "../../session/session.ts";
import { SESSION_FLAG_OPTIONS, SESSION_FLAGS_HELP } from "../session-flags.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { openCommandSession } from "../open-session.ts";
import { formatTable } from "../format.ts";
import { terminalText } from "../../core/terminal-text.ts";

const HELP = `Usage: trailblaze tools [session flags] [--json]

Starts the target's MCP servers for one session (target, driver, agent mode), lists the
tools that registered and the ones a _meta filter skipped, then stops every server. A server
that runs in QuickJS is listed from .cache/trailblaze-listings/ while its bundle is unchanged,
without running it again (same output).

Options:
  --json                print one JSON document: {session, tools, skipped}
  -h, --help            show this help

${SESSION_FLAGS_HELP}`;

function toolsJson(session: Session): Record<string, unknown> {
  const { spec, registry } = session;
  return {
    session: { target: spec.target.id, driver: spec.driver.key, platform: spec.driver.platform.toLowerCase(), agent: spec.agent },
    tools: registry.list().map((tool) => {
      const toolset = registry.toolsetsOf(tool.name)[0];
      return {
        name: tool.name,
        description: tool.description,
        source: tool.source,
        transport: tool.transport,
        ...(toolset ? { toolset } : {}),
        meta: tool.meta,
        inputSchema: tool.inputSchema,
      };
    }),
    skipped: registry.skipped().map((s) => ({ name: s.name, source: s.source, reason: s.reason, detail: s.detail })),
    toolsets: registry.toolsets().map((t) => ({
      id: t.id,
      active: t.active,
      origin: t.origin,
      tools: [...t.tools],
      ...(t.inactiveReason ? { inactiveReason: t.inactiveReason } : {}),
    })),
  };
}

function toolsText(session: Session): string {
  const { spec, registry } = session;
  const lines = [
    `Session: target ${spec.target.id} · driver ${spec.driver.key} (${spec.driver.platform.toLowerCase()}) · agent ${spec.agent}`,
    "",
    formatTable(
      ["TOOL", "SOURCE", "TRANSPORT", "TOOLSET", "DESCRIPTION"],
      registry
        .list()
        .map((t) => [t.name, t.source, t.transport, registry.toolsetsOf(t.name)[0] ?? "-", t.description.split("\n")[0] ?? ""]),
    ),
  ];
  const skipped = registry.skipped();
  if (skipped.length > 0) {
    lines.push("", `Skipped for this session (${skipped.length}):`);
    lines.push(
      formatTable(
        ["TOOL", "SOURCE", "EXCLUDED BY", "WHY"],
        skipped.map((s) => [s.name, s.source, s.reason, s.detail]),
      ),
    );
  }
  const toolsets = registry.toolsets();
  if (toolsets.length > 0) {
    lines.push("", "Toolsets:");
    for (const t of toolsets) {
      const state = t.active ? "active" : `inactive (${t.inactiveReason})`;
      lines.push(`  ${t.id} [${state}] from ${t.origin}: ${[...t.tools].join(", ") || "(no tools)"}`);
    }
  }
  lines.push("", `${registry.list().length} tool(s) registered, ${skipped.length} skipped.`);
  return `${lines.join("\n")}\n`;
}

export const toolsCommand: Command = {
  name: "tools",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("tools", argv, { ...SESSION_FLAG_OPTIONS, json: { type: "boolean" } });
    if (positionals.length > 0) throw new UsageError(`tools: unexpected argument "${positionals[0]}"; see --help`);
    await using opened = await openCommandSession(values, io, { listOnly: true });
    const { session } = opened;
    io.stdout(values.json ? `${JSON.stringify(toolsJson(session), null, 2)}\n` : terminalText(toolsText(session)));
    return 0;
  },
};
