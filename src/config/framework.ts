// Names upstream's framework defines in its own resources (trailblaze-models' trails/config): the
// library trailmaps a workspace may depend on without a folder of its own, and the framework
// toolsets, kept as data in framework-toolsets/ (upstream's toolset format: membership, `drivers:`,
// `always_enabled`), which targets list under tool_sets and the built-in agent offers by driver.
// The tools themselves are this runtime's built-ins.
//
// The files are imported as text (Bun inlines them into the precompiled CLI, so no path is read at
// run time) and parsed on first use with the reader of a workspace's own toolsets.

import { ConfigError } from "../errors.ts";
import { parseYaml } from "../core/yaml-file.ts";
import androidFramework from "./framework-toolsets/android_framework.yaml" with { type: "text" };
import androidPrimitives from "./framework-toolsets/android_primitives.yaml" with { type: "text" };
import composeCore from "./framework-toolsets/compose_core.yaml" with { type: "text" };
import composeVerification from "./framework-toolsets/compose_verification.yaml" with { type: "text" };
import coreInteraction from "./framework-toolsets/core_interaction.yaml" with { type: "text" };
import memory from "./framework-toolsets/memory.yaml" with { type: "text" };
import meta from "./framework-toolsets/meta.yaml" with { type: "text" };
import mobilePrimitives from "./framework-toolsets/mobile_primitives.yaml" with { type: "text" };
import navigation from "./framework-toolsets/navigation.yaml" with { type: "text" };
import observation from "./framework-toolsets/observation.yaml" with { type: "text" };
import verification from "./framework-toolsets/verification.yaml" with { type: "text" };
import webCore from "./framework-toolsets/web_core.yaml" with { type: "text" };
import webFramework from "./framework-toolsets/web_framework.yaml" with { type: "text" };
import webVerification from "./framework-toolsets/web_verification.yaml" with { type: "text" };
import { readToolsetConfig, type ToolsetConfig } from "./toolset-config.ts";

/** Library trailmaps built into the framework: a dependency on one needs no trailmaps/<id>/ folder. */
export const FRAMEWORK_TRAILMAPS: ReadonlySet<string> = new Set(["trailblaze", "mobile", "android"]);

/** Each toolset file's text by its file name, in the order upstream's catalog lists them (by id). */
const FILES: Readonly<Record<string, string>> = {
  "android_framework.yaml": androidFramework,
  "android_primitives.yaml": androidPrimitives,
  "compose_core.yaml": composeCore,
  "compose_verification.yaml": composeVerification,
  "core_interaction.yaml": coreInteraction,
  "memory.yaml": memory,
  "meta.yaml": meta,
  "mobile_primitives.yaml": mobilePrimitives,
  "navigation.yaml": navigation,
  "observation.yaml": observation,
  "verification.yaml": verification,
  "web_core.yaml": webCore,
  "web_framework.yaml": webFramework,
  "web_verification.yaml": webVerification,
};

let toolsets: readonly ToolsetConfig[] | undefined;

/** The framework's toolsets, read once per process. A problem in them is a bug of this package: thrown. */
export function frameworkToolsets(): readonly ToolsetConfig[] {
  if (toolsets === undefined) {
    toolsets = Object.entries(FILES).map(([name, text]) => {
      const file = `src/config/framework-toolsets/${name}`;
      const read = readToolsetConfig(parseYaml(file, text), file);
      if (!read.value) throw new ConfigError(read.problems);
      return read.value;
    });
  }
  return toolsets;
}

/** Whether `id` is one of the framework's toolsets: a target's tool_sets may name it with no toolsets/<id>.yaml. */
export function isFrameworkToolset(id: string): boolean {
  return frameworkToolsets().some((toolset) => toolset.id === id);
}

/** Whether `toolset` applies to a session on `driver` (a yaml key) of `platform`: no gate, or the gate names it. */
export function toolsetServesDriver(toolset: ToolsetConfig, driver: { key: string; platform: string }): boolean {
  if (toolset.drivers && toolset.drivers.length > 0 && !toolset.drivers.includes(driver.key)) return false;
  if (toolset.platforms && toolset.platforms.length > 0 && !toolset.platforms.includes(driver.platform as never)) return false;
  return true;
}

/** Upstream's convention: the `verification` toolset, or a driver's own `<x>_verification`, is what a `- verify:` step is offered. */
export function isVerificationToolset(id: string): boolean {
  return id === "verification" || id.endsWith("_verification");
}
