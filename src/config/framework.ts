// Names upstream's framework defines in its own resources (trailblaze-models' trails/config): the
// library trailmaps a workspace may depend on without a folder of its own, and the framework
// toolsets targets list under tool_sets. The tools themselves are this runtime's built-ins.

/** Library trailmaps built into the framework: a dependency on one needs no trailmaps/<id>/ folder. */
export const FRAMEWORK_TRAILMAPS: ReadonlySet<string> = new Set(["trailblaze", "mobile", "android"]);

/** The framework's toolsets: a target's tool_sets may name them with no toolsets/<id>.yaml. */
export const FRAMEWORK_TOOLSETS: ReadonlySet<string> = new Set([
  "core_interaction",
  "navigation",
  "observation",
  "verification",
  "memory",
  "meta",
  "web_core",
  "web_verification",
  "compose_core",
  "compose_verification",
  "mobile_primitives",
  "android_primitives",
  "android_framework",
]);
