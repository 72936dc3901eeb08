// Set-of-mark screenshots (upstream's SetOfMarkAnnotator): each element's ref drawn in a box on the
// screenshot a model with vision gets, so the outline it reads and the picture it sees name the same
// elements. On a real page the boxes are laid over the page for the one screenshot and taken away;
// a captured screen's screenshot is drawn with its boxes by the same Chromium into an image. The
// boxes are made with the DOM (textContent, style properties): nothing of a ref is read as markup.

import type { Page } from "playwright-core";
import type { ChromiumBrowser } from "./chromium-browser.ts";

/** One element to mark: its ref and its box, in the page's CSS pixels (or the capture's pixels). */
export interface Mark {
  ref: string;
  box: { x: number; y: number; width: number; height: number };
}

/** What the functions run in the page use of the DOM: this code is compiled without the DOM's types. */
interface InPage {
  document: {
    createElement(tag: string): InPageElement;
    getElementById(id: string): InPageElement | null;
    documentElement: InPageElement;
    body: InPageElement;
  };
}
interface InPageElement {
  id: string;
  style: Record<string, string>;
  textContent: string | null;
  src: string;
  append(...children: InPageElement[]): void;
  remove(): void;
  decode(): Promise<void>;
}

/** The id of the layer the marks are drawn in, so it can be taken away again. */
const LAYER = "trailblaze-set-of-mark";
/** Box colours, taken in turn, so neighbours differ. */
const COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080", "#9a6324", "#800000"];
/** The widest a capture's marked image is drawn (its pixels scaled down to it): enough to read, not a 1080x2400 JPEG a turn. */
const CAPTURE_WIDTH = 540;

/** Draws `marks` in a fixed layer over the page, scaled by `scale` (capture pixels to CSS pixels). */
async function drawMarks(page: Page, marks: readonly Mark[], scale: number): Promise<void> {
  await page.evaluate(
    async ({ marks, scale, layer, colours }) => {
      const { document } = globalThis as unknown as InPage;
      const root = document.createElement("div");
      root.id = layer;
      Object.assign(root.style, { position: "fixed", inset: "0", pointerEvents: "none", zIndex: "2147483647" });
      marks.forEach((mark, i) => {
        const colour = colours[i % colours.length]!;
        const box = document.createElement("div");
        Object.assign(box.style, {
          position: "absolute",
          left: `${mark.box.x * scale}px`,
          top: `${mark.box.y * scale}px`,
          width: `${Math.max(1, mark.box.width * scale)}px`,
          height: `${Math.max(1, mark.box.height * scale)}px`,
          border: `2px solid ${colour}`,
          boxSizing: "border-box",
        });
        const label = document.createElement("span");
        label.textContent = mark.ref;
        Object.assign(label.style, {
          position: "absolute",
          right: "0",
          bottom: "0",
          background: colour,
          color: "#fff",
          font: "bold 11px/1.2 monospace",
          padding: "0 2px",
        });
        box.append(label);
        root.append(box);
      });
      document.documentElement.append(root);
      // Drawn before the screenshot is taken: two frames on, the layer is on screen.
      const frame = (globalThis as unknown as { requestAnimationFrame(callback: () => void): void }).requestAnimationFrame;
      return new Promise<void>((resolve) => frame(() => frame(() => resolve())));
    },
    { marks: [...marks], scale, layer: LAYER, colours: COLOURS },
  );
}

/** The page as it shows now, with `marks` over it (a JPEG); the page is left as it was. */
export async function markedPageScreenshot(page: Page, marks: readonly Mark[], timeoutMs: number): Promise<Buffer> {
  await drawMarks(page, marks, 1);
  try {
    return await page.screenshot({ type: "jpeg", quality: 50, timeout: timeoutMs });
  } finally {
    await page.evaluate((layer) => (globalThis as unknown as InPage).document.getElementById(layer)?.remove(), LAYER).catch(() => {});
  }
}

/**
 * A captured screen's screenshot (`image`, a data URL, drawn at the capture's `size` in pixels) with
 * `marks` (in the capture's pixels), drawn by `browser` in a context of its own and scaled to at
 * most CAPTURE_WIDTH wide: a JPEG.
 */
export async function markedCapture(
  browser: ChromiumBrowser,
  image: string,
  size: { width: number; height: number },
  marks: readonly Mark[],
): Promise<Buffer> {
  const scale = Math.min(1, CAPTURE_WIDTH / size.width);
  const viewport = { width: Math.round(size.width * scale), height: Math.round(size.height * scale) };
  const context = await browser.newContext(viewport);
  try {
    const page = await context.newPage();
    await page.evaluate(
      async ({ image, viewport }) => {
        const { document } = globalThis as unknown as InPage;
        document.body.style.margin = "0";
        const img = document.createElement("img");
        Object.assign(img.style, { display: "block", width: `${viewport.width}px`, height: `${viewport.height}px` });
        img.src = image;
        document.body.append(img);
        await img.decode();
      },
      { image, viewport },
    );
    await drawMarks(page, marks, scale);
    return await page.screenshot({ type: "jpeg", quality: 60 });
  } finally {
    await context.close().catch(() => {});
  }
}
