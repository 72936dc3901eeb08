// zod shapes of the three capture formats (upstream's TrailblazeNode tree, the legacy
// Maestro-shaped ViewHierarchyTreeNode, and a waypoint's *.example.json), and the wording of
// their validation failures as `<json path>: expected …, got …`.

import { z } from "zod";
import { valueAt } from "../core/describe.ts";
import { TYPE_ARTICLE } from "../core/zod-wording.ts";
import { DRIVER_CLASSES } from "./screen-model.ts";

const str = z.string().nullish();
const bool = z.boolean().nullish();
const int = z.number().int().nullish();

/** The driver fields a selector or a check reads, typed; other fields pass through unchecked. */
/** Maestro's node fields, the same on both platforms (iOS adds `visible`). */
const MAESTRO_FIELDS = {
  text: str,
  resourceId: str,
  accessibilityText: str,
  className: str,
  hintText: str,
  clickable: bool,
  enabled: bool,
  focused: bool,
  checked: bool,
  selected: bool,
  focusable: bool,
  scrollable: bool,
  password: bool,
};

const DRIVER_FIELDS = {
  androidAccessibility: {
    className: str,
    resourceId: str,
    uniqueId: str,
    composeTestTag: str,
    text: str,
    contentDescription: str,
    hintText: str,
    labeledByText: str,
    stateDescription: str,
    paneTitle: str,
    roleDescription: str,
    isEnabled: bool,
    isClickable: bool,
    isCheckable: bool,
    isChecked: bool,
    isSelected: bool,
    isFocused: bool,
    isEditable: bool,
    isScrollable: bool,
    isPassword: bool,
    isHeading: bool,
    isMultiLine: bool,
    inputType: int,
    collectionItemInfo: z.looseObject({ rowIndex: int, columnIndex: int }).nullish(),
  },
  androidMaestro: MAESTRO_FIELDS,
  iosMaestro: { ...MAESTRO_FIELDS, visible: bool },
  iosAxe: {
    role: str,
    subrole: str,
    label: str,
    value: str,
    uniqueId: str,
    type: str,
    title: str,
    customActions: z.array(z.string()).nullish(),
    enabled: bool,
  },
  web: {
    ariaRole: str,
    ariaName: str,
    ariaDescriptor: str,
    headingLevel: int,
    cssSelector: str,
    dataTestId: str,
    nthIndex: int,
    isInteractive: bool,
  },
  compose: {
    testTag: str,
    role: str,
    text: str,
    editableText: str,
    contentDescription: str,
    toggleableState: str,
    isEnabled: bool,
    isFocused: bool,
    isSelected: bool,
    isPassword: bool,
    hasClickAction: bool,
    hasScrollAction: bool,
  },
} satisfies Record<(typeof DRIVER_CLASSES)[number], z.ZodRawShape>;

const DriverDetailSchema = z.discriminatedUnion(
  "class",
  DRIVER_CLASSES.map((name) => z.looseObject({ class: z.literal(name), ...DRIVER_FIELDS[name] })) as unknown as [
    z.ZodObject,
    ...z.ZodObject[],
  ],
);

const BoundsSchema = z.object({ left: z.number(), top: z.number(), right: z.number(), bottom: z.number() });

export interface TrailblazeNodeJson {
  nodeId?: number | undefined;
  ref?: string | null | undefined;
  bounds?: z.infer<typeof BoundsSchema> | null | undefined;
  driverDetail: { class: (typeof DRIVER_CLASSES)[number]; [field: string]: unknown };
  children?: TrailblazeNodeJson[] | undefined;
}

export const TrailblazeNodeSchema: z.ZodType<TrailblazeNodeJson> = z.looseObject({
  nodeId: z.number().int().optional(),
  ref: z.string().nullish(),
  bounds: BoundsSchema.nullish(),
  driverDetail: DriverDetailSchema,
  get children() {
    return z.array(TrailblazeNodeSchema).optional();
  },
}) as unknown as z.ZodType<TrailblazeNodeJson>;

export interface ViewHierarchyJson {
  nodeId?: number | undefined;
  text?: string | null | undefined;
  resourceId?: string | null | undefined;
  accessibilityText?: string | null | undefined;
  className?: string | null | undefined;
  hintText?: string | null | undefined;
  x1?: number | undefined;
  y1?: number | undefined;
  x2?: number | undefined;
  y2?: number | undefined;
  bounds?: z.infer<typeof BoundsSchema> | string | null | undefined;
  centerPoint?: string | null | undefined;
  dimensions?: string | null | undefined;
  clickable?: boolean | undefined;
  enabled?: boolean | undefined;
  focused?: boolean | undefined;
  checked?: boolean | undefined;
  selected?: boolean | undefined;
  focusable?: boolean | undefined;
  scrollable?: boolean | undefined;
  password?: boolean | undefined;
  children?: ViewHierarchyJson[] | undefined;
}

const flag = z.boolean().optional();

export const ViewHierarchySchema: z.ZodType<ViewHierarchyJson> = z.looseObject({
  nodeId: z.number().int().optional(),
  text: str,
  resourceId: str,
  accessibilityText: str,
  className: str,
  hintText: str,
  x1: z.number().optional(),
  y1: z.number().optional(),
  x2: z.number().optional(),
  y2: z.number().optional(),
  bounds: z.union([BoundsSchema, z.string()]).nullish(),
  centerPoint: str,
  dimensions: str,
  clickable: flag,
  enabled: flag,
  focused: flag,
  checked: flag,
  selected: flag,
  focusable: flag,
  scrollable: flag,
  password: flag,
  get children() {
    return z.array(ViewHierarchySchema).optional();
  },
}) as unknown as z.ZodType<ViewHierarchyJson>;

export const WaypointCaptureSchema = z.looseObject({
  waypointId: z.string().optional(),
  capturedAt: z.string().optional(),
  capturedFrom: z.string().optional(),
  screenshotFile: z.string().nullish(),
  deviceWidth: z.number().int().positive().optional(),
  deviceHeight: z.number().int().positive().optional(),
  viewHierarchy: z.unknown().optional(),
  trailblazeNodeTree: z.unknown().optional(),
});

/** `$.children[2].bounds.left` for a zod issue path. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "$";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(String(segment))) out += `.${String(segment)}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

function shown(value: unknown): string {
  if (value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (value !== null && typeof value === "object") return "an object";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** One zod issue as `{path, problem}` in this project's wording. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): { path: string; problem: string } {
  const path = jsonPath(issue.path);
  const actual = valueAt(input, issue.path);
  switch (issue.code) {
    case "invalid_type":
      return { path, problem: `expected ${TYPE_ARTICLE[issue.expected] ?? issue.expected}, got ${shown(actual)}` };
    case "invalid_value":
      return { path, problem: `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${shown(actual)}` };
    case "invalid_union":
      if (issue.path.at(-1) === "class" || (issue as { note?: string }).note === "No matching discriminator") {
        const at = issue.path.at(-1) === "class" ? issue.path : [...issue.path, "class"];
        return {
          path: jsonPath(at),
          problem: `expected one of ${DRIVER_CLASSES.map((c) => JSON.stringify(c)).join(", ")}, got ${shown(valueAt(input, at))}`,
        };
      }
      return { path, problem: `unexpected value ${shown(actual)}` };
    case "too_small":
      return { path, problem: `expected a value of at least ${String(issue.minimum)}, got ${shown(actual)}` };
    default:
      return { path, problem: `${issue.message}, got ${shown(actual)}` };
  }
}
