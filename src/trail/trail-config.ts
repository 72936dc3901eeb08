// The `config:` block of a trail file: upstream's TrailConfig keys plus our
// `driver` / `agent`, with devices, args and skip normalized.

import * as z from "zod";
import type { ConfigProblem } from "../errors.ts";
import { findDriver } from "../core/drivers.ts";
import { unknownDriverMessage } from "../config/target-config.ts";
import { unknownNameMessage } from "../core/did-you-mean.ts";
import { isPlainMap, valueAt } from "../core/describe.ts";
import { validateWith } from "../config/validate.ts";
import { problemAt, sourceText } from "../core/yaml-file.ts";
import type { FieldPath, YamlFile } from "../core/yaml-file.ts";
import { TRAIL_ARG_TYPES } from "./trail-types.ts";
import type { Trail, TrailArg } from "./trail-types.ts";

/** A YAML scalar read as text (`priority: 1` and `priority: P1` are both fine). */
const text = z.union([z.string(), z.number(), z.boolean()]).transform(String);

const deviceDefinition = z.strictObject({
  driver: z.string().optional(),
  classifier: z.string().optional(),
  target: z.string().optional(),
  description: z.string().optional(),
  devices: z.record(z.string(), z.unknown()).optional(),
});

const argDeclaration = z.union([
  z.string(),
  z.strictObject({
    type: z.string().optional(),
    description: z.string().optional(),
    default: z.unknown().optional(),
    required: z.boolean().optional(),
  }),
]);

const trailConfigSchema = z.strictObject({
  id: text.optional(),
  title: text.optional(),
  description: z.string().nullable().optional(),
  context: z.string().nullable().optional(),
  priority: text.optional(),
  platform: z.string().optional(),
  target: z.string().optional(),
  driver: z.string().optional(),
  agent: z.enum(["host", "on-device"]).optional(),
  devices: z
    .record(z.string(), z.union([z.string(), deviceDefinition]))
    .nullable()
    .optional(),
  memory: z.record(z.string(), z.unknown()).nullable().optional(),
  args: z.record(z.string(), argDeclaration).nullable().optional(),
  skip: z
    .union([z.boolean(), z.string(), z.record(z.string(), z.string())])
    .nullable()
    .optional(),
  tags: z.array(text).nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
  source: z.strictObject({ type: z.string().optional(), reason: z.string().optional() }).nullable().optional(),
  /** Upstream's Electron launch settings; accepted so upstream files load, not used here. */
  electron: z.record(z.string(), z.unknown()).nullable().optional(),
});

type RawConfig = z.output<typeof trailConfigSchema>;
export type TrailConfigFields = Omit<Trail, "file" | "id" | "steps"> & { id?: string };

const ARG_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function driverProblems(yaml: YamlFile, at: FieldPath, raw: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if (!isPlainMap(raw)) return problems;
  if (typeof raw.driver === "string" && !findDriver(raw.driver)) {
    problems.push(problemAt(yaml, [...at, "driver"], "value", unknownDriverMessage(raw.driver)));
  }
  if (isPlainMap(raw.devices)) {
    for (const [key, value] of Object.entries(raw.devices)) {
      const path = [...at, "devices", key];
      if (typeof value === "string" && !findDriver(value)) {
        problems.push(problemAt(yaml, path, "value", unknownDriverMessage(value)));
      } else if (isPlainMap(value)) {
        if (value.devices !== undefined) {
          problems.push(
            problemAt(
              yaml,
              [...path, "devices"],
              "key",
              "multi-device configurations are not supported; declare one device per key (e.g. android-phone: { driver: ANDROID_ONDEVICE_ACCESSIBILITY })",
              path,
            ),
          );
        }
        if (typeof value.driver === "string" && !findDriver(value.driver)) {
          problems.push(problemAt(yaml, [...path, "driver"], "value", unknownDriverMessage(value.driver)));
        }
      }
    }
  }
  return problems;
}

function argProblems(yaml: YamlFile, at: FieldPath, raw: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const args = isPlainMap(raw) ? raw.args : undefined;
  if (!isPlainMap(args)) return problems;
  for (const [name, decl] of Object.entries(args)) {
    const path = [...at, "args", name];
    if (!ARG_NAME.test(name)) {
      problems.push(
        problemAt(
          yaml,
          path,
          "key",
          `arg name "${name}" is not an identifier; use letters, digits and _ (not starting with a digit) so {{args.${name}}} can refer to it`,
          [...at, "args"],
        ),
      );
    }
    const type = typeof decl === "string" ? decl : isPlainMap(decl) ? decl.type : undefined;
    if (typeof type === "string" && !(TRAIL_ARG_TYPES as readonly string[]).includes(type)) {
      const typePath = typeof decl === "string" ? path : [...path, "type"];
      problems.push(problemAt(yaml, typePath, "value", unknownNameMessage("arg type", type, TRAIL_ARG_TYPES)));
    }
    if (!isPlainMap(decl)) continue;
    const hasDefault = "default" in decl;
    if (hasDefault && decl.default === null) {
      problems.push(
        problemAt(
          yaml,
          [...path, "default"],
          "value",
          "default: is empty; args cannot be null: use default: '' for an empty string, or remove default: to make the arg required",
        ),
      );
    }
    if (decl.required === false && !hasDefault) {
      problems.push(
        problemAt(yaml, [...path, "required"], "value", "required: false needs a default: (an arg without a default is required)"),
      );
    }
    if (decl.required === true && hasDefault) {
      problems.push(
        problemAt(
          yaml,
          [...path, "required"],
          "value",
          "required: true contradicts default: (an arg with a default is optional); remove one of them",
        ),
      );
    }
  }
  return problems;
}

function toArgs(yaml: YamlFile, at: FieldPath, raw: RawConfig["args"]): Record<string, TrailArg> {
  const out: Record<string, TrailArg> = {};
  for (const [name, decl] of Object.entries(raw ?? {})) {
    if (typeof decl === "string") {
      out[name] = { type: decl, required: true };
      continue;
    }
    const type = decl.type ?? "string";
    const arg: TrailArg = { type, required: !("default" in decl) };
    if (decl.description !== undefined) arg.description = decl.description;
    if ("default" in decl) {
      const written = type === "string" ? sourceText(yaml, [...at, "args", name, "default"]) : undefined;
      arg.default = typeof decl.default !== "string" && written !== undefined ? written : decl.default;
    }
    out[name] = arg;
  }
  return out;
}

function toDevices(raw: RawConfig["devices"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw ?? {})) {
    const name = typeof value === "string" ? value : value.driver;
    if (name !== undefined) out[key] = findDriver(name)!.key;
  }
  return out;
}

/**
 * Validates the config block at `at` (e.g. `["config"]` or `[0, "config"]`).
 * `fields` is set only when there were no problems.
 */
export function readTrailConfig(yaml: YamlFile, at: FieldPath): { fields?: TrailConfigFields; problems: ConfigProblem[] } {
  const checked = validateWith(trailConfigSchema, yaml, at);
  const raw = valueAt(yaml.data, at);
  const problems = [...checked.problems, ...driverProblems(yaml, at, raw), ...argProblems(yaml, at, raw)];
  if (problems.length > 0 || !checked.value) return { problems };
  const c = checked.value;
  const fields: TrailConfigFields = {
    devices: toDevices(c.devices),
    memory: { ...(c.memory ?? {}) },
    args: toArgs(yaml, at, c.args),
    tags: c.tags ?? [],
  };
  if (c.id !== undefined) fields.id = c.id;
  if (c.title !== undefined) fields.title = c.title;
  if (c.description != null) fields.description = c.description;
  if (c.context != null) fields.context = c.context;
  if (c.priority !== undefined) fields.priority = c.priority;
  if (c.platform !== undefined) fields.platform = c.platform;
  if (c.target !== undefined) fields.target = c.target;
  if (c.driver !== undefined) fields.driver = findDriver(c.driver)!.key;
  if (c.agent !== undefined) fields.agent = c.agent;
  if (typeof c.skip === "boolean" || (typeof c.skip === "string" && c.skip.trim() !== "")) fields.skip = c.skip;
  if (isPlainMap(c.skip)) fields.skipByDevice = c.skip as Record<string, string>;
  if (c.metadata != null) fields.metadata = c.metadata;
  if (c.source != null) fields.source = c.source;
  return { fields, problems: [] };
}
