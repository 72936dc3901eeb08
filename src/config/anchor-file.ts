// `trails/config/trailblaze.yaml`, upstream's workspace anchor: which trailmaps are targets, the
// default target, toolsets written in place. Its `llm:` block is the agent's (llm/llm-config.ts reads it).

import * as z from "zod";
import type { ConfigProblem } from "../errors.ts";
import { isPlainMap } from "../core/describe.ts";
import { readToolsetConfig } from "./toolset-config.ts";
import type { ToolsetConfig } from "./toolset-config.ts";
import { validateWith } from "./validate.ts";
import { locate, problemAt } from "../core/yaml-file.ts";
import type { Where, YamlFile } from "../core/yaml-file.ts";

export interface WorkspaceAnchor {
  /** `targets:` — the target trailmap ids; undefined when omitted or empty (every target trailmap loads). */
  targets?: { id: string; where: Where }[];
  /** `defaults.target`: the target a session uses when neither a flag nor a trail names one. */
  defaultTarget?: { id: string; where: Where };
  /** Toolsets written in place under `toolsets:`. */
  toolsets: ToolsetConfig[];
  /** `toolsets:` entries `{ref: path}`: toolset files, relative to the folder holding trailblaze.yaml. */
  toolsetRefs: { path: string; where: Where }[];
  /** Where `targets:` is written (or the file's start). */
  where: Where;
}

const anchorSchema = z.strictObject({
  targets: z.array(z.string().min(1)).nullable().optional(),
  defaults: z
    .strictObject({
      target: z.string().min(1).optional(),
      llm: z.string().optional(),
      "max-llm-calls": z.number().int().positive().optional(),
    })
    .nullable()
    .optional(),
  toolsets: z.array(z.record(z.string(), z.unknown())).nullable().optional(),
  tools: z.array(z.unknown()).nullable().optional(),
  providers: z.array(z.unknown()).nullable().optional(),
  llm: z.unknown().optional(),
});

const refSchema = z.strictObject({ ref: z.string().min(1) });

/**
 * Validates a parsed trailblaze.yaml; never throws. An empty file is an empty workspace anchor.
 * `path` is the absolute file path (stored as the `file` of toolsets written in place). The value
 * holds what is valid even when there are problems, so the trailmaps it names are checked too.
 */
export function readAnchor(
  yaml: YamlFile,
  path: string,
): { value?: WorkspaceAnchor; problems: ConfigProblem[]; warnings: ConfigProblem[] } {
  const empty = yaml.data === null;
  const checked = empty ? { value: {}, problems: [] } : validateWith(anchorSchema, yaml);
  const problems = [...checked.problems];
  const warnings: ConfigProblem[] = [];
  // With a mistake elsewhere in the file, a valid targets: list still names the trailmaps to check.
  const targetsOnly = checked.value
    ? undefined
    : anchorSchema.pick({ targets: true }).safeParse(isPlainMap(yaml.data) ? { targets: yaml.data.targets } : {});
  if (!checked.value && !targetsOnly?.success) return { problems, warnings };
  const raw = (checked.value ?? targetsOnly!.data) as z.output<typeof anchorSchema>;

  const seen = new Set<string>();
  (raw.targets ?? []).forEach((id, i) => {
    if (seen.has(id)) problems.push(problemAt(yaml, ["targets", i], "value", `target ${id} is listed twice; remove one`));
    seen.add(id);
  });

  const toolsets: ToolsetConfig[] = [];
  const toolsetRefs: WorkspaceAnchor["toolsetRefs"] = [];
  (raw.toolsets ?? []).forEach((entry, i) => {
    const at = ["toolsets", i];
    if (isPlainMap(entry) && "ref" in entry) {
      const ref = validateWith(refSchema, yaml, at);
      problems.push(...ref.problems);
      if (ref.value) toolsetRefs.push({ path: ref.value.ref, where: locate(yaml, [...at, "ref"]) });
      return;
    }
    const inline = readToolsetConfig(yaml, path, at);
    problems.push(...inline.problems);
    if (inline.value) toolsets.push(inline.value);
  });

  (raw.tools ?? []).forEach((_, i) => {
    warnings.push(
      problemAt(
        yaml,
        ["tools", i],
        "value",
        "not loaded: tool entries here are JVM class-backed or YAML-composed tools, which this runtime does not run; " +
          "write a per-file tool under trailmaps/<id>/tools/ (listed in target.tools) or an MCP server instead",
      ),
    );
  });

  const targets =
    raw.targets && raw.targets.length > 0 ? raw.targets.map((id, i) => ({ id, where: locate(yaml, ["targets", i]) })) : undefined;
  const target = raw.defaults?.target;
  const value: WorkspaceAnchor = {
    ...(targets ? { targets } : {}),
    ...(target !== undefined ? { defaultTarget: { id: target, where: locate(yaml, ["defaults", "target"]) } } : {}),
    toolsets,
    toolsetRefs,
    where: locate(yaml, ["targets"]),
  };
  return { value, problems, warnings };
}
