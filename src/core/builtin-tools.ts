// The table of every built-in (framework) tool by name, what each does to the screen and whether
// the built-in agent's model may be offered it: the one list the screen model (shortcut actions,
// text semantics) and the agent read, kept equal to the tools `builtins/` defines by a test
// (src/builtins/builtin-table.test.ts).

/** `changes`: may change what the screen shows (taps, typing, keys, navigation, launches); `unchanged`: reads, checks, waits or remembers. */
type ScreenEffect = "changes" | "unchanged";

interface BuiltinToolInfo {
  screen: ScreenEffect;
  /** How a text tool's `text` finds its node: anywhere in the node's text (`contains`, a tap) or as a Maestro pattern (an assertion). */
  text?: "contains" | "pattern";
  /**
   * `false`: never offered to the built-in agent's model (upstream's `surfaceToLlm = false`): a
   * building block scripted tools compose, or a form a recording keeps while the model is offered
   * the by-ref one (`tap`, `assertVisible`). Recordings replay it, and `trailblaze mcp` still serves it.
   */
  llm?: false;
}

const changes: BuiltinToolInfo = { screen: "changes" };
const unchanged: BuiltinToolInfo = { screen: "unchanged" };
/** Hidden from models (see BuiltinToolInfo.llm). */
const hiddenChanges: BuiltinToolInfo = { screen: "changes", llm: false };
const hiddenUnchanged: BuiltinToolInfo = { screen: "unchanged", llm: false };

export const BUILTIN_TOOLS = {
  // Memory and assertions on values.
  assertEquals: unchanged,
  assertNotEquals: unchanged,
  assertMath: unchanged,
  // Upstream offers these two; here they would always fail (they need a model of their own).
  assertWithAi: hiddenUnchanged,
  rememberValue: unchanged,
  forgetValue: unchanged,
  dumpMemory: unchanged,
  rememberText: unchanged,
  rememberNumber: unchanged,
  rememberWithAi: hiddenUnchanged,
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
  dragByPoints: hiddenChanges,
  swipe: changes,
  swipeWithRelativeCoordinates: hiddenChanges,
  objectiveStatus: unchanged,
  // Elements.
  tap: changes,
  longPress: changes,
  dragTo: changes,
  tapOnElementWithText: { screen: "changes", text: "contains", llm: false },
  longPressOnElementWithText: hiddenChanges,
  tapOnElementWithAccessibilityText: hiddenChanges,
  longPressElementWithAccessibilityText: hiddenChanges,
  tapOnElementBySelector: hiddenChanges,
  tapOn: hiddenChanges,
  tapOnAccessibilityNode: hiddenChanges,
  scrollUntilTextIsVisible: changes,
  // Checks on the screen.
  assertVisible: unchanged,
  assertVisibleWithText: { screen: "unchanged", text: "pattern", llm: false },
  assertNotVisibleWithText: { screen: "unchanged", text: "pattern" },
  assertVisibleBySelector: hiddenUnchanged,
  assertNotVisibleBySelector: hiddenUnchanged,
  assertVisibleWithAccessibilityText: hiddenUnchanged,
  assertVisibleWithResourceId: hiddenUnchanged,
  waitUntilNotVisible: hiddenUnchanged,
  assertWaypoint: unchanged,
  findMatches: hiddenUnchanged,
  requestDetailedViewHierarchy: unchanged,
  // Mobile and Android primitives.
  mobile_setClipboard: unchanged,
  mobile_pasteClipboard: changes,
  mobile_listInstalledApps: unchanged,
  mobile_listInstalledAppsDetailed: hiddenUnchanged,
  mobile_clearAppData: hiddenChanges,
  mobile_maestro: hiddenChanges,
  exec: hiddenChanges,
  android_adbShell: hiddenChanges,
  android_grantPermissions: hiddenUnchanged,
  android_grantAppOpsPermission: hiddenUnchanged,
  android_sendBroadcast: hiddenChanges,
  android_systemUiDemoMode: hiddenChanges,
  android_writeBytesToFile: hiddenUnchanged,
  android_writeFileToDownloads: hiddenUnchanged,
  android_writeImageToMediaStore: hiddenUnchanged,
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
  web_evaluate: hiddenChanges,
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

/** Whether the built-in agent may offer `name` to its model: any tool but a built-in whose row says `llm: false`. */
export const surfacesToLlm = (name: string): boolean => builtinInfo(name)?.llm !== false;

/** Whether `name` is a built-in that leaves the screen as it is (a tool of yours may change it). */
export const leavesScreenUnchanged = (name: string): boolean => builtinInfo(name)?.screen === "unchanged";
