// The table of every built-in (framework) tool by name, and what each does to the screen: the one
// list the screen model (shortcut actions, text semantics) reads, kept equal to the tools
// `builtins/` defines by a test (src/builtins/builtin-table.test.ts).

/** `changes`: may change what the screen shows (taps, typing, keys, navigation, launches); `unchanged`: reads, checks, waits or remembers. */
type ScreenEffect = "changes" | "unchanged";

interface BuiltinToolInfo {
  screen: ScreenEffect;
  /** How a text tool's `text` finds its node: anywhere in the node's text (`contains`, a tap) or as a Maestro pattern (an assertion). */
  text?: "contains" | "pattern";
}

const changes: BuiltinToolInfo = { screen: "changes" };
const unchanged: BuiltinToolInfo = { screen: "unchanged" };

export const BUILTIN_TOOLS = {
  // Memory and assertions on values.
  assertEquals: unchanged,
  assertNotEquals: unchanged,
  assertMath: unchanged,
  assertWithAi: unchanged,
  rememberValue: unchanged,
  forgetValue: unchanged,
  dumpMemory: unchanged,
  rememberText: unchanged,
  rememberNumber: unchanged,
  rememberWithAi: unchanged,
  // The device.
  launchApp: changes,
  inputText: changes,
  inputTextRandom: changes,
  eraseText: changes,
  clearText: changes,
  hideKeyboard: changes,
  pressBack: changes,
  pressKey: changes,
  openUrl: changes,
  networkConnection: unchanged,
  wait: unchanged,
  waitForChange: unchanged,
  takeSnapshot: unchanged,
  tapOnPoint: changes,
  dragByPoints: changes,
  swipe: changes,
  swipeWithRelativeCoordinates: changes,
  objectiveStatus: unchanged,
  // Elements.
  tap: changes,
  longPress: changes,
  dragTo: changes,
  tapOnElementWithText: { screen: "changes", text: "contains" },
  longPressOnElementWithText: changes,
  tapOnElementWithAccessibilityText: changes,
  longPressElementWithAccessibilityText: changes,
  tapOnElementBySelector: changes,
  tapOn: changes,
  tapOnAccessibilityNode: changes,
  scrollUntilTextIsVisible: changes,
  // Checks on the screen.
  assertVisible: unchanged,
  assertVisibleWithText: { screen: "unchanged", text: "pattern" },
  assertNotVisibleWithText: { screen: "unchanged", text: "pattern" },
  assertVisibleBySelector: unchanged,
  assertNotVisibleBySelector: unchanged,
  assertVisibleWithAccessibilityText: unchanged,
  assertVisibleWithResourceId: unchanged,
  waitUntilNotVisible: unchanged,
  assertWaypoint: unchanged,
  findMatches: unchanged,
  requestDetailedViewHierarchy: unchanged,
  // Mobile and Android primitives.
  mobile_setClipboard: unchanged,
  mobile_pasteClipboard: changes,
  mobile_listInstalledApps: unchanged,
  mobile_listInstalledAppsDetailed: unchanged,
  mobile_clearAppData: changes,
  mobile_maestro: changes,
  exec: changes,
  android_adbShell: changes,
  android_grantPermissions: unchanged,
  android_grantAppOpsPermission: unchanged,
  android_sendBroadcast: changes,
  android_systemUiDemoMode: changes,
  android_writeBytesToFile: unchanged,
  android_writeFileToDownloads: unchanged,
  android_writeImageToMediaStore: unchanged,
  // The web (Playwright).
  web_navigate: changes,
  web_currentUrl: unchanged,
  web_waitForUrl: unchanged,
  web_resize: changes,
  web_pressKey: changes,
  web_wait: unchanged,
  web_snapshot: unchanged,
  web_applyCookies: unchanged,
  web_getStorageState: unchanged,
  web_requestDetails: unchanged,
  web_assertNetworkEvent: unchanged,
  web_evaluate: changes,
  web_fillSecret: changes,
  web_click: changes,
  web_hover: changes,
  web_type: changes,
  web_selectOption: changes,
  web_scroll: changes,
  web_verifyElementVisible: unchanged,
  web_verifyTextVisible: unchanged,
  web_verifyListVisible: unchanged,
  web_verifyValue: unchanged,
  // Desktop (Compose, Electron).
  playwright_desktop_launchGoose: changes,
  compose_click: changes,
  compose_type: changes,
  compose_scroll: changes,
  compose_verify_element_visible: unchanged,
  compose_verify_text_visible: unchanged,
  compose_wait: unchanged,
  compose_request_details: unchanged,
} satisfies Readonly<Record<string, BuiltinToolInfo>>;

/** The name of a built-in: what `builtins/` tables are keyed by. */
export type BuiltinName = keyof typeof BUILTIN_TOOLS;

/** What `name` does to the screen, when it is a built-in. */
const builtinInfo = (name: string): BuiltinToolInfo | undefined =>
  Object.hasOwn(BUILTIN_TOOLS, name) ? BUILTIN_TOOLS[name as BuiltinName] : undefined;

/** Whether `name` is a built-in that leaves the screen as it is (a tool of yours may change it). */
export const leavesScreenUnchanged = (name: string): boolean => builtinInfo(name)?.screen === "unchanged";
