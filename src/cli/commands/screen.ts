// `trailblaze screen`: look at a captured screen offline — its outline, what selectors
// resolve to, and whether it satisfies a waypoint — to debug a selector without a device.

import { mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { SelectorError, UsageError } from "../../errors.ts";
import { closestNodes, wantedStrings } from "../../screen/closest-candidates.ts";
import { loadCapture } from "../../screen/load-capture.ts";
import { resolveSelector, type Resolution } from "../../screen/resolve-selector.ts";
import { describeNode, type Screen } from "../../screen/screen-model.ts";
import { screenOutline } from "../../screen/outline.ts";
import { parseSelector, type Selector } from "../../screen/selector.ts";
import { checkWaypoint, loadWaypoint, type WaypointCheck } from "../../screen/waypoint.ts";
import { wireframeOf, withScreenshot } from "../../screen/wireframe.ts";
import { wireframeSvg } from "../../screen/wireframe-svg.ts";
import { parseCommandArgs } from "../args.ts";
import type { Command } from "../command.ts";
import { terminalText } from "../../core/terminal-text.ts";

const HELP = `Usage: trailblaze screen <capture.json> [--selector JSON]... [--waypoint FILE] [--json] [--svg FILE]

Loads a captured screen and, without a device:
  - prints its outline, one node a line, indented by depth: id, class, text, id, bounds;
  - with --selector, resolves each selector on it: singleMatch, multipleMatches or noMatch,
    with the matching nodes (first = the one a tap uses) or, for no match, the closest ones;
  - with --waypoint, checks it against the waypoint's required and forbidden selectors for
    the capture's platform;
  - with --svg, writes the screen as an SVG picture: the capture's own screenshot when one is
    beside it (<name>.example.webp or .png beside <name>.example.json, embedded as a data: URL
    up to 512 KB) under a <rect data-node-id> per node, or the wireframe alone (with labels for
    text) when there is none; data-match on the nodes the --selector(s) match, and with
    --waypoint data-required / data-forbidden on the required nodes found and the forbidden
    ones present.
Captures: a TrailblazeNode tree, a legacy view hierarchy (Maestro fields, x1/y1/x2/y2), or a
waypoint capture (*.example.json). Selectors: a node selector as recordings write under
nodeSelector ({"androidAccessibility":{"textRegex":"Log in"},"childOf":{…},"index":0}), or a
legacy one as older recordings write under selector ({"textRegex":"Log in","index":"1"}).

Options:
  --selector JSON       a selector to resolve (repeatable)
  --waypoint FILE       a *.waypoint.yaml to check the capture against
  --svg FILE            write the picture to FILE (instead of the outline on stdout)
  --json                print one JSON document: {screen: {nodes, width, height}, matches:
                        [{selector, kind, nodeIds}], waypoint: {id, ok, required: [{description,
                        kind, nodeIds}], forbidden: […]}} (matches and waypoint when asked for)
  -h, --help            show this help

Exit codes: 0 ok (a selector that matches nothing is still 0) · 1 the capture does not satisfy
the --waypoint · 2 usage error, or a bad capture, selector or waypoint file.`;

function formatMatch(screen: Screen, raw: string, selector: Selector, result: Resolution, n: number): string {
  const lines = [
    `selector ${n}: ${raw}`,
    `  ${result.kind}${result.nodes.length > 1 ? ` (${result.nodes.length} nodes; a tap uses the first)` : ""}`,
  ];
  for (const node of result.nodes) lines.push(`    ${describeNode(node)}`);
  if (result.kind === "noMatch") {
    const near = closestNodes(screen, wantedStrings(selector));
    lines.push(near.length > 0 ? `  closest: ${near.map(describeNode).join("; ")}` : "  no node comes close");
  }
  return `${lines.join("\n")}\n`;
}

function formatWaypoint(check: WaypointCheck): string {
  if (check.skipped) return `waypoint ${check.id}: ✗ not checked: ${check.skipped}\n`;
  const lines = [`waypoint ${check.id} (${check.platform}): ${check.ok ? "✓ satisfied" : "✗ not satisfied"}`];
  for (const r of check.required)
    lines.push(
      `  ${r.ok ? "✓" : "✗"} required  ${r.description}: ${r.nodeIds.length === 0 ? "no match" : r.nodeIds.map((id) => `#${id}`).join(", ")}`,
    );
  for (const r of check.forbidden)
    lines.push(
      `  ${r.ok ? "✓" : "✗"} forbidden ${r.description}: ${r.nodeIds.length === 0 ? "absent" : `present at ${r.nodeIds.map((id) => `#${id}`).join(", ")}`}`,
    );
  return `${lines.join("\n")}\n`;
}

export const screenCommand: Command = {
  name: "screen",
  help: HELP,
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs("screen", argv, {
      selector: { type: "string", multiple: true },
      waypoint: { type: "string" },
      json: { type: "boolean" },
      svg: { type: "string" },
    });
    if (positionals.length !== 1) {
      throw new UsageError(
        `screen: expected one capture file, got ${positionals.length === 0 ? "none" : positionals.join(" ")}\nRun \`trailblaze screen --help\` for usage.`,
      );
    }
    const file = positionals[0]!;
    const screen = await loadCapture(resolve(io.cwd, file), file);
    const rawSelectors = values.selector ?? [];
    const selectors = rawSelectors.map((text, i) => {
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (error) {
        throw new SelectorError(
          `--selector #${i + 1}`,
          `not valid JSON (${error instanceof Error ? error.message : String(error)}): ${text}`,
        );
      }
      return { text, raw, selector: parseSelector(raw, `--selector #${i + 1}`) };
    });
    const waypoint = values.waypoint !== undefined ? await loadWaypoint(resolve(io.cwd, values.waypoint)) : undefined;
    const matches = selectors.map((s) => ({ ...s, result: resolveSelector(screen, s.selector) }));
    const check = waypoint ? checkWaypoint(screen, waypoint) : undefined;
    let written: string | undefined;
    if (values.svg !== undefined) {
      const target = resolve(io.cwd, values.svg);
      const marked = new Set(matches.flatMap((m) => m.result.nodes.map((n) => n.id)));
      const required = (check?.required ?? []).filter((r) => r.ok).flatMap((r) => r.nodeIds);
      const forbidden = (check?.forbidden ?? []).flatMap((r) => r.nodeIds);
      const picture = withScreenshot(wireframeOf(screen), screen);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, `<?xml version="1.0" encoding="UTF-8"?>\n${wireframeSvg(picture, { matched: marked, required, forbidden })}\n`);
      const what = picture.screenshot !== undefined ? `screenshot ${basename(screen.screenshot!)} with the wireframe over it` : "wireframe";
      const note = picture.screenshotNote !== undefined ? `; ${picture.screenshotNote}` : "";
      written = `${what} written to ${values.svg} (${screen.nodes.length} nodes, ${new Set([...marked, ...required, ...forbidden]).size} marked${note})\n`;
    }
    if (values.json) {
      const doc: Record<string, unknown> = { screen: { nodes: screen.nodes.length, width: screen.width, height: screen.height } };
      if (selectors.length > 0)
        doc.matches = matches.map((m) => ({ selector: m.raw, kind: m.result.kind, nodeIds: m.result.nodes.map((n) => n.id) }));
      if (values.svg !== undefined) doc.svg = values.svg;
      if (check) {
        const strip = ({ description, kind, nodeIds }: WaypointCheck["required"][number]) => ({ description, kind, nodeIds });
        doc.waypoint = {
          id: check.id,
          ok: check.ok,
          required: check.required.map(strip),
          forbidden: check.forbidden.map(strip),
          ...(check.skipped ? { skipped: check.skipped } : {}),
        };
      }
      io.stdout(`${JSON.stringify(doc, null, 2)}\n`);
    } else {
      const parts: string[] = [];
      if (written) parts.push(written);
      else if (selectors.length === 0 && !check) parts.push(screenOutline(screen));
      matches.forEach((m, i) => parts.push(formatMatch(screen, m.text, m.selector, m.result, i + 1)));
      if (check) parts.push(formatWaypoint(check));
      io.stdout(terminalText(parts.join("\n")));
    }
    return check && !check.ok ? 1 : 0;
  },
};
