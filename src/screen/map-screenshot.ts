// A waypoint's screenshot, as upstream ships it beside the capture (`<name>.example.webp` or
// `.png` next to `<name>.example.json`), read for a page that embeds it: its type and pixel size
// read from the file's own header (not its name), and the bytes as a data: URL. A file that is not a
// PNG or WebP image, or is too large to embed, is not a picture: the reason says so.

import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";

export interface Screenshot {
  /** The file's base name (for tooltips and notes). */
  name: string;
  /** `data:image/…;base64,…`: the file as it is (no re-encoding). */
  dataUrl: string;
  /** Pixel size from the image's header. */
  width: number;
  height: number;
  bytes: number;
}

/** Why a screenshot beside a capture is not shown (it exists but cannot be embedded). */
export interface ScreenshotSkipped {
  name: string;
  reason: string;
}

/** The largest screenshot embedded, in bytes: upstream's are 20–40 KB; a page of 100 stays a few MB. */
export const MAX_SCREENSHOT_BYTES = 1024 * 1024;

/** The extensions looked for beside `<name>.example.json`, in order. */
const EXTENSIONS = [".webp", ".png"] as const;

/** `{type, width, height}` from a PNG or WebP header; undefined for anything else. */
export function imageHeader(bytes: Uint8Array): { type: "image/png" | "image/webp"; width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ascii = (at: number, length: number) => String.fromCharCode(...bytes.subarray(at, at + length));
  if (bytes.length >= 24 && ascii(1, 3) === "PNG" && bytes[0] === 0x89 && ascii(12, 4) === "IHDR") {
    return { type: "image/png", width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (bytes.length >= 30 && ascii(0, 4) === "RIFF" && ascii(8, 4) === "WEBP") {
    const chunk = ascii(12, 4);
    if (chunk === "VP8 " && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) {
      return { type: "image/webp", width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
    }
    if (chunk === "VP8L" && bytes[20] === 0x2f) {
      const bits = view.getUint32(21, true);
      return { type: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === "VP8X") {
      const u24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
      return { type: "image/webp", width: u24(24) + 1, height: u24(27) + 1 };
    }
  }
  return undefined;
}

/**
 * The screenshot beside `capture` (a `*.example.json` path), if any: a Screenshot to embed, a
 * ScreenshotSkipped when the file is there but is not a PNG/WebP image or is over `maxBytes`.
 */
export async function screenshotBeside(capture: string, maxBytes: number = MAX_SCREENSHOT_BYTES): Promise<Screenshot | ScreenshotSkipped | undefined> {
  if (!capture.endsWith(".example.json")) return undefined;
  const stem = capture.slice(0, -".json".length);
  const file = EXTENSIONS.map((ext) => stem + ext).find((f) => existsSync(f));
  if (!file) return undefined;
  const name = basename(file);
  const size = (await stat(file)).size;
  if (size > maxBytes) return { name, reason: `${name} is ${Math.round(size / 1024)} KiB, over the ${Math.round(maxBytes / 1024)} KiB a page embeds` };
  const bytes = new Uint8Array(await readFile(file));
  const header = imageHeader(bytes);
  if (!header || header.width < 1 || header.height < 1) return { name, reason: `${name} is not a PNG or WebP image` };
  return { name, dataUrl: `data:${header.type};base64,${Buffer.from(bytes).toString("base64")}`, width: header.width, height: header.height, bytes: size };
}

/** Whether `value` is a screenshot to embed (not a skipped one). */
export const isScreenshot = (value: Screenshot | ScreenshotSkipped | undefined): value is Screenshot => value !== undefined && "dataUrl" in value;
