// What the model is shown of the screen: a compact outline of the simulated device's capture (only
// the nodes that show text, carry an id or can be acted on, indented under each other, each with
// the ref `tap` and `assertVisible` accept: `[n12] Button "Sign in"`) and, for a model with
// vision, the screenshot beside the capture when there is one; or the real page's element list
// (`[e5] button "Add one"`: the refs the web_* tools accept) and, for a model with vision, its
// screenshot. Either screenshot has the refs drawn on it (set-of-mark, browser/set-of-mark.ts).
// Sent afresh with every request. Every secret value is masked before it leaves (a screenshot is
// pixels, and is not).

import { ariaElements } from "../browser/aria-elements.ts";
import { sharedBrowser } from "../browser/chromium-browser.ts";
import { findChromium } from "../browser/find-chromium.ts";
import { markedCapture, type Mark } from "../browser/set-of-mark.ts";
import type { Secrets } from "../core/secrets.ts";
import { embedScreenshot } from "../screen/screenshot.ts";
import {
  hasIdentifiableProperties,
  isInteractive,
  nodeResourceId,
  nodeText,
  nodeType,
  refOf,
  type DriverDetail,
  type Screen,
  type ScreenNode,
} from "../screen/screen-model.ts";
import type { Session } from "../session/session.ts";

interface ShownScreen {
  /** The outline as the model reads it (masked). */
  outline: string;
  /** The screenshot (a data: URL) when the model has vision and the screen has one. */
  image?: { data: string; mediaType: string };
}

function worthShowing(node: ScreenNode): boolean {
  return (
    nodeText(node.detail) !== undefined ||
    isInteractive(node.detail) ||
    (node.depth > 0 && hasIdentifiableProperties(node.detail) && node.children.length === 0)
  );
}

/** A state a node shows, as upstream's compact list writes it: each driver's own flag names. */
const STATES: readonly [label: string, fields: readonly string[], when: boolean][] = [
  ["checked", ["isChecked", "checked"], true],
  ["selected", ["isSelected", "selected"], true],
  ["focused", ["isFocused", "focused"], true],
  ["disabled", ["isEnabled", "enabled"], false],
  ["password", ["isPassword", "password"], true],
];

/** `[n12] Button "Sign in" [id=com.app:id/login] [disabled] *`: ref, type, text, id, states, whether it can be acted on. */
function outlineLine(node: ScreenNode): string {
  const parts = [`[${refOf(node)}]`];
  const type = nodeType(node.detail);
  if (type) parts.push(type);
  const text = nodeText(node.detail);
  if (text !== undefined) parts.push(JSON.stringify(text.replace(/\s+/g, " ").trim()));
  const id = nodeResourceId(node.detail);
  if (id && node.detail.class !== "web") parts.push(`[id=${id}]`);
  for (const [label, fields, when] of STATES) if (fields.some((f) => flag(node.detail, f) === when)) parts.push(`[${label}]`);
  if (isInteractive(node.detail)) parts.push("*");
  return parts.join(" ");
}

const flag = (detail: DriverDetail, field: string): boolean | undefined =>
  typeof detail[field] === "boolean" ? (detail[field] as boolean) : undefined;

/** Outlines by screen: a capture is never changed once loaded, and a device that moves shows another Screen. */
const outlines = new WeakMap<Screen, string>();

/** The capture as compact lines: kept nodes only, each indented by its kept ancestors (made once per screen). */
function compactOutline(screen: Screen): string {
  let outline = outlines.get(screen);
  if (outline === undefined) outlines.set(screen, (outline = outlineOf(screen)));
  return outline;
}

/** The nodes the outline shows, each with its depth among them (indented by its shown ancestors). */
function shownNodes(screen: Screen): { node: ScreenNode; depth: number }[] {
  const shown: { node: ScreenNode; depth: number }[] = [];
  const depthOf = new Map<ScreenNode, number>();
  for (const node of screen.nodes) {
    let ancestor = node.parent;
    while (ancestor && !depthOf.has(ancestor)) ancestor = ancestor.parent;
    const depth = ancestor ? depthOf.get(ancestor)! + 1 : 0;
    if (!worthShowing(node)) continue;
    depthOf.set(node, depth);
    shown.push({ node, depth });
  }
  return shown;
}

function outlineOf(screen: Screen): string {
  const lines = shownNodes(screen).map(({ node, depth }) => `${"  ".repeat(depth)}${outlineLine(node)}`);
  return `${screen.width}x${screen.height}, ${lines.length} of ${screen.nodes.length} nodes shown ([ref] = what tap and assertVisible take; * = can be acted on):\n${lines.join("\n")}`;
}

/** A capture's screenshot (the file beside it) as a data URL, read once per process. */
const screenshots = new Map<string, string | undefined>();

function screenshotOf(file: string): string | undefined {
  if (!screenshots.has(file)) {
    const embedded = embedScreenshot(file);
    screenshots.set(file, "screenshot" in embedded ? embedded.screenshot : undefined);
  }
  return screenshots.get(file);
}

/** Marked screenshots by screen (a capture's never changes): drawn once. */
const marked = new WeakMap<Screen, Promise<ShownScreen["image"]>>();

/**
 * The capture's screenshot with the outline's refs drawn on it (set-of-mark), by Chromium: the
 * session's, else the one on this machine; where none can start, or the session was told
 * `--browser none`, the screenshot as it is.
 */
function markedScreenshotOf(session: Session, screen: Screen, file: string): Promise<ShownScreen["image"]> {
  let image = marked.get(screen);
  if (image === undefined) {
    const plain = screenshotOf(file);
    const marks: Mark[] = shownNodes(screen).flatMap(({ node }) =>
      node.bounds
        ? [
            {
              ref: refOf(node),
              box: {
                x: node.bounds.left,
                y: node.bounds.top,
                width: node.bounds.right - node.bounds.left,
                height: node.bounds.bottom - node.bounds.top,
              },
            },
          ]
        : [],
    );
    image = (async () => {
      if (plain === undefined) return undefined;
      if (session.spec.noBrowser) return dataUrl(plain);
      try {
        const browser = await sharedBrowser(session.spec.browser?.executable ?? findChromium());
        const jpeg = await markedCapture(browser, plain, { width: screen.width, height: screen.height }, marks);
        return { data: Buffer.from(jpeg).toString("base64"), mediaType: "image/jpeg" };
      } catch {
        return dataUrl(plain);
      }
    })();
    marked.set(screen, image);
  }
  return image;
}

function dataUrl(url: string): ShownScreen["image"] {
  const match = /^data:([^;,]+);base64,/.exec(url);
  return match ? { data: url.slice(match[0].length), mediaType: match[1]! } : undefined;
}

export async function showScreen(session: Session, secrets: Secrets, options: { vision: boolean }): Promise<ShownScreen> {
  const state = session.screen;
  if (state) {
    const where = state.waypoint !== undefined ? `The device is at waypoint ${state.waypoint}.\n` : "";
    const file = state.screen.screenshot;
    const image = options.vision && file !== undefined ? await markedScreenshotOf(session, state.screen, file) : undefined;
    return { outline: secrets.mask(`${where}${compactOutline(state.screen)}`), ...(image ? { image } : {}) };
  }
  if (session.web) {
    const page = await session.pageSnapshot({ screenshot: false });
    if (page) {
      // The page's elements numbered as the web_* tools' `ref` reads them ([e5]), and drawn on its screenshot.
      const elements = ariaElements(page.outline);
      const shot = options.vision ? await session.web.markedScreenshot(elements) : undefined;
      const image = shot ? dataUrl(shot) : undefined;
      return { outline: secrets.mask(`Page ${page.url} "${page.title}":\n${elements.text}`), ...(image ? { image } : {}) };
    }
    return { outline: "The browser has no page open yet: open one with web_navigate." };
  }
  return {
    outline:
      "No screen is loaded in this session (no capture, app map or browser): act with the tools alone, and say so if the objective needs to see the screen.",
  };
}
