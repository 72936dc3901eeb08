// Selector types for tools that pass selectors to framework tools (`tapOnElementBySelector`,
// `findMatches` …): the TrailblazeNodeSelector format recordings write under `nodeSelector:`.
// `selectors.<driver>({...})` is the same object as the literal `{ <driver>: {...} }`.

type Pattern = string | null;
type Flag = boolean | null;

/** Android accessibility-service nodes. Regex fields match the whole text. */
export interface DriverNodeMatchAndroidAccessibility {
  classNameRegex?: Pattern;
  resourceIdRegex?: Pattern;
  uniqueId?: string | null;
  composeTestTagRegex?: Pattern;
  textRegex?: Pattern;
  contentDescriptionRegex?: Pattern;
  hintTextRegex?: Pattern;
  labeledByTextRegex?: Pattern;
  stateDescriptionRegex?: Pattern;
  paneTitleRegex?: Pattern;
  roleDescriptionRegex?: Pattern;
  isEnabled?: Flag;
  isClickable?: Flag;
  isCheckable?: Flag;
  isChecked?: Flag;
  isSelected?: Flag;
  isFocused?: Flag;
  isEditable?: Flag;
  isScrollable?: Flag;
  isPassword?: Flag;
  isHeading?: Flag;
  isMultiLine?: Flag;
  inputType?: number | null;
  collectionItemRowIndex?: number | null;
  collectionItemColumnIndex?: number | null;
}

/** Maestro's Android hierarchy (case-insensitive patterns). */
export interface DriverNodeMatchAndroidMaestro {
  textRegex?: Pattern;
  resourceIdRegex?: Pattern;
  accessibilityTextRegex?: Pattern;
  classNameRegex?: Pattern;
  hintTextRegex?: Pattern;
  clickable?: Flag;
  enabled?: Flag;
  focused?: Flag;
  checked?: Flag;
  selected?: Flag;
}

/** Maestro's iOS hierarchy. */
export interface DriverNodeMatchIosMaestro {
  textRegex?: Pattern;
  resourceIdRegex?: Pattern;
  accessibilityTextRegex?: Pattern;
  classNameRegex?: Pattern;
  hintTextRegex?: Pattern;
  focused?: Flag;
  selected?: Flag;
}

/** iOS accessibility (AXe). */
export interface DriverNodeMatchIosAxe {
  roleRegex?: Pattern;
  subroleRegex?: Pattern;
  labelRegex?: Pattern;
  valueRegex?: Pattern;
  uniqueId?: string | null;
  typeRegex?: Pattern;
  titleRegex?: Pattern;
  customAction?: string | null;
  enabled?: Flag;
}

/** Web pages (Playwright). */
export interface DriverNodeMatchWeb {
  ariaRole?: string | null;
  ariaNameRegex?: Pattern;
  ariaDescriptorRegex?: Pattern;
  headingLevel?: number | null;
  cssSelector?: string | null;
  dataTestId?: string | null;
  nthIndex?: number | null;
}

/** Jetpack Compose semantics nodes. */
export interface DriverNodeMatchCompose {
  testTag?: string | null;
  role?: string | null;
  textRegex?: Pattern;
  editableTextRegex?: Pattern;
  contentDescriptionRegex?: Pattern;
  toggleableState?: string | null;
  isEnabled?: Flag;
  isFocused?: Flag;
  isSelected?: Flag;
  isPassword?: Flag;
}

/** One driver's matcher plus relations to other nodes; `index` picks among several matches. */
export interface TrailblazeNodeSelector {
  androidAccessibility?: DriverNodeMatchAndroidAccessibility | null;
  androidMaestro?: DriverNodeMatchAndroidMaestro | null;
  web?: DriverNodeMatchWeb | null;
  compose?: DriverNodeMatchCompose | null;
  iosMaestro?: DriverNodeMatchIosMaestro | null;
  iosAxe?: DriverNodeMatchIosAxe | null;
  below?: TrailblazeNodeSelector | null;
  above?: TrailblazeNodeSelector | null;
  leftOf?: TrailblazeNodeSelector | null;
  rightOf?: TrailblazeNodeSelector | null;
  childOf?: TrailblazeNodeSelector | null;
  containsChild?: TrailblazeNodeSelector | null;
  containsDescendants?: TrailblazeNodeSelector[] | null;
  index?: number | null;
}

export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** One node `findMatches` found. */
export interface MatchDescriptor {
  indexPath: number[];
  bounds?: Bounds | null;
  matchedText?: string | null;
  accessibilityId?: string | null;
  resourceId?: string | null;
}

/** `selectors.androidAccessibility({ textRegex: "Log in" })` ≡ `{ androidAccessibility: { textRegex: "Log in" } }`. */
export const selectors = {
  androidAccessibility: (match: DriverNodeMatchAndroidAccessibility): TrailblazeNodeSelector => ({ androidAccessibility: match }),
  androidMaestro: (match: DriverNodeMatchAndroidMaestro): TrailblazeNodeSelector => ({ androidMaestro: match }),
  iosMaestro: (match: DriverNodeMatchIosMaestro): TrailblazeNodeSelector => ({ iosMaestro: match }),
  iosAxe: (match: DriverNodeMatchIosAxe): TrailblazeNodeSelector => ({ iosAxe: match }),
  web: (match: DriverNodeMatchWeb): TrailblazeNodeSelector => ({ web: match }),
  compose: (match: DriverNodeMatchCompose): TrailblazeNodeSelector => ({ compose: match }),
};
