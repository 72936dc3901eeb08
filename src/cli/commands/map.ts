// `trailblaze map`: an app map at a glance — its waypoints, their captures and the shortcuts
// between them, with `check`'s findings — as an outline on stdout, or as a page (--html FILE).

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { UsageError } from "../../errors.ts";
import { readAppMap } from "../../screen/app-map.ts";
import { checkAppMap, type MapFinding } from "../../screen/check-app-map.ts";
import { mapHtml } from "../../screen/map-html.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { terminalText } from "../../core/terminal-text.ts";

const HELP = `Usage: trailblaze map <map dir> [--html FILE]

Reads an app map (waypoints/*.waypoint.yaml with their *.example.json captures, and
shortcuts/*.shortcut.yaml) and shows it, with what \`check\` finds in it:
  - without --html, an outline: each waypoint, whether it has a capture, and the shortcuts
    that leave it; then the findings;
  - with --html FILE, one self-contained page: the map as a graph (each waypoint a node with
    its screenshot, or its wireframe where there is none; each shortcut and trailhead a
    labelled arrow) to pan, zoom and search by id; a click on a waypoint opens its card (the
    screenshot with the nodes its shortcuts tap marked, its selectors, its shortcuts, the
    findings on it). Every card is listed below the graph too.

Options:
  --html FILE           write the page to FILE
  -h, --help            show this help

Exit codes: 0 the map was read (findings are shown, not failed on: \`trailblaze check\` fails on
them) · 2 not an app map, or a bad flag.`;

function findingLine(f: MapFinding): string {
  const where = f.file ? `${f.file}${f.line ? `:${f.line}:${f.col ?? 0}` : ""}: ` : "";
  return `  ${f.severity === "error" ? "✗" : "⚠"} ${where}${f.message}`;
}

export const mapCommand: Command = {
  name: "map",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("map", argv, { html: { type: "string" } });
    if (positionals.length !== 1) {
      throw new UsageError(
        `map: expected one app map folder, got ${positionals.length === 0 ? "none" : positionals.join(" ")}\nRun \`trailblaze map --help\` for usage.`,
      );
    }
    const dir = resolve(io.cwd, positionals[0]!);
    const map = await readAppMap(dir, io.cwd);
    const report = { ...(await checkAppMap(dir, io.cwd)), dir: positionals[0]! };
    if (values.html !== undefined) {
      const target = resolve(io.cwd, values.html);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, await mapHtml(map, report));
      io.stdout(
        `map page written to ${values.html} (${map.waypoints.size} waypoints, ${map.shortcuts.length} shortcuts, ${report.findings.length} findings)\n`,
      );
      return 0;
    }
    const lines = [`${positionals[0]}: ${map.waypoints.size} waypoints, ${map.shortcuts.length} shortcuts`];
    for (const waypoint of map.waypoints.values()) {
      lines.push(`  ${waypoint.id}${waypoint.capture ? "" : " (no capture)"}`);
      for (const s of map.outgoing.get(waypoint.id) ?? []) lines.push(`    → ${s.to}  (${s.id})`);
    }
    const stray = map.shortcuts.filter((s) => !map.waypoints.has(s.from));
    for (const s of stray) lines.push(`  ${s.from} (not in the map)`, `    → ${s.to}  (${s.id})`);
    lines.push(
      report.findings.length === 0
        ? "check: no findings"
        : `check: ${report.summary.errors} error(s), ${report.summary.warnings} warning(s)`,
    );
    lines.push(...report.findings.map(findingLine));
    io.stdout(terminalText(`${lines.join("\n")}\n`));
    return 0;
  },
};
