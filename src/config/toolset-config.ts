// Toolset YAML (`trailblaze-config/toolsets/<id>.yaml`, upstream ToolSetYamlConfig):
// schema, platform/driver normalization and the ToolsetConfig type.

import * as z from "zod";
import type { ConfigProblem } from "../errors.ts";
import { findDriver, parsePlatform } from "../core/drivers.ts";
import type { Platform } from "../core/drivers.ts";
import { unknownNameMessage } from "../core/did-you-mean.ts";
import { valueAt } from "../core/describe.ts";
import { PLATFORM_KEYS, unknownDriverMessage } from "./target-config.ts";
import { validateWith } from "./validate.ts";
import type { Validated } from "./validate.ts";
import { locate, problemAt } from "../core/yaml-file.ts";
import type { FieldPath, Where, YamlFile } from "../core/yaml-file.ts";

export interface ToolsetConfig {
  id: string;
  /** "" when the file has none. */
  description: string;
  /** Optional gate: the toolset applies only on these platforms. */
  platforms?: Platform[];
  /** Optional gate: driver yaml keys (normalized from enum names). */
  drivers?: string[];
  alwaysEnabled: boolean;
  tools: string[];
  /** Where each entry of `tools` is written, in the same order. */
  toolWheres: Where[];
  /** Absolute path of the YAML file. */
  file: string;
  /** Where `id:` is written (file as shown in messages). */
  where: Where;
}

const toolsetSchema = z.strictObject({
  id: z.string().min(1),
  description: z.string().nullable().optional(),
  platforms: z.array(z.string()).nullable().optional(),
  drivers: z.array(z.string()).nullable().optional(),
  always_enabled: z.boolean().optional(),
  tools: z.array(z.string()).nullable().optional(),
});

function nameProblems(yaml: YamlFile, at: FieldPath): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const platforms = valueAt(yaml.data, [...at, "platforms"]);
  if (Array.isArray(platforms)) {
    platforms.forEach((p, i) => {
      if (typeof p === "string" && !parsePlatform(p)) {
        problems.push(problemAt(yaml, [...at, "platforms", i], "value", unknownNameMessage("platform", p, PLATFORM_KEYS)));
      }
    });
  }
  const drivers = valueAt(yaml.data, [...at, "drivers"]);
  if (Array.isArray(drivers)) {
    drivers.forEach((d, i) => {
      if (typeof d === "string" && !findDriver(d)) problems.push(problemAt(yaml, [...at, "drivers", i], "value", unknownDriverMessage(d)));
    });
  }
  return problems;
}

/**
 * Validates a parsed toolset file (or, with `at`, a toolset written inline in a larger file, as
 * `trailblaze.yaml` `toolsets:` allows); never throws. `path` is stored in `ToolsetConfig.file`.
 */
export function readToolsetConfig(yaml: YamlFile, path: string, at: FieldPath = []): Validated<ToolsetConfig> {
  const checked = validateWith(toolsetSchema, yaml, at);
  const problems = [...checked.problems, ...nameProblems(yaml, at)];
  if (problems.length > 0 || !checked.value) return { problems };
  const raw = checked.value;
  const value: ToolsetConfig = {
    id: raw.id,
    description: raw.description ?? "",
    ...(raw.platforms ? { platforms: [...new Set(raw.platforms.map((p) => parsePlatform(p)!))] } : {}),
    ...(raw.drivers ? { drivers: [...new Set(raw.drivers.map((d) => findDriver(d)!.key))] } : {}),
    alwaysEnabled: raw.always_enabled ?? false,
    tools: raw.tools ?? [],
    toolWheres: (raw.tools ?? []).map((_, i) => locate(yaml, [...at, "tools", i])),
    file: path,
    where: locate(yaml, [...at, "id"]),
  };
  return { value, problems: [] };
}
